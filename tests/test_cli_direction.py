"""The direction of the scores on the command line: a file named like an error gets one warning
naming both flags; --higher-is-better says the default explicitly and silences it; giving both
directions for one metric is refused."""

from __future__ import annotations

from _helpers import run

TABLE = "dataset,A,B,C\n" + "".join(
    f"d{i},{0.7 + 0.01 * i},{0.8 - 0.01 * i},{0.75 + 0.002 * i}\n" for i in range(8)
)


def test_error_named_file_warns_naming_both_flags(tmp_path, capsys):
    path = tmp_path / "error.csv"
    path.write_text(TABLE)
    code, out, err = run(["compare", str(path)], capsys)
    assert code == 0
    warned = [line for line in err.splitlines() if "'error'" in line]
    assert len(warned) == 1
    assert "--lower-is-better" in warned[0] and "--higher-is-better" in warned[0]


def test_higher_is_better_silences_the_warning_and_ranks_as_before(tmp_path, capsys):
    path = tmp_path / "error.csv"
    path.write_text(TABLE)
    code, out_default, _ = run(["compare", str(path)], capsys)
    code2, out_explicit, err = run(["compare", str(path), "--higher-is-better"], capsys)
    assert code == code2 == 0
    assert "'error'" not in err
    assert out_explicit == out_default


def test_both_directions_are_refused(tmp_path, capsys):
    path = tmp_path / "error.csv"
    path.write_text(TABLE)
    code, _, err = run(["compare", str(path), "--higher-is-better", "--lower-is-better"], capsys)
    assert code == 2
    assert "contradict" in err and err.count("\n") == 1
