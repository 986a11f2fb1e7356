"""The live preview (`dtc serve content/`): a local web server, on 127.0.0.1 only, with an index of
the heroes and each hero's board, every lint diagnostic at the entry it points to (the text `dtc
lint` prints). A watcher re-reads the content when a file under it changes; each page asks the
server for the content's version a few times a second and, when it moved, swaps in the page
rendered anew (no manual reload, the scroll position kept).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from html import escape
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote

from dtc.show import slug
from dtc.views.content import Read, read, render_board
from dtc.views.page import page

WATCHED = (".yaml", ".yml", ".svg", ".png")
POLL_SECONDS = 0.2

LIVE_SCRIPT = """<script>
(function () {
  let shown = %(version)d;
  async function check() {
    try {
      const r = await fetch('/version', {cache: 'no-store'});
      const now = parseInt(await r.text(), 10);
      if (now !== shown) {
        const fresh = await fetch(location.pathname, {cache: 'no-store'});
        const html = await fresh.text();
        const doc = new DOMParser().parseFromString(html, 'text/html');
        document.querySelector('main').innerHTML = doc.querySelector('main').innerHTML;
        document.title = doc.title;
        shown = parseInt(doc.querySelector('#live').dataset.version, 10);
        document.querySelector('#live').dataset.version = shown;
      }
    } catch (e) { /* the server is restarting or gone: try again */ }
    setTimeout(check, 250);
  }
  setTimeout(check, 250);
})();
</script>"""

LIVE_STYLE = """
#live { font-size: 12px; color: #5d554b; border-bottom: 1px solid var(--line); padding: 4px 0 8px;
        margin-bottom: 10px; } #live a { color: var(--accent); }
