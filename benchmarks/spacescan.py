"""The owner's space scan on each engine - row by row, columnar in process, Spark - side by side.

    python3 benchmarks/spacescan.py [--entries 100000 1000000] [--dir /tmp/mqsh-scanbench] [--master local[2]]

For each size a structure file is made once (and kept) holding that many
entries: three in four offloaded to QM1's data set (one to four blocks each,
laid one after the other, with a block left free now and then where a get
took a message), the others held in the entry or offloaded by QM2. Each
engine then scans QM1's entries, as the owner's open after an abnormal end
does: the reference once, the columnar engine once and then warm, Spark once
(cold, on a new session) and then warm. The columnar and Spark times include
reading the entries from the structure into Arrow, which is also shown on
its own. Every engine must give the reference's result.
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

from mqsh.model.qsg.list_structure import Structure
from mqsh.recovery.spacemap import columnar as space_columnar
from mqsh.recovery.spacemap import reference as space_reference
from mqsh.recovery.spacemap import spark as space_spark
from mqsh.recovery.spark.session import runner

OWNER = "QM1"
WARM_RUNS = 5


def make_structure(path: Path, entries: int) -> int:
    """The structure (kept: a second run reuses it); the blocks QM1's data set has."""
    marker = path.with_suffix(".blocks")
    if marker.exists():
        return int(marker.read_text())
    pick = random.Random(entries)
    path.unlink(missing_ok=True)
    structure = Structure(path, "QSGA", "APP1", allocate_at="2026-05-01 10:00:00")
    block = 0
    rows = []
    for number in range(entries):
        owner, first, count = None, None, None
        roll = pick.random()
        if roll < 0.75:
            owner, first, count = OWNER, block, pick.randint(1, 4)
            block += count + (1 if pick.random() < 0.1 else 0)
        elif roll < 0.9:
            owner, first, count = "QM2", pick.randrange(entries), 1
        rows.append(
            (
                f"{1_770_000_000_000_000 + number * 3:016X}",
                f"SQ{number % 4}",
                number % 10,
                300_000,
                "2026-05-01T10:00:00",
                1,
                owner,
                first,
                count,
                "C",
                None,
                None,
            )
        )
    with structure.transaction() as db:
        db.executemany("INSERT INTO entry VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    structure.close()
    marker.write_text(str(block))
    return block


def timed(call) -> tuple[float, object]:
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/mqsh-scanbench"))
    parser.add_argument("--master", default="local[2]")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    spark_runner = runner(args.master)
    rows = []
    for entries in args.entries:
        path = args.dir / f"APP1-{entries}.cf"
        seconds, total = timed(lambda: make_structure(path, entries))
        print(f"{entries:>9} entries: structure made in {seconds:.1f} s", flush=True)
        with Structure(path, "QSGA", "APP1") as structure:
            db = structure.db
            reference_s, reference = timed(lambda: space_reference.scan(db, OWNER, total))
            read = [timed(lambda: space_columnar.read_entries(db, OWNER)) for _ in range(WARM_RUNS)]
            table = read[0][1]
            local = [
                timed(lambda: space_columnar.scan(space_columnar.read_entries(db, OWNER), total))
                for _ in range(WARM_RUNS + 1)
            ]
            spark = [
                timed(lambda: space_spark.scan(spark_runner, space_columnar.read_entries(db, OWNER), total))
                for _ in range(WARM_RUNS + 1)
            ]
        for name, runs in (("columnar", local), ("spark", spark)):
            if any(result != reference for _, result in runs):
                sys.exit(f"benchmark: the {name} scan disagrees with the reference at {entries} entries")
        rows.append(
            (
                entries,
                table.num_rows,
                len(reference.runs),
                reference_s,
                statistics.median(seconds for seconds, _ in read),
                local[0][0],
                statistics.median(seconds for seconds, _ in local[1:]),
                spark[0][0],
                statistics.median(seconds for seconds, _ in spark[1:]),
                min(seconds for seconds, _ in spark[1:]),
            )
        )
    print(
        f"\n{'entries':>9} {'QM1s':>8} {'runs':>7} {'reference':>10} {'read':>7} {'columnar':>9} "
        f"{'col warm':>9} {'spark 1st':>10} {'spark warm':>11} {'spark best':>11}   (seconds; warm: median of "
        f"{WARM_RUNS})"
    )
    for entries, owned, runs, *times in rows:
        print(
            f"{entries:>9} {owned:>8} {runs:>7} "
            + " ".join(f"{value:>{width}.3f}" for value, width in zip(times, (10, 7, 9, 9, 10, 11, 11)))
        )
    print("every engine gave the reference's result")


if __name__ == "__main__":
    main()
