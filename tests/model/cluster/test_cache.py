"""The cluster cache answers a question again from what it read, until its next change."""

from __future__ import annotations

from mqsh.model.cluster.cache import QUEUE, ClusterCache, Record


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

