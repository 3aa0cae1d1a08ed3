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

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "chrome")
# Without the background-networking flags Chromium tries to reach Google's hosts at every start,
# which a closed network refuses.
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--hide-scrollbars",
)  # fmt: skip


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
        command = [browser, *FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}",
                   f"--screenshot={png}", html.as_uri()]  # fmt: skip
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
