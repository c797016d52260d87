"""Group objects in the shared repository: one transaction per change, and a change count members watch."""

from __future__ import annotations

import json

from mqsh.model.qsg.group_objects import change_count, delete, find, listing, save, shared_queues
from mqsh.model.qsg.repository import SharedRepository

NOW = "2024-05-01 10:00:00"
QUEUES = ("QLOCAL", "QMODEL", "QALIAS", "QREMOTE")


def test_a_name_is_unique_across_its_name_space_and_each_change_counts(tmp_path):
    with SharedRepository(tmp_path, "QSGA", create_at=NOW) as repository:
        assert change_count(repository) == 0
        made = save(repository, QUEUES, "QLOCAL", "Q1", {"MAXDEPTH": 5}, NOW, new=True)
        assert made is not None and made.serial == 1
        assert save(repository, QUEUES, "QALIAS", "Q1", {}, NOW, new=True) is None  # the queue name is taken
        assert save(repository, QUEUES, "QALIAS", "Q1", {}, NOW, new=False) is None  # not a QALIAS to alter
        assert (
            save(repository, ("CHANNEL",), "CHANNEL", "Q1", {}, NOW, new=True).serial == 2
        )  # another name space
        assert save(repository, QUEUES, "QLOCAL", "Q1", {"MAXDEPTH": 9}, NOW, new=False).serial == 3
        assert find(repository, QUEUES, "Q1").attributes == {"MAXDEPTH": 9}
        assert [item.name for item in listing(repository, since=2)] == ["Q1"]
        assert [item.object_type for item in listing(repository)] == ["CHANNEL", "QLOCAL"]
        assert delete(repository, QUEUES, "Q1").object_type == "QLOCAL"
        assert delete(repository, QUEUES, "Q1") is None
        assert change_count(repository) == 4 and find(repository, QUEUES, "Q1") is None


def test_shared_queues_are_read_with_their_structure(tmp_path):
    with SharedRepository(tmp_path, "QSGA", create_at=NOW) as repository:
        with repository.transaction() as db:
            db.execute(
                "INSERT INTO shared_queue (name, cfstruct, attributes, altered) VALUES (?, ?, ?, ?)",
                ("SQ1", "CSQSYSAPPL", json.dumps({"DESCR": "x"}), NOW),
            )
        queues = shared_queues(repository)
    assert [(queue.name, queue.cfstruct, queue.attributes) for queue in queues] == [
        ("SQ1", "CSQSYSAPPL", {"DESCR": "x"})
    ]
