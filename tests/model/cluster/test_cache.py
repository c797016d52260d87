"""The cluster cache answers a question again from what it read, until its next change; it keeps who sent what it learnt."""

from __future__ import annotations

import sqlite3

from mqsh.model.cluster.cache import QUEUE, SCHEMA, ClusterCache, Record


def test_a_question_asked_again_sees_every_change_made_since(tmp_path):
    cache = ClusterCache(tmp_path / "clusters.db")
    cache.set_meta("base", "1")
    assert cache.meta("base") == "1"
    cache.set_meta("base", "2")
    assert cache.meta("base") == "2"
    assert cache.records(QUEUE) == []
    cache.save(Record(QUEUE, "DEMO", "QMID1", "APP.Q", "PA", 1, "2026-06-01T00:00:00"))
    assert [record.name for record in cache.records(QUEUE)] == ["APP.Q"]
    cache.drop([(QUEUE, "DEMO", "QMID1", "APP.Q")])
    assert cache.records(QUEUE) == []
    cache.close()


def test_the_sender_of_a_record_learnt_is_kept_and_a_cache_made_before_gains_the_table(tmp_path):
    path = tmp_path / "clusters.db"
    old = sqlite3.connect(path)  # a cache made before senders were noted: no "learned" table
    for statement in SCHEMA:
        if "learned" not in statement:
            old.execute(statement)
    old.commit()
    old.close()
    cache = ClusterCache(path)
    cache.save(
        Record(QUEUE, "DEMO", "QMID1", "APP.Q", "PA", 1, "2026-06-01T00:00:00", sender="FR1_QMID"),
        Record(QUEUE, "DEMO", "QMID1", "OWN.Q", "PA", 1, "2026-06-01T00:00:00", own=True),
    )
    assert cache.senders("DEMO") == {(QUEUE, "DEMO", "QMID1", "APP.Q"): "FR1_QMID"}
    assert cache.senders("OTHER") == {}
    cache.close()
    again = ClusterCache(path)
    assert again.record((QUEUE, "DEMO", "QMID1", "APP.Q")).sender == ""  # kept beside the record, not in it
    again.close()
