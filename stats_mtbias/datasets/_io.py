"""Reading text files line by line with errors that name the file and line."""

from __future__ import annotations

from pathlib import Path

from stats_mtbias.errors import DataError


def read_lines(path: str | Path) -> list[str]:
    """Read a UTF-8 text file into lines, accepting LF or CRLF and a missing final newline.

    A final newline does not make an extra empty line; an empty line anywhere
    else is kept (it is an empty output, to be counted, not dropped).

    Raises
    ------
    DataError
        If the file cannot be read or is not UTF-8 (naming the line of the bad byte).
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc.strerror})", path) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DataError(
            f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})", path, line
        ) from None
    if text == "":
        return []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines
