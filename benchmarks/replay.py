"""Full-log replay: the reference replayer, Spark (cold and warm), and a columnar baseline.

    python3 benchmarks/replay.py [--records 1000000 10000000] [--dir /tmp/mqsh-bench] [--master local[2]]

For each size a queue manager's log is made once with LAB LOAD (and kept, so
every engine reads the same files); each engine then replays the whole log in
a process of its own, so peak memory is that engine's alone: the process's
ru_maxrss, and for Spark also the JVM's VmHWM. Every record counts, as in the
forced full replay of a start that finds no object files: each engine starts
from nothing. Spark replays once on a new session (cold), ninety-six times
more while its JVM compiles the replay's code (warming: median shown), and then
forty times warm (best and median). The columnar baselines are processes with
pyarrow alone. Two compute only the surviving messages' ids: from the extents'
Parquet copies of their records, and from the moves the extents settled when
sealed, which is what Spark reads (the active extent is parsed, and settled, as
Spark does). The third makes the whole replay Spark makes, in process: Spark's
replay with its one query answered by pyarrow (columnar_replay). Each replays
once, and then forty times warm. The ratios of the warm medians follow, and a
check that every engine that replays the whole log leaves the reference's
state. Last comes a restart after a crash with a normal checkpoint interval,
through strmqm, with the active extent nearly empty and nearly full.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# A JVM's replays keep getting faster for about a hundred runs, while it compiles the code
# they run (measured at 1 M records, medians of blocks of 40 runs, in three sessions: 0.26-0.29 s
# over the first 40, 0.22-0.23 s over the next, then 0.17-0.23 s in every block up to the
# 400th); a warm session is one past that. Its compiler threads stay busy even then, on the
# same two cores, which is much of what moves one warm median from the next.
WARM_UP, WARM_RUNS = 96, 40  # forty warm runs: a median that one slow run or two hardly moves
# Each engine's replays, in the order they run: the columnar baselines give the surviving
# messages' ids (from the extents' records, from their settled moves) or the whole replay.
MODES = ("reference", "spark", "columnar", "columnar settled", "columnar replay")
sys.path.insert(0, str(REPO))

from mqsh.model.clock import Clock
from mqsh.model.qmgr import QueueManager
from mqsh.recovery import replay
from mqsh.recovery.engine import ReplayEngine
from mqsh.shell.session import Session
from mqsh.store import log as logstore
from mqsh.store.datadir import QmgrPaths


def _running_qmgr(data_dir: Path, engine: ReplayEngine | None = None) -> Session:
    session = Session(data_dir, engine=engine)
    # A linear log keeps every extent, so the whole load stays there to replay.
    for command in ("crtmqm -ll QM1", "strmqm QM1"):
        session.execute(command)
    session.current_qmgr = "QM1"
    return session


def make_log(data_dir: Path, records: int) -> None:
    if (data_dir / "ready").exists():
        return
    session = _running_qmgr(data_dir, ReplayEngine("local"))
    session.execute("DEFINE QLOCAL(BIG)")
    print(session.render(session.execute(f"LAB LOAD QUEUE(BIG) RECORDS({records})")), flush=True)
    session.execute("LAB CRASH")
    (data_dir / "ready").touch()


def _qmgr(data_dir: Path) -> QueueManager:
    return QueueManager(QmgrPaths(data_dir, "QM1"), Clock(data_dir / "clock"))


def _peak_mb(pid: int | str = "self") -> float:
    """VmHWM: unlike ru_maxrss it starts afresh at exec, so it is this process's own peak."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _jvm_peak_mb(spark) -> float:
    return _peak_mb(spark.sparkContext._gateway.proc.pid)


def worker_reference(data_dir: Path) -> dict:
    qmgr = _qmgr(data_dir)
    start = time.perf_counter()
    state = {}
    count = replay.replay(state, logstore.read_records(qmgr.paths.log_dir, 0, 0))
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "records": count, "depth": len(state["QUEUE/BIG"].messages),
            "state": _digest(state), "memory": _peak_mb()}


