"""Display names on the command line: ``--label OLD=NEW`` and ``--labels FILE``.

Both become :func:`cdplot.compare`'s ``labels=`` (algorithm -> display name); figures and
reports show the labels, the data and the JSON keep the names. The file is read and
checked before any results file is read, so a malformed line fails fast.

A labels file is either a JSON object (``{"RandomForest (500 trees)": "RF"}``) or lines of
two columns, ``NAME,LABEL`` (a comma, or a tab if the first line holds one); CSV quoting
works for names with a comma (``"RF, 500 trees",RF``). Blank lines and lines starting with
``#`` are skipped, and a first line ``name,label`` (or ``old,new``, ``algorithm,label``) is
a header. ``--label`` wins over the file.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from .._errors import CdplotInputError
from ._output import STDOUT

__all__ = ["HEADERS", "add_label_options", "labels_from_args", "parse_label", "read_labels"]

#: First lines of a labels file read as a header (compared in lower case, trimmed).
HEADERS = (("name", "label"), ("old", "new"), ("algorithm", "label"))

LABELS_HELP = """\
labels FILE: a JSON object {"NAME": "LABEL", ...}, or one NAME,LABEL per line (comma or
  tab; quote a name with a comma: "RF, 500 trees",RF); blank lines and # comments are
  skipped, a first line name,label is a header. --label OLD=NEW (split at the last =)
  adds or overrides one. Labels are display names: the data and the JSON keep the names.
