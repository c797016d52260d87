"""The cluster audit in process and as one Spark job, side by side, over many queue managers' caches.

    python3 benchmarks/cluster_audit.py [--qmgrs 1000] [--queues 1000] [--dir /tmp/mqsh-auditbench]
                                        [--master local[2]]

Builds (once, then kept) the cluster caches of a cluster of --qmgrs queue managers, two of them full
repositories, each partial owning --queues clustered queues: every owner's own records, the full
repositories' copies of all of them (the 1 M queue records twice over at the defaults), and the
queues each partial uses. Into it go the hazards of restoring a cluster member: owners restored from a backup (their
sequence numbers behind), a DR queue manager with a new QMID claiming a production CLUSRCVR name,
records past their expiry, members the full repositories lost, queues deleted under the partials
that use them. The caches are real cluster caches (mqsh.model.cluster.cache, SQLite); the audit
reads their dumps (mqsh.recovery.audit.dumps, Parquet), made once and timed on their own.

Then the audit runs in process (reading the dumps, then auditing: once, then warm) and as one
Spark job (cold on a new session, then warm), and both must give the same findings.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from mqsh.model.cluster.cache import QMGR, QUEUE, ClusterCache, Record
from mqsh.recovery.audit import dumps
from mqsh.recovery.audit import rules as cluster_audit
from mqsh.recovery.audit import spark as cluster_audit_spark
from mqsh.recovery.spark.session import runner

CLUSTER = "DEMO"
BASE = 1_777_626_000
NOW_TEXT, NOW = "2026-06-20 09:00:00", 1_781_946_000
FRESH, OLD = "2026-07-10 09:00:00", "2026-06-01 09:00:00"  # expiries: ahead of now, and past it
WARM_RUNS = 3
USED_PER_PARTIAL = 20
DR_NAME = "QM0001"  # the production queue manager a DR copy with a new QMID stands in for


def qmid(name: str) -> str:
    return f"{name}_2026-05-01_09.00.00"


def qmgr_record(
    name: str, full: bool, *, own: bool, seq: int = BASE, owner_qmid: str | None = None
) -> Record:
    return Record(
        QMGR,
        CLUSTER,
        owner_qmid or qmid(name),
        name,
        name,
        seq,
        FRESH,
        {
            "CHANNEL": f"TO.{name}",
            "CONNAME": f"{name.lower()}(1414)",
            "QMTYPE": "REPOS" if full else "NORMAL",
        },
        clusdate=NOW_TEXT,
        own=own,
        published=NOW_TEXT,
    )


def queue_record(owner: str, number: int, *, own: bool, seq: int = BASE, expiry: str = FRESH) -> Record:
    return Record(
        QUEUE,
        CLUSTER,
        qmid(owner),
        f"APP.{owner}.Q{number:04d}",
        owner,
        seq,
        expiry,
        {"CLUSQT": "QLOCAL", "PUT": "ENABLED"},
        clusdate=NOW_TEXT,
        own=own,
        published=NOW_TEXT,
    )


def build(folder: Path, qmgrs: int, queues: int) -> dict[str, int]:
    """The caches (kept: a second run reuses them); what was injected, by kind of finding."""
    marker = folder / "built"
    pick = random.Random(qmgrs * 1000 + queues)
    partials = [f"QM{number:04d}" for number in range(qmgrs - 2)]
    restored = set(pick.sample(partials, 5))  # owners behind their full repositories
    lost = set(
        pick.sample(sorted(set(partials) - restored - {DR_NAME}), 3)
    )  # unknown to the full repositories
    deleted = {(owner, pick.randrange(queues)) for owner in pick.sample(partials, 10)}  # phantoms where used
    injected = {
        "STALE": sum(1 for name in restored for number in range(queues) if (name, number) not in deleted),
        "DUPLICATE": 2,
        "UNREACHABLE": len(lost),
        "PHANTOM": len(deleted),
    }
    if marker.exists():
        return injected
    folder.mkdir(parents=True, exist_ok=True)
    caches = folder / "qmgrs"
    uses = {
        name: [(pick.choice(partials), pick.randrange(queues)) for _ in range(USED_PER_PARTIAL)]
        for name in partials
    }
    for owner, number in sorted(deleted):  # each deleted queue still known where it was used
        uses[pick.choice(partials)].append((owner, number))
    for name in partials:
        cache = ClusterCache(caches / name / "clusters.db")
        (caches / name).mkdir(parents=True, exist_ok=True)
        seq = BASE - 10 if name in restored else BASE
        own = [qmgr_record(name, False, own=True)] + [
            queue_record(name, number, own=True, seq=seq)
            for number in range(queues)
            if (name, number) not in deleted
        ]
        learnt = [qmgr_record("FR1", True, own=False), qmgr_record("FR2", True, own=False)]
        for owner, number in uses[name]:
            if owner == name:
                continue  # its own queue: its own record says it
            expiry = OLD if pick.random() < 0.01 else FRESH
            learnt += [
                queue_record(owner, number, own=False, expiry=expiry),
                qmgr_record(owner, False, own=False),
            ]
        cache.save(*own, *{record.key: record for record in learnt}.values())
        cache.close()
    everything = [queue_record(name, number, own=False) for name in partials for number in range(queues)]
    members = [qmgr_record(name, False, own=False) for name in partials if name not in lost]
    dr = qmgr_record(
        DR_NAME, False, own=False, owner_qmid=f"{DR_NAME}_2026-06-19_22.00.00"
    )  # a DR copy's new QMID
    for full, other in (("FR1", "FR2"), ("FR2", "FR1")):
        (caches / full).mkdir(parents=True, exist_ok=True)
        cache = ClusterCache(caches / full / "clusters.db")
        cache.save(
            qmgr_record(full, True, own=True), qmgr_record(other, True, own=False), *members, dr, *everything
        )
        cache.close()
    marker.write_text("built\n")
    return injected


def timed(action):
    started = time.perf_counter()
    result = action()
    return result, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--qmgrs", type=int, default=1000)
    parser.add_argument("--queues", type=int, default=1000)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/mqsh-auditbench"))
    parser.add_argument("--master", default="local[2]")
    args = parser.parse_args()
    folder = args.dir / f"{args.qmgrs}x{args.queues}"
    print(f"cluster audit: {args.qmgrs} queue managers x {args.queues} clustered queues, caches in {folder}")
    (injected, seconds) = timed(lambda: build(folder, args.qmgrs, args.queues))
    print(f"  caches built (or found)         {seconds:8.2f} s")
    dump_dir = folder / "dumps"
    if not any(dump_dir.glob("*.parquet")):
        (_, seconds) = timed(lambda: dumps.collect(folder / "qmgrs", dump_dir))
        print(f"  caches collected (SQLite->Parquet) {seconds:6.2f} s")
    records, seconds = timed(lambda: dumps.read_folder(dump_dir))
    print(f"  records                         {len(records):>10,}   (dumps read in {seconds:.2f} s)")

    def in_process():
        return cluster_audit.audit(dumps.read_folder(dump_dir), NOW)

    expected, first = timed(in_process)
    warm = statistics.median(timed(in_process)[1] for _ in range(WARM_RUNS))
    spark = runner(args.master)
    found, cold = timed(lambda: cluster_audit_spark.audit(spark, dump_dir, NOW))
    spark_warm = [timed(lambda: cluster_audit_spark.audit(spark, dump_dir, NOW)) for _ in range(WARM_RUNS)]
    same = found.equals(expected) and all(result.equals(expected) for result, _ in spark_warm)
    counts = {
        name: int(sum(1 for value in expected["finding"].to_pylist() if value == name))
        for name in cluster_audit.COLUMNS
    }
    print(f"  in process        first {first:7.2f} s   warm {warm:7.2f} s")
    print(
        f"  Spark ({args.master})  cold  {cold:7.2f} s   warm {statistics.median(s for _, s in spark_warm):7.2f} s"
    )
    print(f"  findings: {', '.join(f'{name} {count}' for name, count in counts.items())}")
    print(
        f"  injected: {', '.join(f'{name} {count}' for name, count in injected.items())}; "
        f"the same findings on both engines: {'yes' if same else 'NO'}"
    )
    if not same or any(counts[name] < count for name, count in injected.items()):
        sys.exit(1)


if __name__ == "__main__":
    main()
