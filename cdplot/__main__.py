"""``python -m cdplot``: the command line (see :mod:`cdplot.cli`)."""

import sys

from .cli import main

sys.exit(main())
