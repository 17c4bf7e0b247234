"""Shared pieces of the browser checks (tools/check-perfetto, tools/check-report): a local HTTP server bound to
127.0.0.1 (`python3 -m http.server --bind 127.0.0.1`) and headless Chromium driven by selenium."""

import os
import shutil
import socket
import subprocess
import sys
import time


def fail(tool, message):
    print(f"{tool}: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def free_port():
    """A free TCP port on 127.0.0.1 other than 9001 (Perfetto UI probes 9001 for a native trace processor)."""
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port != 9001:
            return port


class Server:
    """`python3 -m http.server --bind 127.0.0.1 PORT` serving `directory`, stopped on exit."""

    def __init__(self, directory):
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(self.port)],
            cwd=directory, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"http.server did not start on port {self.port}")

    def url(self, path):
        return f"http://127.0.0.1:{self.port}/{path}"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait(timeout=10)


def chromium_binary():
    return shutil.which("chromium") or shutil.which("chromium-browser")


def driver_binary():
    return shutil.which("chromedriver")


def start_browser(width=1600, height=1000):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium_binary()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={width},{height}", "--no-first-run", "--no-default-browser-check"):
        options.add_argument(argument)
    # A private profile in the check's own temporary directory (the wrapper points TMPDIR into its output).
    options.add_argument("--user-data-dir=" + os.path.join(os.environ.get("TMPDIR", "/tmp"), f"chromium-profile-{os.getpid()}-{time.time_ns()}"))
    return webdriver.Chrome(service=Service(driver_binary()), options=options)


def wait_for(driver, predicate, timeout, what):
    """Polls `predicate(driver)` until it returns something truthy; raises with `what` on timeout."""
    deadline = time.time() + timeout
    last_error = None
    while time.time() < deadline:
        try:
            value = predicate(driver)
            if value:
                return value
        except Exception as error:  # the page is still loading
            last_error = error
        time.sleep(0.25)
    raise TimeoutError(f"timed out after {timeout} s waiting for {what}" + (f" ({last_error})" if last_error else ""))


def page_text(driver):
    return driver.execute_script("return document.body ? document.body.innerText : ''")