"""


def add_label_options(parser: argparse.ArgumentParser) -> None:
    """``--label OLD=NEW`` (repeatable) and ``--labels FILE``."""
    group = parser.add_argument_group("display names")
    group.add_argument(
        "--label",
        action="append",
        metavar="OLD=NEW",
        help="show algorithm OLD as NEW in figures and reports (repeatable)",
    )
    group.add_argument(
        "--labels",
        dest="labels_file",
        metavar="FILE",
        help="display names from a file: a JSON object, or NAME,LABEL lines (CSV or TSV)",
    )


def parse_label(text: str) -> tuple[str, str]:
    """``"OLD=NEW"`` -> ``("OLD", "NEW")``, split at the last ``=``.

    >>> parse_label("SVM (C=1)=SVM")
    ('SVM (C=1)', 'SVM')
    """
    old, sep, new = text.rpartition("=")
    if not sep:
        raise CdplotInputError(
            f"--label {text!r} needs the form OLD=NEW, e.g. --label 'RandomForest (500 trees)=RF'."
        )
    old, new = old.strip(), new.strip()
    if not old or not new:
        missing = "algorithm name before" if not old else "label after"
        raise CdplotInputError(
            f"--label {text!r} has no {missing} the '='; write --label OLD=NEW, e.g. --label "
            "'RandomForest (500 trees)=RF'."
        )
    return old, new


def _decode(path: str) -> str:
    if path == STDOUT:
        raise CdplotInputError(
            "--labels - : standard input is for RESULTS; write the labels to a file and "
            "pass its name."
        )
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise CdplotInputError(f"cannot read --labels file {path!r}: {reason}.") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CdplotInputError(
            f"--labels file {path!r} is not UTF-8 text; convert it, e.g. with iconv -t UTF-8."
        ) from None


def _from_json(text: str, path: str) -> dict[str, str]:
    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        items = [(k.strip(), v) for k, v in items]  # names are compared as the lines reader does
        keys = [k for k, _ in items]
        twice = next((k for k in keys if keys.count(k) > 1), None)
        if twice is not None:
            raise CdplotInputError(
                f"--labels file {path!r} gives {twice!r} more than one label; give each "
                "algorithm one label."
            )
        return dict(items)

    try:
        doc = json.loads(text, object_pairs_hook=pairs)
    except CdplotInputError:  # a name given two labels, raised by ``pairs``
        raise
    except json.JSONDecodeError as exc:
        raise CdplotInputError(
            f"--labels file {path!r} is not valid JSON ({exc.msg} at line {exc.lineno}, "
            f'column {exc.colno}); write an object such as {{"RandomForest": "RF"}}.'
        ) from None
    except (ValueError, RecursionError):  # an integer too long to read, nesting too deep
        raise CdplotInputError(
            f"--labels file {path!r} holds a number too long or nesting too deep to read; "
            f'write an object of names and labels such as {{"RandomForest": "RF"}}.'
        ) from None
    if not isinstance(doc, dict):
        raise CdplotInputError(
            f"--labels file {path!r} holds a JSON {type(doc).__name__}, not an object; write "
            f'{{"NAME": "LABEL", ...}}.'
        )
    out: dict[str, str] = {}
    for name, label in doc.items():
        if not isinstance(label, str) or not label.strip():
            raise CdplotInputError(
                f"--labels file {path!r}: the label of {name!r} must be a non-empty string, "
                f"got {json.dumps(label)}."
            )
        out[name.strip()] = label.strip()
    return out


def _from_lines(text: str, path: str) -> dict[str, str]:
    # the separator is chosen on the first line with data (not a blank or a # comment)
    first = next(
        (ln for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")), ""
    )
    delimiter = "\t" if "\t" in first else ","
    sep = "TAB" if delimiter == "\t" else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, skipinitialspace=True)
    out: dict[str, str] = {}
    where: dict[str, int] = {}
    seen_data = False
    try:
        for record in reader:
            line = reader.line_num
            cells = [c.strip() for c in record]
            if not any(cells) or cells[0].startswith("#"):
                continue
            if not seen_data and tuple(c.lower() for c in cells) in HEADERS:
                seen_data = True
                continue
            seen_data = True
            if len(cells) != 2:
                shown = ", ".join(repr(c) for c in cells)
                raise CdplotInputError(
                    f"--labels file {path!r}, line {line}: expected 2 columns NAME{sep}LABEL, "
                    f"got {len(cells)} ({shown}); quote a name that contains a comma, e.g. "
                    '"RF, 500 trees",RF.'
                )
            name, label = cells
            if not name or not label:
                what = "algorithm name" if not name else "label"
                raise CdplotInputError(
                    f"--labels file {path!r}, line {line}: the {what} is empty; write "
                    f"NAME{sep}LABEL."
                )
            if name in out:
                raise CdplotInputError(
                    f"--labels file {path!r}, line {line}: {name!r} already has the label "
                    f"{out[name]!r} (line {where[name]}); give each algorithm one label."
                )
            out[name], where[name] = label, line
    except csv.Error as exc:
        raise CdplotInputError(
            f"--labels file {path!r}, line {reader.line_num}: {exc}; write NAME{sep}LABEL lines."
        ) from None
    return out


def read_labels(path: str) -> dict[str, str]:
    """The labels of a ``--labels`` file (see the module docstring for the format).

    Raises
    ------
    CdplotInputError
        If the file cannot be read, is not UTF-8, or has a malformed line or entry (the
        message names the line), or an algorithm twice.
    """
    text = _decode(path)
    if text.lstrip().startswith(("{", "[")):
        return _from_json(text, path)
    return _from_lines(text, path)


def labels_from_args(label: Sequence[str] | None, labels_file: str | None) -> dict[str, str] | None:
    """``labels=`` for :func:`cdplot.compare` from ``--labels FILE`` and ``--label``; None
    when neither was given."""
    if label is None and labels_file is None:
        return None
    out: dict[str, Any] = read_labels(labels_file) if labels_file is not None else {}
    given: dict[str, str] = {}
    for text in label or ():
        old, new = parse_label(text)
        if old in given and given[old] != new:
            raise CdplotInputError(
                f"--label gives {old!r} two labels, {given[old]!r} and {new!r}; give one."
            )
        given[old] = new
    out.update(given)
    return out
