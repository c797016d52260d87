"""What a log's picture shows of the log itself: its extents with their LSN ranges and states, and the
checkpoints and media images among its records (mqsh.lab.timeline and mqsh.lab.timeline_cf draw them)."""

from __future__ import annotations

from pathlib import Path

from mqsh.lab.timeline_axis import ACTIVE, ARCHIVED, INACTIVE, MISSING, Mark, Span
from mqsh.recovery import logscan
from mqsh.store import log as logstore
from mqsh.store.records import KIND, LSN, NAME, UNITS


def extent_spans(log_dir: Path, active_from: int | None, archived: set[int]) -> list[Span]:
    """The extents present and the gaps between them, each with its LSN range and state."""
    ring = logstore.read_ring(log_dir)
    present = logstore.list_extents(log_dir)
    firsts = {number: logstore.first_lsn(logstore.extent_path(log_dir, number, ring)) for number in present}
    spans: list[Span] = []
    for index, number in enumerate(present):
        first = firsts[number] if firsts[number] is not None else (spans[-1].last + 1 if spans else 0)
        if index + 1 < len(present) and firsts[present[index + 1]] is not None:
            last = firsts[present[index + 1]] - 1
        else:
            last = max(logstore.valid_end(logstore.extent_path(log_dir, number, ring))[1], first)
        if spans and number > present[index - 1] + 1:
            for gap in range(present[index - 1] + 1, number):
                spans.append(Span(logstore.extent_name(gap), spans[-1].last + 1, first - 1, MISSING))
        state = (
            ACTIVE
            if active_from is None or number >= active_from
            else ARCHIVED
            if number in archived
            else INACTIVE
        )
        spans.append(Span(logstore.extent_name(number), first, last, state))
    return spans


def log_marks(log_dir: Path) -> list[Mark]:
    """The checkpoints and media images the log holds (one pass over its records, as DISPLAY LOG's
    reader makes; a picture of a very long log waits for it)."""
    runs: list[list] = []  # [kind, first LSN, last LSN, names]: a run of images (a shutdown's) is one mark
    try:
        _read_marks(log_dir, runs)
    except (logstore.LogCorrupt, logstore.ExtentMissing):
        pass  # a damaged log: the marks up to the damage (its extents show where it lies)
    return [Mark(first, kind, _run_label(kind, first, last, names)) for kind, first, last, names in runs]


def _read_marks(log_dir: Path, runs: list[list]) -> None:
    present = logstore.list_extents(log_dir)
    for record in logscan.records(log_dir, present[0], 0, skipped=[]) if present else ():
        kind = {"CKPT": "checkpoint", "IMG": "media image"}.get(record[KIND])
        if kind is None:
            continue
        if kind == "checkpoint" and record.get(UNITS):
            # Units of work still open at the checkpoint: one mark of its own, not run together.
            count = len(record[UNITS])
            runs.append(
                [kind, record[LSN], record[LSN], [f"{count} unit{'s' if count > 1 else ''} of work open"]]
            )
            continue
        if runs and runs[-1][0] == kind and runs[-1][2] == record[LSN] - 1:
            runs[-1][2] = record[LSN]
            runs[-1][3].append(record.get(NAME))
        else:
            runs.append([kind, record[LSN], record[LSN], [record.get(NAME)]])


def _run_label(kind: str, first: int, last: int, names: list) -> str:
    if kind == "checkpoint":
        if first == last and names[0]:
            return f"checkpoint: {names[0]}"
        return "checkpoint" if first == last else f"checkpoints to LSN {last}"
    return (
        f"media image of {names[0]}"
        if first == last
        else f"media images of {len(names)} objects to LSN {last}"
    )
