"""RECOVER CFSTRUCT's replay on each engine - Spark (cold and warm), columnar in process, the reference.

    python3 benchmarks/cfrecover.py [--records 1000000 10000000] [--dir /tmp/mqsh-cfbench] [--master local[2]]

For each size, three members' logs are written once (and kept): a backup of
the structure by QM1, then that many shared-message changes after it, spread
over the three members in LRSN order - puts (a fifth offloaded to a data set,
with their SBLK records), gets, and units of work that commit or back out,
some left open - among the members' local records. The logs are written in
bulk in the log's exact format, in 16 MB extents, and the sealed extents get
their columnar copies as the queue manager's seal would make them. Each
engine then recovers the structure: the reference once (skipped above
REFERENCE_UP_TO records, where it takes minutes), the columnar engine once
and then warm, Spark once on a new session (cold) and then warm. Every
engine must give the same result. Each size ends with whether warm Spark
met the aim (AIM_RATE records a second, within AIM_RATIO times the columnar
engine's warm time).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from mqsh.recovery.cfstruct import columnar as cf_columnar
from mqsh.recovery.cfstruct import reference as cf_reference
from mqsh.recovery.cfstruct import spark as cf_spark
from mqsh.recovery.cfstruct.outcome import Backup
from mqsh.recovery.spark.session import runner
from mqsh.store import columnar
from mqsh.store import log as logstore

MEMBERS = ("QM1", "QM2", "QM3")
CF = "APP1"
EXTENT_BYTES = 4096 * 4096  # LogFilePages 4096: 16 MB
BACKED_UP = 20_000  # entries in the backup
REFERENCE_UP_TO = 2_000_000
WARM_RUNS = 5
AIM_RATE, AIM_RATIO = (
    1_000_000,
    3.0,
)  # the aim: warm Spark at a million records a second, within 3x warm local


class MemberLog:
    """One member's log written in bulk: lines as LogWriter writes them, extents cut at EXTENT_BYTES."""

    def __init__(self, directory: Path):
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self.lsn, self.extent, self.lines, self.size = 0, 0, [], 0

    def append(self, record: dict) -> int:
        lsn = self.lsn
        body = json.dumps({"lsn": lsn, **record}, separators=(",", ":")).encode()
        line = b"%08x " % zlib.crc32(body) + body + b"\n"
        if self.size >= EXTENT_BYTES:
            self.seal()
        self.lines.append(line)
        self.size += len(line)
        self.lsn += 1
        return lsn

    def _write(self) -> Path:
        path = self.directory / logstore.extent_name(self.extent)
        path.write_bytes(b"".join(self.lines))
        return path

    def seal(self) -> None:
        columnar.write_copy(self._write())
        self.extent, self.lines, self.size = self.extent + 1, [], 0

    def close(self) -> None:
        self._write()  # the active extent: no copy, as in a running queue manager


def make_logs(root: Path, changes: int) -> Backup:
    """The three members' logs; the backup's location (kept beside them, so a second run reuses them)."""
    marker = root / "backup.json"
    if marker.exists():
        return Backup(**json.loads(marker.read_text()))
    pick = random.Random(changes)
    logs = {member: MemberLog(root / member / "active") for member in MEMBERS}
    lrsn = 1_770_000_000_000_000
    for member, log in logs.items():  # work from before the backup, which the recovery passes over
        for n in range(2000):
            lrsn += 1
            log.append(
                {"t": "PUT", "q": "LOCAL", "m": f"{member}{n}", "p": 0, "s": 100, "tm": "t", "u": None}
            )
            log.append(
                {
                    "t": "SPUT",
                    "cf": CF,
                    "sq": "OLD",
                    "e": f"{lrsn:016X}",
                    "p": 0,
                    "s": 100,
                    "tm": "t",
                    "u": None,
                    "o": None,
                    "b": None,
                    "n": None,
                    "r": lrsn,
                }
            )
    lrsn += 1
    backing = logs["QM1"]
    start = backing.append({"t": "SBKS", "cf": CF, "r": lrsn})
    backup_lrsn = lrsn
    available = []
    for n in range(BACKED_UP):
        entry = f"{lrsn - BACKED_UP + n:016X}"
        backing.append(
            {
                "t": "SBKP",
                "cf": CF,
                "sq": "SQ1",
                "e": entry,
                "p": 4,
                "s": 512,
                "tm": "2026-05-01T09:00:00",
                "o": None,
                "b": None,
                "n": None,
            }
        )
        available.append(entry)
    lrsn += 1
    end = backing.append({"t": "SBKE", "cf": CF, "r": lrsn, "c": BACKED_UP})
    units: dict[str, list] = {member: [] for member in MEMBERS}  # open units: [uow, operations]
    written, block = 0, 0
    while written < changes:
        member = MEMBERS[pick.randrange(3)]
        log = logs[member]
        lrsn += 1
        roll = pick.random()
        open_units = units[member]
        if open_units and (roll < 0.12 or len(open_units) > 8):
            uow, _count = open_units.pop(pick.randrange(len(open_units)))
            log.append(
                {"t": "CMT" if pick.random() < 0.9 else "BCK", "u": uow, "qs": [], "cfs": [CF], "r": lrsn}
            )
            written += 1
            continue
        uow = None
        if pick.random() < 0.6:
            if not open_units or pick.random() < 0.3:
                open_units.append([f"{log.lsn}.1", 0])
            uow = open_units[-1][0]
        if roll < 0.55 or not available:
            entry = f"{lrsn:016X}"
            owner, first, count = None, None, None
            if pick.random() < 0.2:
                owner, first, count = member, block, 2
                for number in range(count):
                    log.append(
                        {
                            "t": "SBLK",
                            "cf": CF,
                            "e": entry,
                            "o": owner,
                            "b": block + number,
                            "n": count,
                            "r": lrsn,
                        }
                    )
                    lrsn += 1
                    written += 1
                block += count
            log.append(
                {
                    "t": "SPUT",
                    "cf": CF,
                    "sq": f"SQ{pick.randrange(4)}",
                    "e": entry,
                    "p": pick.randrange(10),
                    "s": pick.randrange(100, 4000),
                    "tm": "2026-05-01T10:00:00",
                    "u": uow,
                    "o": owner,
                    "b": first,
                    "n": count,
                    "r": lrsn,
                }
            )
            if uow is None:
                available.append(entry)
        else:
            entry = available.pop(pick.randrange(len(available)))  # may be got again: the engines agree on it
            log.append({"t": "SGET", "cf": CF, "e": entry, "u": uow, "r": lrsn})
        written += 1
        if pick.random() < 0.05:
            log.append({"t": "PUT", "q": "LOCAL", "m": f"L{lrsn}", "p": 0, "s": 100, "tm": "t", "u": None})
    for log in logs.values():
        log.close()
    backup = Backup("QM1", start, end, backup_lrsn)
    marker.write_text(json.dumps(backup.__dict__))
    return backup


