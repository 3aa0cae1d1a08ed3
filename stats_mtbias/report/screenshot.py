"""A screenshot of the HTML report in headless Chromium (Debian's ``chromium`` package).

Usage: ``python -m stats_mtbias.report.screenshot reports/report.html reports/report.png``
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from stats_mtbias.errors import UsageError

# The first screen of a report as a reader opens it (a laptop's browser window): title, one line, the headline.
FIRST_SCREEN = (1280, 900)
CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "chrome")
# Without the background-networking flags Chromium tries to reach Google's hosts at every start,
# which a closed network refuses.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
)


def find_browser() -> str | None:
    """The path of a Chromium-like browser, or None."""
    for name in CANDIDATES:
        if path := shutil.which(name):
            return path
    return None


def screenshot(html: str | Path, png: str | Path, *, width: int = 1280, height: int = 2400, timeout: float = 120) -> Path:
    """Render `html` in headless Chromium and save a `width` × `height` PNG at `png`.

    Raises
    ------
    UsageError
        If no browser is installed, or it exits without writing the screenshot.
    """
    browser = find_browser()
    if browser is None:
        raise UsageError("no Chromium found on PATH (Debian: apt-get install chromium); cannot take a screenshot")
    html, png = Path(html).resolve(), Path(png).resolve()
    if not html.is_file():
        raise UsageError(f"{html}: no such HTML file")
    png.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        command = [
            browser,
            *FLAGS,
            f"--user-data-dir={profile}",
            f"--window-size={width},{height}",
            f"--screenshot={png}",
            html.as_uri(),
        ]
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    if not png.is_file():
        raise UsageError(f"Chromium wrote no screenshot (exit {proc.returncode}): {proc.stderr.strip()[-500:]}")
    return png


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 64
    print(screenshot(argv[0], argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())


# Injected into a copy of the page: where each table of the report lies once Chromium has laid the page out.
_LAYOUT_SCRIPT = """<script>
(function () {
  var rows = [];
  document.querySelectorAll('table[data-table]').forEach(function (t) {
    var r = t.getBoundingClientRect();
    rows.push([t.getAttribute('data-table'), r.top, r.bottom].join(' '));
  });
  var out = document.createElement('pre');
  out.id = 'mtbias-layout';
  out.textContent = 'viewport ' + window.innerWidth + ' ' + window.innerHeight + '\\n' + rows.join('\\n');
  document.body.appendChild(out);
})();
</script>"""


def table_layout(
    html: str | Path, *, width: int = FIRST_SCREEN[0], height: int = FIRST_SCREEN[1], timeout: float = 120
) -> tuple[tuple[int, int], list[tuple[str, float, float]]]:
    """Where headless Chromium lays out each table of `html` in a `width` × `height` window.

    Returns the viewport's ``(width, height)`` and, in document order, ``(table,
    top, bottom)`` in CSS pixels from the top of the page (``table`` the
    ``data-table`` name, e.g. ``winomt/headline``): a table is on the first screen
    when its top is above the viewport's height.

    Raises
    ------
    UsageError
        If no browser is installed, or it prints no layout.
    """
    import re

    browser = find_browser()
    if browser is None:
        raise UsageError("no Chromium found on PATH (Debian: apt-get install chromium); cannot lay out the page")
    html = Path(html).resolve()
    text = html.read_text("utf-8")
    with tempfile.TemporaryDirectory() as work:
        # A copy beside nothing else: the report itself is never changed.
        page = Path(work) / "layout.html"
        page.write_text(text.replace("</body>", _LAYOUT_SCRIPT + "\n</body>"), "utf-8")
        command = [
            browser,
            *FLAGS,
            f"--user-data-dir={work}/profile",
            f"--window-size={width},{height}",
            "--dump-dom",
            page.as_uri(),
        ]
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    found = re.search(r'<pre id="mtbias-layout">(.*?)</pre>', proc.stdout, re.S)
    if not found:
        raise UsageError(f"Chromium printed no layout (exit {proc.returncode}): {proc.stderr.strip()[-500:]}")
    lines = found.group(1).strip().splitlines()
    _, view_w, view_h = lines[0].split()
    tables = [(name, float(top), float(bottom)) for name, top, bottom in (line.rsplit(" ", 2) for line in lines[1:])]
    return (int(float(view_w)), int(float(view_h))), tables
