"""Output files that never destroy anything: checked first, written all-or-nothing.

Rules (README, "Command line"):

* Every output is checked before any input is read: an output that is the same file as an
  input (or as any file inside an input folder), or as another output, is refused; so is a
  missing or unwritable directory, a directory as target, and a second output on standard
  output.
* ``-`` is standard output. A non-regular target (a FIFO, a character device such as
  ``/dev/stdout``) is written directly and never renamed over. A symbolic link is written
  through: the link stays a link and its target gets the new content.
* A regular target (existing or new) is written to a temporary file in its real directory;
  the temporaries are renamed over their targets only once every output has been written
  (all-or-nothing). An existing file keeps its permissions; a new one gets ``0o666 & ~umask``.
* Whatever fails (a full disk, Ctrl-C, SIGTERM), the temporaries are removed; messages name
  the user's path, never the temporary one.

Layer 5 (cli): imports only the error family.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from .._errors import CdplotInputError

__all__ = [
    "PENDING_SIGNALS",
    "STDOUT",
    "Content",
    "OutputError",
    "Target",
    "Terminated",
    "commit",
    "plan",
    "raise_pending",
]

#: The path that means standard output.
STDOUT = "-"


class OutputError(CdplotInputError):
    """An output cannot be written (refused before the run, or failed while writing)."""


class Terminated(BaseException):
    """SIGTERM arrived; raised so that every ``finally`` (temporary files) runs."""


#: Signals received during the run (the command line's handlers record them here). The
#: exception a handler raises can be swallowed when it lands in code that ignores errors
#: (a weakref callback: "Exception ignored in ..."); :func:`raise_pending` raises it again
#: at the safe points, so an interrupted run never writes its outputs.
PENDING_SIGNALS: list[int] = []


def raise_pending() -> None:
    """Raise ``KeyboardInterrupt`` (SIGINT) or :class:`Terminated` (SIGTERM) if one came."""
    if PENDING_SIGNALS:
        if PENDING_SIGNALS[0] == signal.SIGTERM:
            raise Terminated
        raise KeyboardInterrupt


@dataclass(frozen=True)
class Target:
    """One output of a run: where the user asked for it, and where the bytes really go."""

    path: str  # as the user wrote it; every message names this
    option: str  # the flag that asked for it, e.g. "--json"
    kind: str  # "stdout", "special" (FIFO, character device) or "file" (regular, maybe new)
    real: str  # the path with symbolic links resolved ("" for stdout)
    mode: int | None  # permissions to keep (an existing regular file), else None


def _identity(path: str) -> tuple[object, ...] | None:
    """What makes two paths the same file: device and inode if it exists."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def _folder_files(path: str) -> Iterator[tuple[str, tuple[int, int]]]:
    """Every regular file inside the folder ``path`` (recursively), with its identity.

    Nothing for a file. The readers of a folder (lm-evaluation-harness output, Parquet and
    JSON Lines folders) read some of these files; all of them count as inputs, so no output
    replaces one. Links to files are followed (the file they point to is protected), links
    to folders are not (the readers do not descend into them either).
    """
    if not os.path.isdir(path):
        return
    for folder, _, names in os.walk(path):
        for name in names:
            inner = os.path.join(folder, name)
            try:
                st = os.stat(inner)
            except OSError:  # a broken link: nothing there to destroy
                continue
            if stat.S_ISREG(st.st_mode):
                yield inner, (st.st_dev, st.st_ino)


def _describe(option: str, path: str) -> str:
    return f"{option} {path!r}" if option else repr(path)


def plan(outputs: Sequence[tuple[str, str]], inputs: Sequence[str] = ()) -> list[Target]:
    """Check the outputs of a run before anything is read; returns one Target each.

    Parameters
    ----------
    outputs : sequence of (option, path)
        E.g. ``[("--json", "res.json"), ("-o", "cd.pdf")]``; ``"-"`` is standard output.
    inputs : sequence of str
        The input files and folders (``"-"`` for standard input is skipped); every regular
        file inside a folder counts as an input.

    Raises
    ------
    OutputError
        For an output that is an input or another output, a second standard-output
        target, a missing or unwritable directory, a directory as target.
    """
    seen_inputs: dict[object, str] = {}
    for path in inputs:
        if path == STDOUT:
            continue
        key = _identity(path) or ("path", os.path.realpath(path))
        seen_inputs.setdefault(key, f"the input file {path!r}")
        for inner, inner_key in _folder_files(path):
            seen_inputs.setdefault(inner_key, f"{inner!r}, a file of the input folder {path!r}")
    targets: list[Target] = []
    seen: dict[object, tuple[str, str]] = {}
    for option, path in outputs:
        if path == STDOUT:
            if ("stdout",) in seen:
                other = seen[("stdout",)][0]
                raise OutputError(
                    f"{other} and {option} both write to standard output (-); only one "
                    "output can go there, give the other a file name."
                )
            seen[("stdout",)] = (option, path)
            targets.append(Target(path, option, "stdout", "", None))
            continue
        target = _check_one(option, path)
        key = _identity(target.real) or ("path", target.real)
        if key in seen_inputs:
            raise OutputError(
                f"{_describe(option, path)} is {seen_inputs[key]}; writing it would destroy "
                "the data. Choose another output name."
            )
        if key in seen:
            first_option, first_path = seen[key]
            same = "the same file as" if first_path != path else "also given to"
            raise OutputError(
                f"{_describe(option, path)} is {same} {_describe(first_option, first_path)}; "
                "give every output its own file."
            )
        seen[key] = (option, path)
        targets.append(target)
    return targets


