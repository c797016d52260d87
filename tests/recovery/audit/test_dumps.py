"""Cluster cache dumps: the records of every cache, as the audit reads them."""

from __future__ import annotations

import json

from mqsh.recovery.audit import dumps
from tests.model.cluster.conftest import cluster  # noqa: F401 - the fixture: a cluster of four queue managers


def test_the_owners_copy_carries_its_contents_and_no_other_copy_does(cluster, data_dir, tmp_path):
    dumps.collect(data_dir / "qmgrs", tmp_path)
    rows = dumps.read_folder(tmp_path).to_pylist()
    queue = [row for row in rows if row["kind"] == "QUEUE" and row["name"] == "APP.Q"]
    assert [row["holder"] for row in queue if row["own"]] == ["PA"]
    owned = next(row for row in queue if row["own"])
    assert isinstance(json.loads(owned["content"]), dict)
    assert all(row["content"] is None for row in queue if not row["own"]) and len(queue) > 1
