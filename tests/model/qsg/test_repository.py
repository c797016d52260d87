"""The shared repository: an SQLite file per group, with a versioned schema, transactions and damage named."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from mqsh.model.qsg.repository import (
    SCHEMA_VERSION,
    RepositoryUnavailable,
    SharedRepository,
    group_names,
    repository_path,
)

NOW = "2026-11-25 08:00:00"


def test_a_new_repository_has_the_schema_and_the_default_structures(tmp_path):
    with SharedRepository(tmp_path, "QSGA", create_at=NOW) as repository:
        assert repository.members() == []
        assert repository.structures() == ["CSQSYSAPPL", "CSQ_ADMIN"]
        assert repository.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert repository.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert repository.integrity_problems() == []
    assert group_names(tmp_path) == ["QSGA"]
    with SharedRepository(tmp_path, "QSGA") as reopened:  # another process's view: the same
        assert reopened.structures() == ["CSQSYSAPPL", "CSQ_ADMIN"]


def test_members_get_the_lowest_free_number_and_a_group_holds_32(tmp_path):
    with SharedRepository(tmp_path, "QSGA", create_at=NOW) as repository:
        numbers = [repository.add_member(f"QM{index}", NOW).number for index in range(32)]
        assert numbers == list(range(1, 33))
        with pytest.raises(ValueError, match="already has 32 queue managers"):
            repository.add_member("QM99", NOW)
        repository.remove_member("QM4")
        assert repository.add_member("QM99", NOW).number == 5


def test_a_failed_transaction_changes_nothing(tmp_path):
    with SharedRepository(tmp_path, "QSGA", create_at=NOW) as repository:
        with pytest.raises(sqlite3.IntegrityError), repository.transaction() as db:
            db.execute("INSERT INTO member (qmgr, number, added) VALUES ('QM1', 1, ?)", (NOW,))
            db.execute(
                "INSERT INTO member (qmgr, number, added) VALUES ('QM2', 1, ?)", (NOW,)
            )  # number taken
        assert repository.members() == []


def test_members_added_at_once_from_many_connections_get_different_numbers(tmp_path):
    SharedRepository(tmp_path, "QSGA", create_at=NOW).close()
    numbers, failures = [], []

    def add(index: int) -> None:
        try:
            with SharedRepository(tmp_path, "QSGA") as repository:
                numbers.append(repository.add_member(f"QM{index}", NOW).number)
        except Exception as error:
            failures.append(error)

    threads = [threading.Thread(target=add, args=(index,)) for index in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert sorted(numbers) == list(range(1, 13))


def test_a_missing_repository_is_named(tmp_path):
    with pytest.raises(RepositoryUnavailable, match="is missing") as found:
        SharedRepository(tmp_path, "QSGA")
    assert found.value.reason == 2342 and str(repository_path(tmp_path, "QSGA")) in str(found.value)


@pytest.mark.parametrize(
    "damage, words",
    [
        (lambda path: path.write_bytes(b"not a database at all, just some bytes" * 200), "is damaged"),
        (lambda path: path.write_bytes(b""), "holds no queue-sharing group"),
    ],
)
def test_a_file_that_is_no_repository_is_named_damaged(tmp_path, damage, words):
    path = repository_path(tmp_path, "QSGA")
    path.parent.mkdir(parents=True)
    damage(path)
    with pytest.raises(RepositoryUnavailable, match=words):
        SharedRepository(tmp_path, "QSGA")


def test_a_newer_schema_is_refused_and_left_alone(tmp_path):
    SharedRepository(tmp_path, "QSGA", create_at=NOW).close()
    path = repository_path(tmp_path, "QSGA")
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(RepositoryUnavailable, match="newer than this mqsh"):
        SharedRepository(tmp_path, "QSGA")
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1


def test_a_file_of_another_group_is_refused(tmp_path):
    SharedRepository(tmp_path, "QSGA", create_at=NOW).close()
    repository_path(tmp_path, "QSGA").rename(repository_path(tmp_path, "QSGB"))
    with pytest.raises(RepositoryUnavailable, match="belongs to queue-sharing group QSGA"):
        SharedRepository(tmp_path, "QSGB")


def test_a_version_1_file_is_brought_up_to_date_and_keeps_its_structures(tmp_path):
    """A group made by an mqsh of schema 1 gains the structure-status and group-change tables, the
    connections' failure times, the structures' definition ids and the data sets' return counts, when
    next opened."""
    SharedRepository(tmp_path, "QSGA", create_at=NOW).close()
    path = repository_path(tmp_path, "QSGA")
    with sqlite3.connect(path) as db:
        for table in ("cfstruct_status", "cfbackup", "cfconnection", "group_change"):
            db.execute(f"DROP TABLE {table}")
        db.execute("ALTER TABLE group_object DROP COLUMN serial")
        db.execute("ALTER TABLE cfstruct DROP COLUMN defined")
        db.execute("ALTER TABLE smds DROP COLUMN returned")
        db.execute("PRAGMA user_version = 1")
    with SharedRepository(tmp_path, "QSGA") as repository:
        assert repository.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 8
        assert repository.db.execute("SELECT count(*) FROM cfstruct_status").fetchone()[0] == 0
        assert repository.db.execute("SELECT count(failed) FROM cfconnection").fetchone()[0] == 0
        assert repository.db.execute("SELECT serial FROM group_change").fetchone()[0] == 0
        assert "CSQSYSAPPL" in repository.cfstructs()
        assert repository.definition_id("CSQSYSAPPL") == ""
        assert "returned" in {row[1] for row in repository.db.execute("PRAGMA table_info(smds)")}


def test_each_definition_of_a_structure_has_its_own_id(tmp_path):
    with SharedRepository(tmp_path, "QSGA", create_at=NOW) as repository:
        assert repository.save_cfstruct("APP1", {"CFLEVEL": 5}, NOW, new=True)
        first = repository.definition_id("APP1")
        assert repository.save_cfstruct("APP1", {"CFLEVEL": 4}, NOW, new=False)
        assert repository.definition_id("APP1") == first  # ALTER keeps it
        assert repository.delete_cfstruct("APP1") and repository.definition_id("APP1") is None
        assert repository.save_cfstruct("APP1", {"CFLEVEL": 5}, NOW, new=True)
        assert repository.definition_id("APP1") not in (None, "", first)
        assert repository.definition_id("CSQSYSAPPL") == ""  # made with the group