def _check_one(option: str, path: str) -> Target:
    shown = _describe(option, path)
    if not path:
        raise OutputError(f"{option} needs a file name (or - for standard output).")
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise OutputError(f"cannot write {shown}: {exc.strerror}.") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputError(f"cannot write {shown}: it is a directory; name a file inside it.")
    if st is not None and not stat.S_ISREG(st.st_mode):
        if not os.access(real, os.W_OK):
            raise OutputError(f"cannot write {shown}: permission denied.")
        return Target(path, option, "special", real, None)
    directory = os.path.dirname(real) or "."
    if not os.path.isdir(directory):
        shown_dir = os.path.dirname(path) or directory
        raise OutputError(f"cannot write {shown}: directory {shown_dir!r} does not exist.")
    if not os.access(directory, os.W_OK | os.X_OK):
        shown_dir = os.path.dirname(path) or "."
        raise OutputError(
            f"cannot write {shown}: permission denied (directory {shown_dir!r} is not writable)."
        )
    if st is not None and (not st.st_mode & 0o222 or not os.access(real, os.W_OK)):
        # a file with no write bit is protected whoever runs cdplot (root included), as
        # shell redirection protects it for a normal user: never rename a temporary over it
        raise OutputError(
            f"cannot write {shown}: {path} is read-only; make it writable (chmod u+w) or "
            "choose another output name."
        )
    mode = None if st is None else stat.S_IMODE(st.st_mode)
    return Target(path, option, "file", real, mode)


# ----------------------------------------------------------------------------- writing
def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextlib.contextmanager
def _signals_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM for a few system calls, so no temporary goes unrecorded."""
    can_block = hasattr(signal, "pthread_sigmask") and threading.current_thread() is (
        threading.main_thread()
    )
    if not can_block:
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


#: An output's content: its bytes, or an iterable of byte chunks written as they come (a
#: large JSON document is streamed into its temporary file, never held in memory whole).
Content = bytes | Iterable[bytes]


def _chunks(data: Content) -> Iterable[bytes]:
    return (data,) if isinstance(data, (bytes, bytearray, memoryview)) else data


def _write_fd(fd: int, data: bytes) -> None:
    """Write all of ``data`` to ``fd`` (a separate function so tests can fail it)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _stage(target: Target, data: Content, temporaries: list[str]) -> str:
    directory = os.path.dirname(target.real) or "."
    name = os.path.basename(target.real)
    with _signals_deferred():
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".part", dir=directory)
        temporaries.append(tmp)
    try:
        for chunk in _chunks(data):
            _write_fd(fd, chunk)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.chmod(tmp, _new_file_mode() if target.mode is None else target.mode)
    return tmp


def _write_special(target: Target, data: Content) -> None:
    if target.kind == "stdout":
        sys.stdout.flush()
        buffer = getattr(sys.stdout, "buffer", None)
        for chunk in _chunks(data):
            if buffer is None:  # a text-only stream (e.g. replaced by a test)
                sys.stdout.write(bytes(chunk).decode("utf-8", errors="replace"))
            else:
                buffer.write(chunk)
        if buffer is not None:
            buffer.flush()
        return
    fd = os.open(target.real, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))
    try:
        for chunk in _chunks(data):
            _write_fd(fd, chunk)
    finally:
        os.close(fd)


def commit(contents: Sequence[tuple[Target, Content]]) -> None:
    """Write every output, all-or-nothing for regular files.

    Each content is bytes or an iterable of byte chunks (written as they are produced, so a
    large document never sits in memory whole). Regular targets are written to temporaries
    first; then special targets and standard
    output are written directly; the temporaries are renamed over their targets last, only
    when everything before succeeded. On any failure or signal the temporaries are removed.

    Raises
    ------
    OutputError
        If an output cannot be written (the message names the user's path).
    """
    temporaries: list[str] = []
    staged: list[tuple[Target, str]] = []
    current: Target | None = None
    raise_pending()
    try:
        for target, data in contents:
            if target.kind == "file":
                current = target
                staged.append((target, _stage(target, data, temporaries)))
        raise_pending()
        for target, data in contents:
            if target.kind != "file":
                current = target
                _write_special(target, data)
        with _signals_deferred():
            raise_pending()
            for target, tmp in staged:
                current = target
                os.replace(tmp, target.real)
                temporaries.remove(tmp)
    except OSError as exc:
        if isinstance(exc, BrokenPipeError) and current is not None and current.kind == "stdout":
            raise  # the reader went away: the command line stops quietly
        where = "standard output" if current and current.kind == "stdout" else None
        shown = where or (_describe(current.option, current.path) if current else "an output")
        raise OutputError(f"cannot write {shown}: {exc.strerror or exc}.") from None
    finally:
        for tmp in temporaries:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
