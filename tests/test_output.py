"""Output files never destroy anything (cdplot/cli/_output.py), through the command line.

Every test works inside its own ``tmp_path``: its own symbolic links, FIFOs and
directories, never a system path. Checked: links are written through and stay links; a FIFO
is written directly and stays a FIFO; ``-`` is standard output; an existing file keeps its
permissions; an output that is an input is refused before anything is read; the outputs of
a run are all-or-nothing and no temporary file survives a failure, SIGTERM or Ctrl-C;
eight concurrent runs writing one output leave one complete file.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from _helpers import run

import cdplot
from cdplot._json import result_to_json
from cdplot.cli import _output

ROOT = str(Path(__file__).resolve().parent.parent)


@pytest.fixture
def data(tmp_path, benavoli) -> Path:
    path = tmp_path / "in" / "results.csv"
    path.parent.mkdir()
    benavoli.to_csv(path)
    return path


@pytest.fixture
def expected_json(benavoli) -> str:
    return result_to_json(cdplot.compare(benavoli)) + "\n"


def leftovers(*dirs: Path) -> list[str]:
    return [p.name for d in dirs for p in d.iterdir() if p.name.endswith(".part")]


def test_symlink_is_written_through(data, tmp_path, capsys, expected_json):
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    real = real_dir / "res.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    code, _, err = run(["compare", data, "--json", link, "-q"], capsys)
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == expected_json
    assert leftovers(tmp_path, real_dir) == []


def test_dangling_symlink_creates_its_target(data, tmp_path, capsys, expected_json):
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "new.json")
    code, _, err = run(["compare", data, "--json", link, "-q"], capsys)
    assert code == 0, err
    assert link.is_symlink() and (tmp_path / "new.json").read_text() == expected_json


def test_fifo_is_written_directly(data, tmp_path, capsys, expected_json):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []

    def reader():
        with open(fifo, "rb") as fh:
            received.append(fh.read())

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    code, _, err = run(["compare", data, "--json", fifo, "-q"], capsys)
    thread.join(timeout=30)
    assert code == 0, err
    assert received == [expected_json.encode()]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(os.listdir(tmp_path)) == ["in", "pipe"]


def test_symlink_to_fifo_stays_a_link_to_a_fifo(data, tmp_path, capsys):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "out.json"
    link.symlink_to(fifo)  # the shape of /dev/stdout -> /proc/self/fd/1
    received: list[bytes] = []
    thread = threading.Thread(target=lambda: received.append(Path(fifo).read_bytes()), daemon=True)
    thread.start()
    code, _, err = run(["compare", data, "--json", link, "-q"], capsys)
    thread.join(timeout=30)
    assert code == 0, err
    assert link.is_symlink() and stat.S_ISFIFO(os.stat(link).st_mode)
    assert json.loads(received[0])["format"] == "cdplot-comparison"


def test_existing_file_keeps_its_permissions(data, tmp_path, capsys, expected_json):
    target = tmp_path / "res.json"
    target.write_text("old")
    target.chmod(0o640)
    code, _, err = run(["compare", data, "--json", target, "-q"], capsys)
    assert code == 0, err
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert target.read_text() == expected_json


def test_new_file_follows_umask(data, tmp_path, capsys):
    old = os.umask(0o027)
    try:
        code, _, err = run(["compare", data, "--json", tmp_path / "new.json", "-q"], capsys)
    finally:
        os.umask(old)
    assert code == 0, err
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o640


@pytest.mark.parametrize("how", ["same", "symlink", "hardlink", "spelled"])
def test_output_that_is_the_input_is_refused(data, tmp_path, capsys, how):
    original = data.read_bytes()
    if how == "same":
        target = data
    elif how == "symlink":
        target = tmp_path / "res.json"
        target.symlink_to(data)
    elif how == "hardlink":
        target = tmp_path / "res.json"
        os.link(data, target)
    else:
        target = Path(f"{data.parent}/../in/./{data.name}")
    code, _, err = run(["compare", data, "--json", target, "-q"], capsys)
    assert code == 2
    assert err == (
        f"cdplot: error: --json {str(target)!r} is the input file {str(data)!r}; writing it "
        "would destroy the data. Choose another output name.\n"
    )
    assert data.read_bytes() == original
    assert leftovers(tmp_path, data.parent) == []


def test_outputs_are_all_or_nothing(data, tmp_path, capsys, monkeypatch):
    json_target, report, figure = tmp_path / "r.json", tmp_path / "r.md", tmp_path / "cd.pdf"
    json_target.write_text("old json")
    real_write = _output._write_fd

    def fail_the_figure(fd, payload):  # the JSON and the report are staged first
        if bytes(payload[:5]) == b"%PDF-":
            os.write(fd, payload[:100])  # a partial temporary file
            raise OSError(errno.ENOSPC, "No space left on device")
        real_write(fd, payload)

    monkeypatch.setattr(_output, "_write_fd", fail_the_figure)
    argv = ["compare", data, "--json", json_target, "--report", report, "-o", figure]
    code, out, err = run([*argv, "-q"], capsys)
    assert code == 2
    assert err == f"cdplot: error: cannot write -o {str(figure)!r}: No space left on device.\n"
    assert json_target.read_text() == "old json"  # the earlier outputs were not renamed
    assert not report.exists() and not figure.exists()
    assert sorted(os.listdir(tmp_path)) == ["in", "r.json"]


def test_failing_special_target_leaves_regular_outputs_untouched(
    data, tmp_path, capsys, monkeypatch
):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    target = tmp_path / "r.md"

    real_open = os.open

    def no_reader(path, flags, *args, **kwargs):  # as O_NONBLOCK without a reader would
        if str(path) == str(fifo):
            raise OSError(errno.ENXIO, "No such device or address")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(_output.os, "open", no_reader)
    code, _, err = run(["compare", data, "--json", fifo, "--report", target, "-q"], capsys)
    assert code == 2
    assert err == f"cdplot: error: cannot write --json {str(fifo)!r}: No such device or address.\n"
    assert not target.exists() and leftovers(tmp_path) == []


def test_unwritable_directory(data, tmp_path, capsys, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir()
    if os.geteuid() == 0:  # root writes anywhere: simulate the permission check's answer
        real_access = os.access
        monkeypatch.setattr(
            _output.os,
            "access",
            lambda p, mode: False if str(p) == str(locked) else real_access(p, mode),
        )
    else:
        locked.chmod(0o500)
    try:
        code, _, err = run(["compare", data, "--json", locked / "r.json", "-q"], capsys)
    finally:
        locked.chmod(0o700)
    assert code == 2
    assert err == (
        f"cdplot: error: cannot write --json {str(locked / 'r.json')!r}: permission denied "
        f"(directory {str(locked)!r} is not writable).\n"
    )
    assert os.listdir(locked) == []


def test_rename_failure_names_the_users_path(data, tmp_path, capsys, monkeypatch):
    def refuse(src, dst):
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(_output.os, "replace", refuse)
    target = tmp_path / "r.json"
    code, _, err = run(["compare", data, "--json", target, "-q"], capsys)
    assert code == 2 and err == (
        f"cdplot: error: cannot write --json {str(target)!r}: Invalid cross-device link.\n"
    )
    assert leftovers(tmp_path) == [] and not target.exists()


SIGNAL_SCRIPT = """
import os, signal, sys
import cdplot.cli._output as out
real = out._write_fd
def write(fd, data):
    real(fd, data[:10])
    os.kill(os.getpid(), getattr(signal, sys.argv[1]))
    real(fd, data[10:])
