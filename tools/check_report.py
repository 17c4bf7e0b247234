"""Writes `lifetrace report` of several shipped traces and opens it from disk (file://, no server: the page
must need nothing else) in headless Chromium; asserts on the DOM: one summary row per trace, one lane per
controller, the finding count of each trace's audit, and that the state panel's text at clicked instants and at
a finding's time equals `lifetrace state TRACE --at T` for that instant; the filters narrow what is shown.
Saves screenshots. A report whose embedded state was tampered with must fail the comparison (negative control).

usage: check_report.py LIFETRACE OUTDIR
"""

import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_check as bc  # noqa: E402

TOOL = "tools/check-report"
TRACES = [
    "traces/cancelled-swipe-back-save.lifetrace",
    "traces/background-draft-lost.lifetrace",
    "traces/child-containment.lifetrace",
    "traces/cases/07-page-scroll-cancelled.lifetrace",
]


def run(*arguments):
    result = subprocess.run(arguments, capture_output=True, text=True)
    if result.returncode not in (0, 1):
        bc.fail(TOOL, f"{' '.join(arguments)} exited {result.returncode}: {result.stderr.strip()}")
    return result.stdout


def controllers_of(lifetrace, trace, outdir):
    """Every controller the trace names, from its JSON Lines export (not from the report)."""
    path = os.path.join(outdir, os.path.basename(trace) + ".jsonl")
    run(lifetrace, "export", trace, "-o", path)
    names = set()
    with open(path) as lines:
        for line in lines:
            event = json.loads(line)
            if isinstance(event.get("controller"), str):
                names.add(event["controller"])
            for value in [event.get("container"), event.get("parent"), *(event.get("controllers") or [])]:
                if isinstance(value, dict) and "name" in value:
                    names.add(value["name"])
    return names


def state_text(lifetrace, trace, t_ns):
    return run(lifetrace, "state", trace, "--at", f"{t_ns}ns").rstrip("\n")


def panel(driver):
    from selenium.webdriver.common.by import By
    text = driver.find_element(By.ID, "state-text").get_attribute("textContent").rstrip("\n")
    t = driver.find_element(By.ID, "state-panel").get_attribute("data-t")
    return text, t