def worker_spark(data_dir: Path, master: str) -> dict:
    from mqsh.recovery.spark_replay import replay_log
    from mqsh.recovery.spark_session import runner

    qmgr = _qmgr(data_dir)
    spark_runner = runner(master)
    times = []
    # The first replay starts the session. The JVM goes on compiling the replay's code over
    # the next few (warming up, median shown); then the session is warm (best and median).
    for _ in range(1 + WARM_UP + WARM_RUNS):
        start = time.perf_counter()
        replayed = replay_log(spark_runner, {}, qmgr.paths.log_dir, 0, 0, {}, set())
        times.append(time.perf_counter() - start)
    warm = times[1 + WARM_UP:]
    return {"cold": times[0], "warming": statistics.median(times[1:1 + WARM_UP]),
            "seconds": min(warm), "median": statistics.median(warm),
            "records": replayed.count,
            "depth": len(replayed.state["QUEUE/BIG"].messages), "state": _digest(replayed.state),
            "memory": _peak_mb(), "jvm": _jvm_peak_mb(spark_runner.session())}


def worker_columnar(data_dir: Path, settled_moves: bool) -> dict:
    """Surviving messages with pyarrow alone: outcomes joined to puts and gets, gets anti-joined.

    From the extents' records, or (settled_moves) from the moves they settled
    when sealed, the active extent's settled as it is read - as Spark reads them.
    The files are read as they are: the check that each was made from its extent
    as it is now (a CRC of the extent) is left to the replay proper.
    """
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from mqsh.store import columnar, settled

    paths = QmgrPaths(data_dir, "QM1")
    *sealed, active = [paths.log_dir / logstore.extent_name(n) for n in logstore.list_extents(paths.log_dir)]

    def survivors() -> pa.Table:
        active_table = columnar.extent_table(active.read_bytes(), newest=True)
        if settled_moves:
            tables = [pq.read_table(columnar.moves_path(extent)) for extent in sealed]
            tables.append(settled.settle(active_table)[0])
        else:
            tables = [pq.read_table(columnar.copy_path(extent)) for extent in sealed] + [active_table]
        log = pa.concat_tables(table.select(["lsn", "t", "m", "u"]) for table in tables)
        kind = log["t"]
        ends = log.filter(pc.is_in(kind, pa.array(["CMT", "BCK"]))).select(["u", "t"]).rename_columns(["u", "end"])
        puts = log.filter(pc.equal(kind, "PUT")).select(["lsn", "m", "u"]).join(ends, "u", join_type="left outer")
        gets = log.filter(pc.equal(kind, "GET")).select(["m", "u"]).join(ends, "u", join_type="left outer")
        kept = puts.filter(pc.or_kleene(pc.is_null(puts["u"]), pc.equal(puts["end"], "CMT")))
        done = gets.filter(pc.or_kleene(pc.is_null(gets["u"]), pc.equal(gets["end"], "CMT"))).select(["m"])
        return kept.join(done, "m", join_type="left anti").sort_by("lsn")

    times = []
    for _ in range(1 + WARM_RUNS):  # once, then warm, as Spark's warm replays are
        start = time.perf_counter()
        alive = survivors()
        times.append(time.perf_counter() - start)
    records = sum(columnar.summary_of(columnar.copy_path(extent))["count"] for extent in sealed) \
        + len(columnar.extent_table(active.read_bytes(), newest=True))
    return {"first": times[0], "seconds": min(times[1:]), "median": statistics.median(times[1:]),
            "records": records, "depth": len(alive), "memory": _peak_mb()}