out._write_fd = write
from cdplot.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize(("signame", "code"), [("SIGTERM", 143), ("SIGINT", 130)])
def test_signals_remove_temporaries(data, tmp_path, signame, code):
    target = tmp_path / "r.json"
    target.write_text("old")
    report = tmp_path / "r.md"
    env = {**os.environ, "PYTHONPATH": ROOT}
    done = subprocess.run(
        [sys.executable, "-c", SIGNAL_SCRIPT, signame, "compare", str(data), "--json",
         str(target), "--report", str(report), "-q"],
        capture_output=True, text=True, env=env, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == code, done.stderr
    assert done.stderr in ("cdplot: terminated\n", "cdplot: interrupted\n")
    assert "Traceback" not in done.stderr
    assert target.read_text() == "old" and not report.exists()
    assert sorted(os.listdir(tmp_path)) == ["in", "r.json"]


def test_eight_concurrent_runs_leave_one_complete_file(data, tmp_path, expected_json):
    target = tmp_path / "out" / "res.json"
    target.parent.mkdir()
    env = {**os.environ, "PYTHONPATH": ROOT}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "cdplot", "compare", str(data), "--json", str(target), "-q"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(8)
    ]
    results = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, results
    assert os.listdir(target.parent) == ["res.json"]
    assert target.read_text() == expected_json


def test_plan_refuses_two_outputs_on_stdout_and_accepts_distinct_files(tmp_path):
    with pytest.raises(_output.OutputError, match="--json and -o both write to standard"):
        _output.plan([("--json", "-"), ("-o", "-")])
    targets = _output.plan([("--json", str(tmp_path / "a")), ("-o", str(tmp_path / "b"))])
    assert [t.kind for t in targets] == ["file", "file"]
    assert isinstance(_output.OutputError("x"), cdplot.CdplotInputError)


def test_chunked_content_is_streamed_into_the_file(tmp_path):
    """An iterable of chunks is written as it is produced, into the temporary file."""
    target = _output.plan([("--json", str(tmp_path / "big.json"))])[0]
    seen_on_disk = []

    def chunks():
        for i in range(3):
            yield f"chunk {i}\n".encode()
            # the earlier chunks are already in the temporary file, not held back
            (tmp,) = [p for p in tmp_path.iterdir() if p.name.endswith(".part")]
            seen_on_disk.append(tmp.stat().st_size)

    _output.commit([(target, chunks())])
    assert (tmp_path / "big.json").read_bytes() == b"chunk 0\nchunk 1\nchunk 2\n"
    assert seen_on_disk == [8, 16, 24]
    assert os.listdir(tmp_path) == ["big.json"]


def test_chunked_content_that_fails_midway_leaves_nothing(tmp_path):
    old = tmp_path / "r.json"
    old.write_text("old json")
    target = _output.plan([("--json", str(old))])[0]

    def chunks():
        yield b"{\n"
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(_output.OutputError, match="No space left on device"):
        _output.commit([(target, chunks())])
    assert old.read_text() == "old json"
    assert os.listdir(tmp_path) == ["r.json"]
