"""What LAB EXPLAIN's ledger costs a restart, and LAB EXPLAIN itself, at a million log records.

    python3 benchmarks/explain.py [--records 1000000] [--messages 20000] [--engines reference local spark]

A queue manager's log is made once: LAB LOAD writes the records, then
--messages persistent messages are put and left on the queue (the ledger's
work grows with the messages a recovery leaves, not with the log), and the
queue manager crashes with its log control file lost, so that its start
replays the whole log. For each engine a copy of it starts in a process of
its own: strmqm's time, the part of it the ledger took (the snapshot of what
the replay left, the ledger itself and its record written), and LAB EXPLAIN's
time are printed. Spark runs on the embedded local[*] master.

Measured on two shared cores, 1 M records, 20,000 messages left: reference strmqm
18.70 s (ledger 56.6 ms, LAB EXPLAIN 49.5 ms); local 2.66 s (45.9 ms, 47.4 ms);
spark, cold, 70.92 s (93.8 ms, 100.8 ms).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from mqsh.shell.session import Session

ONE_START = """
import sys, time
sys.path.insert(0, {repo!r})
from pathlib import Path
from mqsh.recovery import ledger
from mqsh.recovery.engine import ReplayEngine
from mqsh.shell.session import Session

spent = [0.0]
def timed(function):
    def run(*args, **kwargs):
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - started
    return run
for name in ("snapshot", "restart_explanation", "extents_read", "save"):
    setattr(ledger, name, timed(getattr(ledger, name)))
session = Session(Path({data!r}), engine=ReplayEngine({engine!r}))
started = time.perf_counter()
assert session.execute("strmqm QM1").ok
start = time.perf_counter() - started
session.current_qmgr = "QM1"
started = time.perf_counter()
answer = session.render(session.execute("LAB EXPLAIN"))
explain = time.perf_counter() - started
assert "= CURDEPTH(" in answer, answer
print(start, spent[0], explain)
"""


def make_log(data_dir: Path, records: int, messages: int) -> None:
    session = Session(data_dir)
    for command in ("crtmqm -ll QM1", "strmqm QM1"):
        assert session.execute(command).ok, command
    session.current_qmgr = "QM1"
    for command in (
        "DEFINE QLOCAL(Q1) MAXDEPTH(999999999)",
        f"LAB LOAD QUEUE(Q1) RECORDS({records})",
        f"LAB PUT QUEUE(Q1) COUNT({messages}) PERSISTENT",
        "LAB CRASH",
    ):
        assert session.execute(command).ok, command
    session.close()
    (data_dir / "log" / "QM1" / "amqhlctl.lfh").unlink()  # the whole log is replayed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--engines", nargs="+", default=["reference", "local", "spark"])
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    work = args.dir or Path(tempfile.mkdtemp(prefix="mqsh-explain-bench-"))
    made = work / "made"
    if not made.exists():
        started = time.perf_counter()
        make_log(made, args.records, args.messages)
        print(
            f"log of {args.records:,} records and {args.messages:,} messages left made in "
            f"{time.perf_counter() - started:.1f} s"
        )
    for engine in args.engines:
        copy = work / engine
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(made, copy)
        code = ONE_START.format(repo=str(REPO), data=str(copy), engine=engine)
        answer = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
        if answer.returncode:
            print(f"{engine:>9}: failed: {answer.stderr.strip().splitlines()[-1:]}")
            continue
        start, ledger_part, explain = map(float, answer.stdout.split()[-3:])
        print(
            f"{engine:>9}: strmqm {start:6.2f} s, of which the ledger {ledger_part * 1000:6.1f} ms; "
            f"LAB EXPLAIN {explain * 1000:6.1f} ms"
        )
        shutil.rmtree(copy, ignore_errors=True)
    if args.dir is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
