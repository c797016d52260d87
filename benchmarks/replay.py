"""Full-log replay on each engine - the reference replayer, the in-process columnar replay, Spark - and strmqm.

    python3 benchmarks/replay.py [--records 1000000 10000000] [--dir /tmp/mqsh-bench] [--master local[2]]

For each size a queue manager's log is made once with LAB LOAD (and kept, so
every engine reads the same files); each engine then replays the whole log in
a process of its own, so peak memory is that engine's alone: the process's
VmHWM, and for Spark also the JVM's. Every record counts, as in the forced
full replay of a start that finds no object files: each engine starts from
nothing. The reference replays once. The columnar replay (--engine local)
replays once, then forty times warm. Spark replays once on a new session
(cold), ninety-six times more while its JVM compiles the replay's code
(warming: median shown), and then forty times warm (best and median). The
ratios of the warm medians follow, and a check that every engine left the
reference's state.

Then the product path: strmqm, in a fresh process, of the queue manager with
its log control file lost, so that the whole log is replayed - on each engine.
Last comes a restart after a crash with a normal checkpoint interval, through
strmqm, with the active extent nearly empty and nearly full, on each engine.
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
MODES = ("reference", "local", "spark")  # each engine's replays, in the order they run
sys.path.insert(0, str(REPO))

from mqsh.core.clock import Clock
from mqsh.model.qmgr import QueueManager
from mqsh.recovery.engine import ReplayEngine
from mqsh.recovery.replay import reference as replay
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
    return {
        "seconds": seconds,
        "records": count,
        "depth": len(state["QUEUE/BIG"].messages),
        "state": _digest(state),
        "memory": _peak_mb(),
    }


def worker_spark(data_dir: Path, master: str) -> dict:
    from mqsh.recovery.replay.spark import replay_log
    from mqsh.recovery.spark.session import runner

    qmgr = _qmgr(data_dir)
    spark_runner = runner(master)
    times = []
    # The first replay starts the session. The JVM goes on compiling the replay's code over
    # the next few (warming up, median shown); then the session is warm (best and median).
    for _ in range(1 + WARM_UP + WARM_RUNS):
        start = time.perf_counter()
        replayed = replay_log(spark_runner, {}, qmgr.paths.log_dir, 0, 0, {}, set())
        times.append(time.perf_counter() - start)
    warm = times[1 + WARM_UP :]
    return {
        "cold": times[0],
        "warming": statistics.median(times[1 : 1 + WARM_UP]),
        "seconds": min(warm),
        "median": statistics.median(warm),
        "records": replayed.count,
        "depth": len(replayed.state["QUEUE/BIG"].messages),
        "state": _digest(replayed.state),
        "memory": _peak_mb(),
        "jvm": _jvm_peak_mb(spark_runner.session()),
    }


def worker_local(data_dir: Path) -> dict:
    from mqsh.recovery.replay.columnar import replay_log

    log_dir = QmgrPaths(data_dir, "QM1").log_dir
    times = []
    for _ in range(1 + WARM_RUNS):  # once, then warm, as Spark's warm replays are
        start = time.perf_counter()
        result = replay_log({}, log_dir, 0, 0, {}, set())
        times.append(time.perf_counter() - start)
    return {
        "first": times[0],
        "seconds": min(times[1:]),
        "median": statistics.median(times[1:]),
        "records": result.count,
        "depth": len(result.state["QUEUE/BIG"].messages),
        "state": _digest(result.state),
        "memory": _peak_mb(),
    }


def _digest(state: dict) -> str:
    """What a replay left, as a short fingerprint: engines that agree give the same."""
    documents = {key: state[key].to_document() for key in sorted(state)}
    return hashlib.sha256(json.dumps(documents, sort_keys=True).encode()).hexdigest()[:12]


def worker(mode: str, data_dir: Path, master: str) -> dict:
    if mode == "reference":
        return worker_reference(data_dir)
    if mode == "spark":
        return worker_spark(data_dir, master)
    return worker_local(data_dir)


def measure(mode: str, data_dir: Path, master: str) -> dict:
    done = subprocess.run(
        [sys.executable, __file__, "--worker", mode, "--dir", str(data_dir), "--master", master],
        check=False,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        sys.exit(f"benchmark: the {mode} replay of {data_dir} failed: {last}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def strmqm_seconds(data_dir: Path, engine: str, master: str) -> tuple[float, str]:
    """Wall time of `mqsh strmqm QM1` in a fresh process on engine, and the records it says it replayed."""
    start = time.perf_counter()
    # auto is left to the embedded default: a master named sends every replay to Spark.
    named = ["--spark-master", master] if engine == "spark" else []
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mqsh",
            "--data-dir",
            str(data_dir),
            "--engine",
            engine,
            *named,
            "strmqm",
            "QM1",
        ],
        check=False,
        capture_output=True,
        text=True,
        cwd=data_dir,
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"benchmark: strmqm on {engine} failed: {done.stdout.strip()} {done.stderr.strip()}")
    replayed = next(
        (line.split()[0] for line in done.stdout.splitlines() if "during the log replay" in line), "0"
    )
    return seconds, replayed


def strmqm_whole_log(made: Path, scratch: Path, engine: str, master: str) -> tuple[float, str]:
    """strmqm of a copy of made's queue manager with its log control file lost: the whole log replays."""
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(made, scratch)
    (scratch / "log" / "QM1" / "amqhlctl.lfh").unlink()
    try:
        return strmqm_seconds(scratch, engine, master)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def crashed_with_checkpoints(data_dir: Path, earlier: int) -> None:
    """A queue manager crashed with a normal checkpoint interval behind it.

    earlier records come before the last checkpoint, in the same extent: restart reads
    the whole active extent to find where the log ends and where its restart point is.
    """
    shutil.rmtree(
        data_dir, ignore_errors=True
    )  # a queue manager of its own, with no history from earlier runs
    session = _running_qmgr(data_dir)
    session.execute("DEFINE QLOCAL(WORK)")
    if earlier:
        session.execute(f"LAB LOAD QUEUE(WORK) RECORDS({earlier})")  # a checkpoint follows
    session.execute("LAB LOAD QUEUE(WORK) RECORDS(9990)")  # the crash comes just before a checkpoint is due
    session.execute("LAB CRASH")
    session.close()


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
    print(
        f"\n{'records':>10} {'engine':<25} {'seconds':>8} {'records/s':>11} {'peak MB':>9} {'JVM MB':>8} {'depth':>6}"
        f" {'state':>12}"
    )
    for records, mode, result in rows:
        if mode == "spark":
            runs = [("spark cold", result["cold"]), ("spark warming", result["warming"])]
        elif mode == "reference":
            runs = []
        else:
            runs = [(f"{mode}, once", result["first"])]
        runs += (
            [(f"{mode} warm", result["seconds"]), ("  (median)", result["median"])]
            if "median" in result
            else [(mode, result["seconds"])]
        )
        for name, seconds in runs:
            print(
                f"{records:>10} {name:<25} {seconds:>8.2f} {result['records'] / seconds:>11,.0f} "
                f"{result['memory']:>9.0f} {result.get('jvm', 0):>8.0f} {result['depth']:>6}"
                f" {result['state']:>12}"
            )
    print("\nwarm Spark's median against the other engines' (the reference's one run)")
    for records in args.records:
        medians = {
            mode: result.get("median", result["seconds"]) for size, mode, result in rows if size == records
        }
        print(
            f"{records:>10} "
            + ";  ".join(
                _against(mode, medians["spark"] / medians[mode]) for mode in MODES if mode != "spark"
            )
        )
    disagreeing = [
        (size, mode) for size, mode, result in rows if result["state"] != _reference_state(rows, size)
    ]
    if disagreeing:
        sys.exit(f"benchmark: these replays left a state other than the reference's: {disagreeing}")
    print("every whole replay left the reference's state")
    engines = ("reference", "local", "spark", "auto")
    print("\nstrmqm in a fresh process, log control file lost: the whole log replays")
    for records in args.records:
        for engine in engines:
            seconds, replayed = strmqm_whole_log(
                args.dir / str(records), args.dir / "scratch", engine, args.master
            )
            print(
                f"{records:>10} records  --engine {engine:<9} {replayed:>9} replayed  strmqm {seconds:6.2f} s",
                flush=True,
            )
    print("\nstrmqm in a fresh process after a crash (checkpoint every 10,000 records)")
    # The default 16 MB extent holds about 140,000 of the load's records: 120,000 more fill most of it.
    for earlier in (0, 120_000):
        data_dir = args.dir / "restart"
        crashed_with_checkpoints(data_dir, earlier)
        log_mb = sum(path.stat().st_size for path in (data_dir / "log").rglob("*.LOG")) / 2**20
        for engine in engines:
            saved = args.dir / "restart-saved"
            shutil.rmtree(saved, ignore_errors=True)
            shutil.copytree(data_dir, saved)
            seconds, replayed = strmqm_seconds(saved, engine, args.master)
            print(
                f"{log_mb:>6.1f} MB in the active extent  --engine {engine:<9} {replayed:>7} replayed  "
                f"strmqm {seconds:5.2f} s",
                flush=True,
            )
            shutil.rmtree(saved, ignore_errors=True)


if __name__ == "__main__":
    main()
