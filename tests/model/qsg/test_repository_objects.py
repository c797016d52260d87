"""The repository's object tables: shared queue definitions and group objects with their change count."""

from __future__ import annotations

from mqsh.model.qsg.repository import SharedRepository

NOW = "2026-11-25 08:00:00"
QUEUES = ("QLOCAL", "QALIAS", "QREMOTE", "QMODEL")


def test_a_shared_queue_is_defined_once_altered_and_deleted(tmp_path):
    with SharedRepository(tmp_path, "QSGA", create_at=NOW) as repository:
        attributes = {"CFSTRUCT": "CSQSYSAPPL", "MAXDEPTH": 5000}
        assert repository.save_shared_queue("SQ1", attributes, NOW, new=True)
        assert not repository.save_shared_queue("SQ1", attributes, NOW, new=True)
        assert not repository.save_shared_queue("SQ2", attributes, NOW, new=False)
        assert repository.save_shared_queue("SQ1", {**attributes, "MAXDEPTH": 10}, NOW, new=False)
        assert repository.shared_queue("SQ1") == {"CFSTRUCT": "CSQSYSAPPL", "MAXDEPTH": 10}
        assert repository.shared_queue_rows() == [
            ("SQ1", "CSQSYSAPPL", {"CFSTRUCT": "CSQSYSAPPL", "MAXDEPTH": 10})
        ]
        assert repository.delete_shared_queue("SQ1")
        assert not repository.delete_shared_queue("SQ1")
        assert repository.shared_queue("SQ1") is None


def test_each_group_object_change_advances_the_count_and_stamps_the_object(tmp_path):
    with SharedRepository(tmp_path, "QSGA", create_at=NOW) as repository:
        assert repository.group_change_count() == 0
        assert repository.save_group_object(QUEUES, "QLOCAL", "Q1", {"DESCR": "a"}, NOW, new=True) == 1
        assert (
            repository.save_group_object(QUEUES, "QALIAS", "Q1", {}, NOW, new=True) is None
        )  # one name space
        assert (
            repository.save_group_object(QUEUES, "QALIAS", "Q1", {}, NOW, new=False) is None
        )  # not its type
        assert repository.save_group_object(("CHANNEL",), "CHANNEL", "Q1", {}, NOW, new=True) == 2
        assert repository.group_object(QUEUES, "Q1") == ("QLOCAL", "Q1", {"DESCR": "a"}, NOW, 1)
        assert [row[0] for row in repository.group_objects(None, 0)] == ["CHANNEL", "QLOCAL"]
        assert [row[0] for row in repository.group_objects(QUEUES, 1)] == []
        assert repository.delete_group_object(QUEUES, "Q1") == ("QLOCAL", "Q1", {"DESCR": "a"}, NOW, 1)
        assert repository.delete_group_object(QUEUES, "Q1") is None
        assert repository.group_change_count() == 3
