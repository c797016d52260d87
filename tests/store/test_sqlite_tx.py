"""A write transaction commits all of a change, or none of it."""

from __future__ import annotations

import sqlite3

import pytest

from mqsh.store.sqlite_tx import write_transaction


def test_a_change_commits_whole_or_rolls_back_whole(tmp_path):
    db = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    db.execute("CREATE TABLE t (n INTEGER)")
    with write_transaction(db):
        db.execute("INSERT INTO t VALUES (1)")
        db.execute("INSERT INTO t VALUES (2)")
    with pytest.raises(KeyboardInterrupt), write_transaction(db):  # an interrupt too leaves nothing half done
        db.execute("INSERT INTO t VALUES (3)")
        raise KeyboardInterrupt
    assert [row[0] for row in db.execute("SELECT n FROM t ORDER BY n")] == [1, 2]
    assert not db.in_transaction


def test_it_takes_the_write_lock_at_once(tmp_path):
    first = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    second = sqlite3.connect(tmp_path / "t.db", isolation_level=None, timeout=0)
    with (
        write_transaction(first),
        pytest.raises(sqlite3.OperationalError, match="locked"),
        write_transaction(second),
    ):
        pass
