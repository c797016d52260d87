"""The language's parsed forms, kept between processes in the user's cache folder.

Reading catalogue.toml and analysing the grammar cost more than everything else a one-command
report does before its first command, so their parsed forms are kept in $XDG_CACHE_HOME/mqsh
(else ~/.cache/mqsh). A kept form is named by a hash of everything it was made from, so a changed
file is read afresh, never mistaken for the old one. A folder that cannot be written (a read-only
home, a full disk) costs only the time: the forms are then made again in each process.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar, cast

T = TypeVar("T")
STALE_SECONDS = 24 * 3600


def cache_folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mqsh"


def kept(name: str, sources: list[bytes], make: Callable[[], T]) -> T:
    """What make() returns, read from the cache when it was kept there from the same sources.

    The first process to make it keeps it."""
    folder = cache_folder()
    path = folder / f"{name}-{_digest(sources)}.pickle"
    try:
        with path.open("rb") as file:
            return cast(T, pickle.load(file))
    except Exception:
        pass
    value = make()
    written = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        written.write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(written, path)  # whole or not at all, whoever reads it meanwhile
        _forget_others(folder, f"{name}-*.pickle", path)
    except OSError:
        with contextlib.suppress(OSError):
            written.unlink(missing_ok=True)
    return value


def _digest(sources: list[bytes]) -> str:
    return hashlib.sha256(b"\0".join(sources)).hexdigest()[:20]


def _forget_others(folder: Path, pattern: str, current: Path) -> None:
    """Forms kept from other sources, once a day old: another checkout of mqsh may still use a
    newer one, and would only make it again."""
    for other in folder.glob(pattern):
        if other != current and time.time() - other.stat().st_mtime > STALE_SECONDS:
            other.unlink(missing_ok=True)


def grammar_cache(grammar: str) -> str:
    """Where lark keeps its analysis of this grammar. Lark checks the hash it writes inside
    (of the grammar, its options and lark's version) and analyses afresh when that differs; the
    name holds the grammar's own, so that checkouts of different grammars keep a file each."""
    folder = cache_folder()
    path = folder / f"mqsc-grammar-{_digest([grammar.encode()])}.lark"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _forget_others(folder, "mqsc-grammar-*.lark", path)
    except OSError:
        pass  # lark reads nothing and fails to write quietly: the grammar is analysed each time
    return str(path)
