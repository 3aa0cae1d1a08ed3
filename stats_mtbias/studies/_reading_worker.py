"""Reads one language's WinoMT translations in a separate interpreter (see ``winomt.judge_all``).

Started as ``python -m stats_mtbias.studies._reading_worker`` with the pickled
arguments on stdin; writes the pickled ``(tables, files used, warnings)`` — or
the exception raised — on stdout. A fresh interpreter rather than
``multiprocessing``: no fork of a parent holding threads, and no re-import of the
user's ``__main__`` (a script without an ``if __name__ == "__main__"`` guard works).
"""

from __future__ import annotations

import os
import pickle
import sys


def main() -> int:
    request = pickle.load(sys.stdin.buffer)
    # The pickle goes to the original stdout; anything a library prints goes to stderr.
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    from stats_mtbias.studies.winomt.reading import judge_language  # import time: after the redirect above

    try:
        reply = ("ok", judge_language(*request["args"], **request["kwargs"]))
    except Exception as exc:  # handed to the parent, which raises it
        reply = ("error", exc)
    pickle.dump(reply, out, protocol=pickle.HIGHEST_PROTOCOL)
    out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
