"""The ``cdplot`` command line: one module per subcommand, ``main`` assembles them.

Layer 4 (the top): it may import everything below; nothing imports it. See ARCHITECTURE.md.
"""

from __future__ import annotations

from ._main import main

__all__ = ["main"]
