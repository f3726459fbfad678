"""The ``cdplot`` command line: one module per subcommand, ``main`` assembles them.

Layer 5 (the top): it may import everything below; nothing imports it. See ARCHITECTURE.md.
``_main`` (parser, exit codes, warnings), ``_demo`` and ``_compare`` (one module per
subcommand), ``_figures`` (figure options, rendering) and ``_output`` (safe writes).
"""

from __future__ import annotations

from ._main import main

__all__ = ["main"]
