"""The record of a cluster's last REFRESH or RESET CLUSTER: kept per cluster, whole, and none when it does not read."""

from __future__ import annotations

from mqsh.model.cluster import explain
from mqsh.model.cluster.explain import ClusterOperation, Held


def operation(cluster: str, kind: str = explain.REFRESH) -> ClusterOperation:
    before = [
        Held("QMGR", "FR1", "FR1", "FR1_QMID", 10, "2026-06-01 09:00:00", repos=True),
        Held("QUEUE", "APP.Q", "PA", "PA_QMID", 12, "2026-06-02 09:00:00"),
    ]
    return ClusterOperation(
        cluster, "PB", kind, "2026-05-10 09:00:00", False, "REPOS(NO)", before, before[1:], base=1777626000
    )


def test_each_cluster_keeps_its_last_operation(tmp_path):
    explain.keep(tmp_path, operation("DEMO"))
    explain.keep(tmp_path, operation("OTHER", explain.RESET))
    explain.keep(tmp_path, operation("DEMO"))
    assert explain.load(tmp_path, "DEMO") == operation("DEMO")
    assert explain.load(tmp_path, "OTHER") == operation("OTHER", explain.RESET)
    assert explain.load(tmp_path, "NONE") is None


def test_a_record_that_does_not_read_is_none_and_the_next_operation_writes_it_whole(tmp_path):
    explain.keep(tmp_path, operation("DEMO"))
    path = tmp_path / explain.EXPLAIN_FILE
    path.write_bytes(path.read_bytes().replace(b"APP.Q", b"APP.X"))
    assert explain.load(tmp_path, "DEMO") is None
    explain.keep(tmp_path, operation("OTHER"))
    assert explain.load(tmp_path, "OTHER") == operation("OTHER")
    assert explain.load(tmp_path, "DEMO") is None  # what did not read is not made up
