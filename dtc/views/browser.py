"""A headless Chromium, driven over the DevTools protocol on a pipe: print a page to PDF (`dtc print`),
and, for the tests, read a rendered page's DOM and take screenshots.

The pipe (`--remote-debugging-pipe`: commands on fd 3, replies on fd 4, each a JSON text ended by a
NUL byte) needs no port, no websocket and no library; the flags keep Chromium off the network
(this machine's and a designer's offline one alike) and out of the user's own profile.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--disable-extensions", "--mute-audio", "--hide-scrollbars")


class BrowserError(Exception):
    """Chromium is missing, would not start, or a page failed: one line for the user."""


def find_chromium(explicit: str | None = None) -> str:
    """The Chromium (or Chrome) to run: `explicit`, else $DTC_CHROMIUM, else the first on PATH."""
    wanted = explicit or os.environ.get("DTC_CHROMIUM")
    if wanted:
        found = shutil.which(wanted)
        if found is None:
            raise BrowserError(f"no browser at {wanted!r}: give the path of a Chromium or Chrome")
        return found
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    raise BrowserError("this needs Chromium or Chrome to lay out the pages, and none is on PATH: "
                       "install it (Debian: apt install chromium) or name it with --browser PATH")


class Browser:
    """One headless Chromium process; `with Browser() as b: page = b.open(url)`."""

    def __init__(self, executable: str | None = None, width: int = 1280, height: int = 1600):
        self.executable = find_chromium(executable)
        self.profile = tempfile.mkdtemp(prefix="dtc-chromium-")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()

        def plumb() -> None:  # in the child: the protocol's fds are 3 (read) and 4 (write)
            os.dup2(to_child_r, 3)
            os.dup2(from_child_w, 4)

        try:
            self.process = subprocess.Popen(
                [self.executable, *FLAGS, "--remote-debugging-pipe", f"--user-data-dir={self.profile}",
                 f"--window-size={width},{height}", "about:blank"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                preexec_fn=plumb, pass_fds=(3, 4, to_child_r, from_child_w))
        except OSError as e:
            shutil.rmtree(self.profile, ignore_errors=True)
            raise BrowserError(f"{self.executable} would not start: {e.strerror}") from None
        finally:
            os.close(to_child_r)
            os.close(from_child_w)
        self._next_id = 0
        self._buffer = b""
        self._events: list[dict] = []

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """End the browser and remove its throwaway profile."""
        with contextlib.suppress(BrowserError):  # it may be gone already (crashed, or killed)
            self.call("Browser.close", timeout=5)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self._to_child, self._from_child):
            with contextlib.suppress(OSError):  # closed already by an earlier close()
                os.close(fd)
        shutil.rmtree(self.profile, ignore_errors=True)

    # ------------------------------------------------------------ protocol

    def call(self, method: str, params: dict | None = None, session: str | None = None,
             timeout: float = 30) -> dict:
        """Send one command and wait for its reply (events that come first are kept)."""
        self._next_id += 1
        message: dict = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        try:
            os.write(self._to_child, json.dumps(message).encode() + b"\0")
        except OSError:
            raise BrowserError(f"{self.executable} ended unexpectedly") from None
        deadline = time.monotonic() + timeout
        while True:
            for reply in self._read(deadline, method):
                if reply.get("id") == self._next_id:
                    if "error" in reply:
                        raise BrowserError(f"{method}: {reply['error'].get('message', reply['error'])}")
                    return reply.get("result", {})
                self._events.append(reply)

    def _read(self, deadline: float, method: str) -> list[dict]:
        left = deadline - time.monotonic()
        if left <= 0:
            raise BrowserError(f"{method}: no answer from the browser in time")
        ready, _, _ = select.select([self._from_child], [], [], left)
        if not ready:
            raise BrowserError(f"{method}: no answer from the browser in time")
        chunk = os.read(self._from_child, 1 << 20)
        if not chunk:
            raise BrowserError(f"{self.executable} ended unexpectedly")
        self._buffer += chunk
        *whole, self._buffer = self._buffer.split(b"\0")
        return [json.loads(w) for w in whole if w]

    def open(self, url: str, timeout: float = 30) -> Page:
        """A new tab showing `url`, once it has loaded."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        self.call("Page.enable", session=session)
        self._events.clear()
        self.call("Page.navigate", {"url": url}, session=session)
        page.wait_for("document.readyState === 'complete'", timeout)
        return page


class Page:
    """A tab: evaluate script in it, print it, photograph it."""

    def __init__(self, browser: Browser, session: str):
        self.browser = browser
        self.session = session

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (JSON-able values)."""
        result = self.browser.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                         "awaitPromise": True}, self.session)
        if "exceptionDetails" in result:
            raise BrowserError(f"script failed in the page: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 10) -> float:
        """Wait until `expression` is true in the page; the seconds it took."""
        start = time.monotonic()
        while True:
            with contextlib.suppress(BrowserError):  # the page is between documents (navigating, reloading)
                if self.evaluate(f"!!({expression})"):
                    return time.monotonic() - start
            if time.monotonic() - start > timeout:
                raise BrowserError(f"the page did not show {expression!r} within {timeout:g} s")
            time.sleep(0.05)

    def pdf(self) -> bytes:
        """The page printed as the browser prints it, at the page size its CSS asks for."""
        result = self.browser.call("Page.printToPDF", {"preferCSSPageSize": True, "printBackground": True,
                                                       "displayHeaderFooter": False}, self.session,
                                   timeout=120)
        return base64.b64decode(result["data"])

    def screenshot(self, path: Path, full_page: bool = True) -> None:
        """A PNG of the page (all of it, not just the window, by default)."""
        params: dict = {"format": "png"}
        if full_page:
            size = self.browser.call("Page.getLayoutMetrics", session=self.session)["cssContentSize"]
            params["clip"] = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}
            params["captureBeyondViewport"] = True
        data = self.browser.call("Page.captureScreenshot", params, self.session)["data"]
        Path(path).write_bytes(base64.b64decode(data))
