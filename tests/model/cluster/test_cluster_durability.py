"""No cluster update is lost, whatever is cut or killed.

Random runs of changes to clustered queues on two partial repositories, network cuts and joins,
crashes of any queue manager, and kills injected between a repository manager's steps (after
its messages are logged and before its cache says so; in the middle of applying a command
message, before its get is committed): once the network is whole and every queue manager runs
again, both full repositories hold each owner's records as the owner last published them, and
the owner's cache agrees with its definitions.
"""

from __future__ import annotations

import random

import pytest

from mqsh.model.cluster.cache import QUEUE, ClusterCache
from mqsh.model.cluster.manager import RepositoryManager
from tests.model.cluster.conftest import cache, run
from tests.support import Killed, kill_sometimes

pytestmark = pytest.mark.slow

MEMBERS = ("FR1", "FR2", "PA", "PB")


def recover(session) -> None:
    """Every queue manager this process ran restarts, as after the process was killed (a start
    may be killed in its turn)."""
    while True:
        try:
            for name in MEMBERS:
                session.installation.crash(name)
            for name in MEMBERS:
                run(session, f"strmqm {name}")
            return
        except Killed:
            continue


@pytest.mark.parametrize("seed", range(12))
def test_random_cuts_crashes_and_kills_lose_no_cluster_update(cluster, monkeypatch, seed):
    rng = random.Random(seed)
    run(cluster, "LAB SITE QMGR(PA) SITE(EAST)")
    for step in ("_save_pending", "_put_outbox"):
        monkeypatch.setattr(
            RepositoryManager, step, kill_sometimes(rng, getattr(RepositoryManager, step), 0.06)
        )
    monkeypatch.setattr(ClusterCache, "save", kill_sometimes(rng, ClusterCache.save, 0.04))
    for number in range(25):
        action = rng.choice(["alter", "alter", "define", "delete", "cut", "join", "crash", "clock"])
        owner = rng.choice(["PA", "PB"])
        try:
            if action == "alter":
                cluster.execute(f"LAB USE QMGR({owner})")
                cluster.execute(f"ALTER QLOCAL(APP.Q{rng.randint(0, 2)}) DESCR('v{number}')")
            elif action == "define":
                cluster.execute(f"LAB USE QMGR({owner})")
                cluster.execute(f"DEFINE QLOCAL(APP.Q{rng.randint(0, 2)}) CLUSTER(DEMO) DESCR('v{number}')")
            elif action == "delete":
                cluster.execute(f"LAB USE QMGR({owner})")
                cluster.execute(f"DELETE QLOCAL(APP.Q{rng.randint(0, 2)})")
            elif action in ("cut", "join"):
                cluster.execute(f"LAB NETWORK {action.upper()} SITES(EAST,MAIN)")
            elif action == "clock":
                cluster.execute("LAB CLOCK ADVANCE(1H)")
            else:
                name = rng.choice(MEMBERS)
                cluster.installation.crash(name)
                run(cluster, f"strmqm {name}")
        except Killed:
            recover(cluster)
    monkeypatch.undo()
    run(cluster, "LAB NETWORK JOIN SITES(EAST,MAIN)", "LAB CLOCK ADVANCE(1M)", "LAB USE QMGR(PB)")
    for owner in ("PA", "PB"):
        held = cluster.installation.connect(owner)
        defined = {
            obj.name: obj.attributes.get("DESCR", "")
            for obj in held.objects("QUEUE")
            if obj.attributes.get("CLUSTER") == "DEMO"
        }
        mine = {record.name: record for record in cache(cluster, owner).records(QUEUE, own=True)}
        assert {name for name, record in mine.items() if not record.deleted} == set(defined)
        for name, record in mine.items():
            if not record.deleted:
                assert record.attrs.get("DESCR", "") == defined[name]
            for full in ("FR1", "FR2"):
                copy = cache(cluster, full).record(record.key)
                assert copy is not None and copy.seq == record.seq, (full, name, copy, record)
                assert bool(copy.deleted) == bool(record.deleted)