def timed(call) -> tuple[float, object]:
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def fingerprint(result) -> tuple:
    return (
        result.entries.num_rows,
        hash(tuple(result.entries["e"].to_pylist())),
        result.lrsn,
        result.applied,
        result.restored,
        tuple(sorted(result.blocks.items())),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/mqsh-cfbench"))
    parser.add_argument("--master", default="local[2]")
    args = parser.parse_args()
    spark_runner = runner(args.master)
    print(f"{'changes':>10} {'engine':<22} {'seconds':>8} {'records/s':>11} {'entries':>8}")
    for changes in args.records:
        root = args.dir / str(changes)
        seconds, backup = timed(lambda: make_logs(root, changes))
        print(
            f"{changes:>10} logs written in {seconds:.1f} s "
            f"({sum(path.stat().st_size for path in root.rglob('*.LOG')) / 2**20:.0f} MB of extents)",
            flush=True,
        )
        members = {member: root / member / "active" for member in MEMBERS}
        results = {}

        def show(name: str, seconds: float, result) -> None:
            count = result.applied + result.restored
            print(
                f"{changes:>10} {name:<22} {seconds:>8.2f} {count / seconds:>11,.0f} {result.entries.num_rows:>8}",
                flush=True,
            )

        if changes <= REFERENCE_UP_TO:
            seconds, results["reference"] = timed(lambda: cf_reference.recover(CF, members, backup))
            show("reference", seconds, results["reference"])
        else:
            print(
                f"{changes:>10} {'reference':<22} skipped: more than {REFERENCE_UP_TO:,} records takes minutes"
            )
        seconds, results["local"] = timed(lambda: cf_columnar.recover(CF, members, backup))
        show("local, once", seconds, results["local"])
        local_warm = [timed(lambda: cf_columnar.recover(CF, members, backup))[0] for _ in range(WARM_RUNS)]
        show("local warm (median)", statistics.median(local_warm), results["local"])
        seconds, results["spark"] = timed(lambda: cf_spark.recover(spark_runner, CF, members, backup))
        show("spark cold" if changes == args.records[0] else "spark, once", seconds, results["spark"])
        spark_warm = [
            timed(lambda: cf_spark.recover(spark_runner, CF, members, backup))[0] for _ in range(WARM_RUNS)
        ]
        show("spark warm (median)", statistics.median(spark_warm), results["spark"])
        show("spark warm (best)", min(spark_warm), results["spark"])
        ratio = statistics.median(spark_warm) / statistics.median(local_warm)
        print(f"{changes:>10} warm Spark / warm local: {ratio:.2f}x", flush=True)
        rate = (results["spark"].applied + results["spark"].restored) / statistics.median(spark_warm)
        print(
            f"{changes:>10} aim: warm Spark >= {AIM_RATE:,} records/s {'met' if rate >= AIM_RATE else 'missed'}, "
            f"<= {AIM_RATIO:g}x warm local {'met' if ratio <= AIM_RATIO else 'missed'}",
            flush=True,
        )
        prints = {name: fingerprint(result) for name, result in results.items()}
        if len(set(prints.values())) != 1:
            sys.exit(f"benchmark: the engines disagree at {changes}: {prints}")
        print(f"{changes:>10} every engine gave the same result ({', '.join(prints)})", flush=True)


if __name__ == "__main__":
    main()