.index li { margin: 4px 0; } .errors { color: var(--bad); font-weight: bold; }
"""


@dataclass
class Snapshot:
    """The content as last read, and its version (a count of re-reads that changed it)."""

    found: Read
    version: int
    stamp: tuple
    files: dict[str, str]  # hero slug -> its YAML file, as last seen (a broken file still names it)


class Preview:
    """The watched content and the pages made from it."""

    def __init__(self, paths: list[Path]):
        self.paths = paths
        stamp = self.stamp()
        found = read(paths)
        self.snapshot = Snapshot(found, 1, stamp, {slug(h.name): h.doc.path for h in found.heroes})
        self.lock = threading.Lock()
        self.failure = ""  # why the last re-read failed (shown on every page until one succeeds)

    def stamp(self) -> tuple:
        """What the watched files look like now: (path, size, mtime) of each."""
        seen = []
        for root in self.paths:
            files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.suffix in WATCHED)
            for f in files:
                try:
                    st = f.stat()
                except OSError:
                    continue
                seen.append((str(f), st.st_size, st.st_mtime_ns))
        return tuple(seen)

    def refresh(self) -> bool:
        """Re-read the content if a watched file changed; whether it did."""
        stamp = self.stamp()
        if stamp == self.snapshot.stamp:
            return False
        found = read(self.paths)
        with self.lock:
            files = dict(self.snapshot.files)
            files.update({slug(h.name): h.doc.path for h in found.heroes})
            self.snapshot = Snapshot(found, self.snapshot.version + 1, stamp, files)
        return True

    def watch(self, stop: threading.Event) -> None:
        while not stop.wait(POLL_SECONDS):
            try:
                self.refresh()
                self.failure = ""
            except Exception as exc:  # noqa: BLE001 - a failed re-read is shown, the server goes on
                self.failure = f"re-reading the content failed ({type(exc).__name__}: {exc}); a dtc bug"

    # -------------------------------------------------------------- pages

    def live_bar(self, state: Snapshot) -> str:
        errors = len(state.found.result.errors)
        said = "no errors" if not errors else f"{errors} error(s) in the content"
        return (f'<div id="live" data-version="{state.version}"><a href="/">all heroes</a> · live preview of '
                f'{escape(", ".join(str(p) for p in self.paths))} · {said} · re-renders when a file '
                f"changes</div>{LIVE_SCRIPT % {'version': state.version}}"
                + (f'<pre class="diagnostic">{escape(self.failure)}</pre>' if self.failure else ""))

    def index(self) -> str:
        state = self.snapshot
        found = state.found
        items = []
        for hero in found.heroes:
            errors = [d for d in found.diagnostics_of(hero.doc.path) if str(d.severity) == "error"]
            mark = f' <span class="errors">{len(errors)} error(s)</span>' if errors else ""
            items.append(f'<li><a href="/hero/{escape(slug(hero.name))}">{escape(hero.name)}</a> '
                         f'<span class="meta">{escape(hero.doc.path)}</span>{mark}</li>')
        hero_files = {h.doc.path for h in found.heroes}
        elsewhere = [d for d in found.result.diagnostics if d.suppressed is None
                     and (d.span is None or d.span.path not in hero_files)]
        rest = "".join(f'<pre class="diagnostic {d.severity}">{escape(found.text(d))}</pre>'
                       for d in elsewhere)
        listed = "".join(items) or "<li>none</li>"
        body = (self.live_bar(state) + f'<h1>Heroes</h1><ul class="index">{listed}</ul>'
                + (f"<h2>Other diagnostics</h2>{rest}" if rest else ""))
        return page("dtc serve: heroes", body, LIVE_STYLE)

    def hero_page(self, wanted: str) -> tuple[int, str]:
        state = self.snapshot
        found = state.found
        hero = next((h for h in found.heroes if slug(h.name) == wanted), None)
        if hero is not None:
            return 200, render_board(found, hero, inline=True, live=self.live_bar(state))[0].replace(
                "</style>", LIVE_STYLE + "</style>", 1)
        path = state.files.get(wanted)
        if path is None:
            body = self.live_bar(state) + f"<h1>No hero {escape(wanted)}</h1>"
            return 404, page("no such hero", body, LIVE_STYLE)
        # the file no longer makes a hero (broken YAML, a schema error): its diagnostics, as lint says them
        items = "".join(f'<pre class="diagnostic {d.severity}">{escape(found.text(d))}</pre>'
                        for d in found.diagnostics_of(path))
        body = (self.live_bar(state) + f"<h1>{escape(path)} does not make a hero</h1>"
                f'<section id="diagnostics">{items or "<p>The file is gone.</p>"}</section>')
        return 200, page(f"{path}: errors", body, LIVE_STYLE)


def make_server(preview: Preview, port: int = 0) -> ThreadingHTTPServer:
    """A server on 127.0.0.1 (only) at `port` (0: a free one) serving the preview's pages."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
            path = unquote(self.path.split("?", 1)[0])
            if path == "/version":
                self.send(200, str(preview.snapshot.version), "text/plain")
            elif path in ("/", "/index.html"):
                self.send(200, preview.index())
            elif path.startswith("/hero/"):
                self.send(*preview.hero_page(path.removeprefix("/hero/").strip("/")))
            elif path == "/favicon.ico":
                self.send(204, "", "image/x-icon")
            else:
                self.send(404, page("not found", "<h1>Not found</h1><p><a href=\"/\">all heroes</a></p>"))

        def send(self, status: int, body: str, kind: str = "text/html") -> None:
            data = body.encode("utf-8")
            self.send_response(HTTPStatus(status))
            self.send_header("Content-Type", f"{kind}; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args) -> None:
            """Quiet: the terminal shows what the command says, not a line per request."""

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    return server


def serve(paths: list[Path], port: int, ready) -> None:
    """Serve until interrupted; `ready(url)` is told once the server listens."""
    preview = Preview(paths)
    server = make_server(preview, port)
    stop = threading.Event()
    watcher = threading.Thread(target=preview.watch, args=(stop,), daemon=True)
    watcher.start()
    ready(f"http://127.0.0.1:{server.server_address[1]}/")
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        stop.set()
        server.server_close()
        watcher.join(timeout=2)
