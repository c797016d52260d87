"""What a space scan finds, and the scan row by row that defines it for every engine.

A scan reads the entries of a structure whose data one owner's data set
holds (owner o, first block b, n blocks) and finds the blocks in use, as the
runs a space map is made of, how many such messages there are, the newest of
them (the highest entry id: entry ids are LRSNs, in the structure's text
order) and those whose blocks lie past the end of a data set of a given size.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

from mqsh.store.records import BLOCK, BLOCKS, ENTRY, OWNER

OWNED = f"SELECT {ENTRY}, {BLOCK}, {BLOCKS} FROM entry WHERE {OWNER} = ? ORDER BY {ENTRY}"


@dataclass(frozen=True)
class SpaceScan:
    """What a scan of one owner's entries found."""

    runs: list[tuple[int, int]]  # blocks in use, as (first, count) runs in block order: a space map
    messages: int  # entries whose data the data set holds
    newest: tuple[str, int, int] | None  # the newest of them (entry id, first block, blocks), or None
    beyond: list[str]  # entry ids, in order, of messages with blocks past the data set's end


def runs_of(blocks: Iterable[int]) -> list[tuple[int, int]]:
    """Blocks as runs of consecutive ones, (first, count) each in block order: a space map's form."""
    runs: list[list[int]] = []
    for block in sorted(blocks):
        if runs and runs[-1][0] + runs[-1][1] == block:
            runs[-1][1] += 1
        else:
            runs.append([block, 1])
    return [(first, count) for first, count in runs]


def extent(b: int | None, n: int | None) -> tuple[int, int]:
    """(first block, blocks) of an entry: an entry that names no block is taken to hold block 0, one
    that gives no count one block, as the owner's open has always read them."""
    return b or 0, n or 1


def scan(db: sqlite3.Connection, owner: str, total: int) -> SpaceScan:
    """owner's entries in the structure open on db, row by row, against a data set of total blocks."""
    used: set[int] = set()
    beyond: list[str] = []
    newest = None
    messages = 0
    for e, b, n in db.execute(OWNED, (owner,)):
        first, count = extent(b, n)
        used.update(range(first, first + count))
        if first + count > total:
            beyond.append(e)
        newest = (e, first, count)
        messages += 1
    return SpaceScan(runs_of(used), messages, newest, beyond)
