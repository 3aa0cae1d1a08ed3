"""``python -m stats_mtbias.cli``: the console script ``stats-mtbias``."""

import sys

from stats_mtbias.cli import main

sys.exit(main())
