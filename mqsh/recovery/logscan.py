"""Reading the log for recovery: which extent holds an LSN, gaps, and a full integrity scan.

mqsh.store.log reads a contiguous run of extents and stops at a gap
(ExtentMissing) or a damaged record (LogCorrupt). Recovery needs a little
more: to find the extent where a media recovery record sits, to carry on past
missing extents when the administrator said so (KahaDB's
ignoreMissingJournalfiles), and to check every record of every extent before
a start (checkForCorruptJournalFiles).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mqsh.store import log as logstore


def extent_holding(directory: Path, lsn: int) -> int:
    """The number of the extent that holds lsn; ExtentMissing names a needed extent that is gone."""
    extents = logstore.list_extents(directory)
    ring = logstore.read_ring(directory)
    for number in reversed(extents):
        start = logstore.first_lsn(logstore.extent_path(directory, number, ring))
        if start is not None and start <= lsn:
            return number
    # lsn is older than every extent present: the one just before the oldest
    # present extent holds records from lsn onwards, so it is certainly needed.
    missing = extents[0] - 1 if extents and extents[0] > 0 else 0
    raise logstore.ExtentMissing(logstore.extent_file_name(directory, missing), missing)


def records(
    directory: Path, first_extent: int, from_lsn: int, skipped: list[str] | None = None
) -> Iterator[dict[str, Any]]:
    """Records from first_extent on; with a skipped list, missing extents are noted there and passed over.

    Without one, the records before a missing extent are read and then
    ExtentMissing names it.
    """
    present = [number for number in logstore.list_extents(directory) if number >= first_extent]
    expected = first_extent
    run: list[int] = []
    for number in present:
        if number != expected:
            yield from logstore.read_extents(directory, run, from_lsn, ends_log=False)
            run = []
            gap = [logstore.extent_file_name(directory, missing) for missing in range(expected, number)]
            if skipped is None:
                raise logstore.ExtentMissing(gap[0])
            skipped += gap
        run.append(number)
        expected = number + 1
    yield from logstore.read_extents(directory, run, from_lsn)


def verify(directory: Path) -> int:
    """Read every record of every extent present; LogCorrupt at the first bad one. Returns the count.

    Gaps between extents are passed over here: they are the replay's business.
    """
    extents = logstore.list_extents(directory)
    if not extents:
        return 0
    return sum(1 for _ in records(directory, extents[0], 0, skipped=[]))


def complete_from_start(directory: Path) -> bool:
    """True when the log still begins at its very first record (S0000000.LOG, LSN 0) - or is empty."""
    extents = logstore.list_extents(directory)
    if not extents:
        return True
    return extents[0] == 0 and logstore.first_lsn(logstore.extent_path(directory, 0)) in (0, None)