def _columnar_survivors(moves, epochs, base_messages):
    """The survivors' query (mqsh.recovery.spark_sql.SURVIVORS) in pyarrow, over few moves kept to their epochs.

    Rows join queues (moves, the messages of an image that starts an epoch, the
    messages of a queue's file that carry on); each put and get meets its unit's
    first ending on the queue; a message is gone if a get took it, held if a get
    in a unit still in flight got it.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    schema = pa.schema({"log": pa.int32(), "key": pa.string(), "olsn": pa.int64(), "pos": pa.int64(),
                        "m": pa.string(), "p": pa.int32(), "s": pa.int64(), "t": pa.string(), "st": pa.string(),
                        "u": pa.string(), "kind": pa.string()})
    parts = [pa.table({"log": moves["log"], "key": moves["key"], "olsn": moves["lsn"],
                       "pos": pa.repeat(pa.scalar(0, pa.int64()), len(moves)), "m": moves["m"], "p": moves["p"],
                       "s": moves["s"], "t": moves["tm"], "st": pc.if_else(pc.is_null(moves["u"]), "C", "P"),
                       "u": moves["u"], "kind": moves["t"]}, schema=schema)]
    queues = epochs.to_pylist()
    arrivals = [{**message, "log": queue["log"], "key": queue["key"], "olsn": queue["epoch"], "pos": pos,
                 "kind": "PUT"}
                for queue in queues if queue["image"] is not None
                for pos, message in enumerate(json.loads(queue["image"]).get("ms") or [])]
    carried = {(queue["log"], queue["key"]) for queue in queues if queue["base"]}
    arrivals += [{**message, "olsn": -1, "kind": "PUT"} for message in base_messages.to_pylist()
                 if (message["log"], message["key"]) in carried]
    parts.append(pa.Table.from_pylist(arrivals, schema=schema))
    rows = pa.concat_tables(parts)
    kind = rows["kind"]
    ends = rows.filter(pc.is_in(kind, value_set=pa.array(["CMT", "BCK"])))
    ends = pa.table({"log": ends["log"], "key": ends["key"], "u": ends["u"],
                     "ending": pc.add(pc.multiply(ends["olsn"], 2), pc.cast(pc.equal(ends["kind"], "BCK"), pa.int64()))})
    ends = ends.group_by(["log", "key", "u"]).aggregate([("ending", "min")])  # the unit's first ending
    moved = rows.filter(pc.is_in(kind, value_set=pa.array(["PUT", "GET"]))) \
        .join(ends, ["log", "key", "u"], join_type="left outer")
    committed = pc.equal(pc.bit_wise_and(moved["ending_min"], 1), 0)  # null while in flight
    moved = moved.append_column("committed", committed)
    gets = moved.filter(pc.equal(moved["kind"], "GET"))
    taken = gets.filter(pc.or_(pc.is_null(gets["u"]), pc.fill_null(gets["committed"], False)))
    held = gets.filter(pc.is_null(gets["ending_min"])).group_by(["log", "key", "m"]).aggregate([("u", "max")])
    puts = moved.filter(pc.equal(moved["kind"], "PUT")) \
        .join(taken.select(["log", "key", "m"]), ["log", "key", "m"], join_type="left anti") \
        .join(held, ["log", "key", "m"], join_type="left outer")
    st = puts["st"]
    flipped = pc.equal(pc.equal(st, "P"), puts["committed"])  # committed put, or held get backed out
    st = pc.if_else(pc.equal(st, "C"), "C", pc.if_else(pc.is_null(puts["ending_min"]), st,
                                                       pc.if_else(flipped, "C", pa.scalar(None, pa.string()))))
    puts = puts.set_column(puts.schema.get_field_index("st"), "st", st).filter(pc.is_valid(st))
    is_committed, got_in = pc.equal(puts["st"], "C"), puts["u_max"]
    return pa.table({**{name: puts[name] for name in ("log", "key", "olsn", "pos", "m", "p", "s", "t")},
                     "st": pc.if_else(pc.and_(is_committed, pc.is_valid(got_in)), "G", puts["st"]),
                     "u": pc.if_else(is_committed, got_in, puts["u"])})


def columnar_replay(log_dir: Path, base: dict, first_extent: int = 0, from_lsn: int = 0):
    """The Spark replay's own work, done in process, with its Spark query answered by pyarrow instead.

    The same replay, with the same result: the log read as Spark's replay
    reads it (the active extent parsed and settled, the sealed extents'
    summaries and settled moves), the objects' fates from the summaries, and
    the survivors of the moves (_columnar_survivors). ValueError for a log
    that needs Spark (spark_replay.WITHOUT_SPARK).
    """
    from mqsh.recovery import spark_log, spark_replay

    read = spark_log.log_frame(None, log_dir, first_extent, from_lsn, run=None)
    if read is None or read.summary is None:
        raise ValueError(spark_replay.WITHOUT_SPARK)
    return spark_replay.replay_frames(None, read.records_of, [base], summary=read.summary, settled=read.settled,
                                      survivors_of=_columnar_survivors)[0]


def worker_columnar_replay(data_dir: Path) -> dict:
    log_dir = QmgrPaths(data_dir, "QM1").log_dir
    times = []
    for _ in range(1 + WARM_RUNS):  # once, then warm, as Spark's warm replays are
        start = time.perf_counter()
        result = columnar_replay(log_dir, {})
        times.append(time.perf_counter() - start)
    return {"first": times[0], "seconds": min(times[1:]), "median": statistics.median(times[1:]),
            "records": result.count, "depth": len(result.state["QUEUE/BIG"].messages),
            "state": _digest(result.state), "memory": _peak_mb()}


def _digest(state: dict) -> str:
    """What a replay left, as a short fingerprint: engines that agree give the same."""
    documents = {key: state[key].to_document() for key in sorted(state)}
    return hashlib.sha256(json.dumps(documents, sort_keys=True).encode()).hexdigest()[:12]


def worker(mode: str, data_dir: Path, master: str) -> dict:
    if mode == "reference":
        return worker_reference(data_dir)
    if mode == "spark":
        return worker_spark(data_dir, master)
    if mode == "columnar replay":
        return worker_columnar_replay(data_dir)
    return worker_columnar(data_dir, settled_moves=mode == "columnar settled")


def measure(mode: str, data_dir: Path, master: str) -> dict:
    done = subprocess.run([sys.executable, __file__, "--worker", mode, "--dir", str(data_dir), "--master", master],
                          check=False, capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        sys.exit(f"benchmark: the {mode} replay of {data_dir} failed: {last}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def restart_after_crash(data_dir: Path, earlier: int) -> tuple[int, float, float]:
    """strmqm after a crash with a normal checkpoint interval (auto engine): records replayed, seconds, MB of log.

    earlier records come before the last checkpoint, in the same extent: restart reads
    the whole active extent to find where the log ends and where its restart point is.
    """
    shutil.rmtree(data_dir, ignore_errors=True)  # a queue manager of its own, with no history from earlier runs
    session = _running_qmgr(data_dir)
    session.execute("DEFINE QLOCAL(WORK)")
    if earlier:
        session.execute(f"LAB LOAD QUEUE(WORK) RECORDS({earlier})")  # a checkpoint follows
    session.execute("LAB LOAD QUEUE(WORK) RECORDS(9990)")  # the crash comes just before a checkpoint is due
    session.execute("LAB CRASH")
    start = time.perf_counter()
    session.execute("strmqm QM1")
    seconds = time.perf_counter() - start
    replayed = session.installation.last_start.replayed
    session.close()
    log_bytes = sum(path.stat().st_size for path in (data_dir / "log").rglob("*.LOG"))
    return replayed, seconds, log_bytes / 2**20


def _reference_state(rows: list[tuple[int, str, dict]], records: int) -> str:
    return next(result["state"] for size, mode, result in rows if size == records and mode == "reference")


def _against(mode: str, ratio: float) -> str:
    return f"{mode}: {1 / ratio:.1f}x faster" if ratio < 1 else f"{mode}: {ratio:.1f}x slower"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/mqsh-bench"))
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.dir, args.master)))
        return
    rows = []
    for records in args.records:
        data_dir = args.dir / str(records)
        make_log(data_dir, records)
        for mode in MODES:
            result = measure(mode, data_dir, args.master)
            rows.append((records, mode, result))
            print(records, mode, json.dumps(result), flush=True)
    print(f"\n{'records':>10} {'engine':<25} {'seconds':>8} {'records/s':>11} {'peak MB':>9} {'JVM MB':>8} {'depth':>6}"
          f" {'state':>12}")
    for records, mode, result in rows:
        if mode == "spark":
            runs = [("spark cold", result["cold"]), ("spark warming", result["warming"])]
        elif mode == "reference":
            runs = []
        else:
            runs = [(f"{mode}, once", result["first"])]
        runs += [(f"{mode} warm", result["seconds"]), ("  (median)", result["median"])] \
            if "median" in result else [(mode, result["seconds"])]
        for name, seconds in runs:
            print(f"{records:>10} {name:<25} {seconds:>8.2f} {result['records'] / seconds:>11,.0f} "
                  f"{result['memory']:>9.0f} {result.get('jvm', 0):>8.0f} {result['depth']:>6}"
                  f" {result.get('state', '(ids only)'):>12}")
    print("\nwarm Spark's median against each baseline's warm median (the reference's one run)")
    for records in args.records:
        medians = {mode: result.get("median", result["seconds"]) for size, mode, result in rows if size == records}
        print(f"{records:>10} " + ";  ".join(_against(mode, medians["spark"] / medians[mode])
                                           for mode in MODES if mode != "spark"))
    disagreeing = [(size, mode) for size, mode, result in rows
                   if "state" in result and result["state"] != _reference_state(rows, size)]
    if disagreeing:
        sys.exit(f"benchmark: these replays left a state other than the reference's: {disagreeing}")
    print("every whole replay left the reference's state")
    print("\nrestart after a crash (checkpoint every 10,000 records)")
    # The default 16 MB extent holds about 140,000 of the load's records: 120,000 more fill most of it.
    for earlier in (0, 120_000):
        replayed, seconds, log_mb = restart_after_crash(args.dir / "restart", earlier)
        print(f"{log_mb:>6.1f} MB in the active extent, {replayed:,} records replayed: strmqm {seconds:.2f} s")


if __name__ == "__main__":
    main()
