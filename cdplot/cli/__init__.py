"""The ``cdplot`` command line: one module per subcommand, ``main`` assembles them.

Layer 5 (the top): it may import everything below; nothing imports it. See ARCHITECTURE.md.
``_main`` (parser, exit codes, warnings), ``_demo`` and ``_compare`` (one module per
subcommand), ``_figures`` (figure options, rendering) and ``_output`` (safe writes).

Importing this package (what the ``cdplot`` script does first) loads nothing heavy: the
parser and the statistics are imported inside :func:`main`, where Ctrl-C during the
start-up ends the run with one line and exit status 130 rather than an import traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["main"]

#: Exit status of a run interrupted by Ctrl-C (128 + SIGINT), as ``_main`` returns it.
EXIT_INTERRUPTED = 130


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``cdplot`` command line; returns the exit status.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments without the program name (default ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success; 2 for bad input or usage (one ``cdplot: error:`` line on stderr);
        1 for a bug in cdplot; 130 when interrupted (also while the program starts), 143
        when terminated.
    """
    try:
        from ._main import main as run
    except KeyboardInterrupt:
        print("cdplot: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return run(argv)