def click_lanes_at(driver, fraction):
    """Clicks the lanes area at `fraction` of the track's width (on the first lane's row)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    axis = driver.find_element(By.ID, "axis")
    lanes = driver.find_element(By.ID, "lanes")
    axis_rect = axis.rect
    lanes_rect = lanes.rect
    x = axis_rect["x"] + axis_rect["width"] * fraction
    y = lanes_rect["y"] + 8
    ActionChains(driver).move_to_element_with_offset(lanes, int(x - (lanes_rect["x"] + lanes_rect["width"] / 2)), int(y - (lanes_rect["y"] + lanes_rect["height"] / 2))).click().perform()


def check_states(driver, lifetrace, trace, label, failures):
    from selenium.webdriver.common.by import By
    compared = 0
    for fraction in (0.13, 0.5, 0.61, 0.87):
        click_lanes_at(driver, fraction)
        text, t = panel(driver)
        if t is None:
            failures.append(f"{label}: clicking at {fraction:.2f} of the axis set no instant")
            continue
        expected = state_text(lifetrace, trace, t)
        if text != expected:
            failures.append(f"{label}: the state panel at t={t} ns differs from 'lifetrace state {trace} --at {t}ns':\n--- page\n{text}\n--- command\n{expected}")
        compared += 1
    findings = driver.find_elements(By.CSS_SELECTOR, "#finding-list li.finding")
    if findings:
        finding_t = findings[0].get_attribute("data-t")
        findings[0].click()
        text, t = panel(driver)
        if t != finding_t:
            failures.append(f"{label}: the first finding jumps to {t}, not its time {finding_t}")
        elif text != state_text(lifetrace, trace, t):
            failures.append(f"{label}: after jumping to the first finding, the state panel differs from 'lifetrace state --at {t}ns'")
        if not driver.find_elements(By.CSS_SELECTOR, ".hl"):
            failures.append(f"{label}: the first finding highlights no related event")
        compared += 1
    return compared


def main():
    lifetrace, outdir = sys.argv[1], sys.argv[2]
    report = os.path.join(outdir, "report.html")
    run(lifetrace, "report", *TRACES, "-o", report)
    with open(report) as page:
        html = page.read()
    for needle in ("http://", "https://", "<link", "src="):
        if needle in html:
            bc.fail(TOOL, f"the report is not self-contained: it contains '{needle}'")

    audit = json.loads(run(lifetrace, "audit", *TRACES, "--format", "json"))
    per_trace = {t["path"]: t["findings"] for t in audit["traces"]}

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    failures = []
    compared = 0
    driver = bc.start_browser(1500, 1100)
    try:
        driver.get("file://" + os.path.abspath(report))
        bc.wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#summary-table tbody tr"), 30, "the summary table")
        rows = driver.find_elements(By.CSS_SELECTOR, "#summary-table tbody tr")
        if len(rows) != len(TRACES):
            bc.fail(TOOL, f"the summary table has {len(rows)} rows for {len(TRACES)} traces")
        for index, trace in enumerate(TRACES):
            driver.find_elements(By.CSS_SELECTOR, "#summary-table tbody tr")[index].click()
            time.sleep(0.3)
            lanes = [lane.get_attribute("data-name") for lane in driver.find_elements(By.CSS_SELECTOR, ".lane:not(.app-lane)")]
            expected_lanes = controllers_of(lifetrace, trace, outdir)
            if set(lanes) != expected_lanes or len(lanes) != len(expected_lanes):
                failures.append(f"{trace}: lanes {sorted(lanes)}, the trace names {sorted(expected_lanes)}")
            count = int(driver.find_element(By.ID, "finding-count").text)
            if count != per_trace[trace]:
                failures.append(f"{trace}: the page counts {count} findings, 'lifetrace audit' {per_trace[trace]}")
            compared += check_states(driver, lifetrace, trace, trace, failures)
            if index == 0:
                driver.find_element(By.ID, "zoom-reset").click()
                click_lanes_at(driver, 0.61)
                driver.save_screenshot(os.path.join(outdir, "report.png"))
                # Filters: one controller shows one lane; one rule shows only its findings.
                Select(driver.find_element(By.ID, "filter-controller")).select_by_visible_text("NoteEditorViewController#3")
                shown = driver.find_elements(By.CSS_SELECTOR, ".lane")
                if [lane.get_attribute("data-name") for lane in shown] != ["NoteEditorViewController#3"]:
                    failures.append(f"{trace}: the controller filter shows {[lane.get_attribute('data-name') for lane in shown]}")
                Select(driver.find_element(By.ID, "filter-controller")).select_by_index(0)
                Select(driver.find_element(By.ID, "filter-rule")).select_by_visible_text("critical_save_placement")
                rules = {item.find_element(By.CSS_SELECTOR, ".rule").text for item in driver.find_elements(By.CSS_SELECTOR, "#finding-list li.finding")}
                if rules != {"critical_save_placement"}:
                    failures.append(f"{trace}: the rule filter shows findings of {sorted(rules)}")
                Select(driver.find_element(By.ID, "filter-rule")).select_by_index(0)
                driver.find_element(By.ID, "zoom-in").click()
                driver.find_element(By.ID, "zoom-in").click()
                driver.save_screenshot(os.path.join(outdir, "report-zoomed.png"))
                compared += check_states(driver, lifetrace, trace, trace + " (zoomed in)", failures)
                driver.find_element(By.ID, "zoom-reset").click()

        # Negative control: a report whose embedded state text was changed must not pass the comparison.
        tampered = os.path.join(outdir, "tampered.html")
        with open(tampered, "w") as page:
            page.write(html.replace("; app active;", "; app inactive;"))
        driver.get("file://" + os.path.abspath(tampered))
        bc.wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#summary-table tbody tr"), 30, "the tampered report")
        control = []
        check_states(driver, lifetrace, TRACES[0], "tampered", control)
        if not control:
            bc.fail(TOOL, "the negative control passed: a report with a changed state text still equals 'lifetrace state --at'")
    finally:
        driver.quit()
    if failures:
        bc.fail(TOOL, "\n".join(failures))
    size = os.path.getsize(report)
    print(f"{TOOL}: the report of {len(TRACES)} traces ({size} bytes, self-contained) opens in headless Chromium: lanes, finding counts and filters as the traces hold; the state panel equals 'lifetrace state --at' at {compared} instants; a tampered state is caught; screenshots in {outdir}")


if __name__ == "__main__":
    main()
