"""The files a folder input is read from: regular files only.

A FIFO (or a socket, a device) named like a results file inside a folder would block the
read forever or read a stream that is not the file it looks like; it is refused by name.
"""

from __future__ import annotations

import stat
from pathlib import Path

from .._errors import CdplotInputError

__all__ = ["folder_files"]


def folder_files(root: Path, pattern: str) -> list[Path]:
    """The regular files under the folder ``root`` whose names match ``pattern``, sorted.

    Searched recursively (:meth:`pathlib.Path.rglob`); folders that match are skipped.

    Parameters
    ----------
    root : pathlib.Path
        A folder.
    pattern : str
        A file-name pattern, e.g. ``"results_*.json"``.

    Returns
    -------
    list of pathlib.Path
        The matching regular files (links to regular files included), in name order.

    Raises
    ------
    CdplotInputError
        For a matching entry that is not a regular file (a FIFO, socket, device or broken
        link): reading it could block, so it is named instead.
    """
    files = []
    for path in sorted(root.rglob(pattern)):
        try:
            mode = path.stat().st_mode
        except OSError:
            mode = None
        if mode is not None and stat.S_ISDIR(mode):
            continue
        if mode is None or not stat.S_ISREG(mode):
            what = "a broken link" if mode is None else "not a regular file (a FIFO or a device)"
            raise CdplotInputError(
                f"{str(path)!r} in the folder {str(root)!r} is {what}; cdplot reads only "
                "regular files from a folder: move it out of the folder, or pass the files "
                "to read one by one."
            )
        files.append(path)
    return files
