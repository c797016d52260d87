"""MQSC batch throughput at scale: commands/s for DEFINE, ALTER, DISPLAY and DELETE.

    python benchmarks/batch.py [--sizes 1000,10000,50000] [--log linear|circular]

For each size N and each report a fresh queue manager (durable logging on: every command's
records are forced to disk before its response, as in a real session) takes N DEFINE QLOCAL,
then N ALTER QLOCAL, N DISPLAY QLOCAL and N DELETE QLOCAL, each verb timed on its own, through
the path a script piped into `mqsh QM` takes (BatchRun). Two reports, side by side: runmqsc's
default, every line echoed, where each command is forced before the next is echoed; and
`mqsh -e QM`, no echo, where one force serves a group of commands that have arrived. Flat figures across sizes mean each command costs the same
however many objects the queue manager holds. Before the DELETEs, the queue manager holding
the N objects is ended (endmqm: it images every queue) and started again (strmqm: it reads every
object file): seconds for each.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from mqsh.shell.batch import BatchRun
from mqsh.shell.session import Session

VERBS = {
    "DEFINE": "DEFINE QLOCAL(BENCH.Q{:06d}) MAXDEPTH(5000) DESCR('batch benchmark')",
    "ALTER": "ALTER QLOCAL(BENCH.Q{:06d}) MAXDEPTH(6000)",
    "DISPLAY": "DISPLAY QLOCAL(BENCH.Q{:06d}) MAXDEPTH",
    "DELETE": "DELETE QLOCAL(BENCH.Q{:06d})",
}


class Discard:
    """The report's destination: written, then dropped (a pipe to /dev/null)."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def measure(size: int, log: str, root: Path, echo: bool) -> dict[str, float]:
    """Commands/s for each verb, and seconds for endmqm and strmqm."""
    session = Session(root / f"data-{size}-{'echo' if echo else 'e'}")
    for command in (f"crtmqm {'-ll' if log == 'linear' else '-lc'} BQ", "strmqm BQ"):
        result = session.execute(command)
        assert result.ok, session.render(result)
    session.current_qmgr = "BQ"
    rates = {}
    for verb, template in VERBS.items():
        if verb == "DELETE":
            for command in ("endmqm BQ", "strmqm BQ"):
                started = time.perf_counter()
                result = session.execute(command)
                assert result.ok, session.render(result)
                rates[command.split()[0]] = time.perf_counter() - started
        lines = [template.format(number) + "\n" for number in range(size)]
        run = BatchRun(session, Discard(), echo=echo)
        started = time.perf_counter()
        code = run.run(lines)
        rates[verb] = size / (time.perf_counter() - started)
        if code != 0 or run.tally.read != size:
            raise SystemExit(f"batch: {verb} failed: exit code {code}, {run.tally.failed} failed")
    session.close()
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,50000")
    parser.add_argument("--log", choices=("linear", "circular"), default="linear")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    print(f"MQSC batch throughput, commands/s ({args.log} log, every response after its records are on disk)")
    print(
        f"{'objects':>8}  {'report':<6}  "
        + "  ".join(f"{verb:>8}" for verb in VERBS)
        + "  endmqm s  strmqm s"
    )
    with tempfile.TemporaryDirectory(prefix="mqsh-batch-") as directory:
        for size in sizes:
            for echo in (True, False):
                rates = measure(size, args.log, Path(directory), echo)
                print(
                    f"{size:>8}  {'echo' if echo else '-e':<6}  "
                    + "  ".join(f"{rates[verb]:>8.0f}" for verb in VERBS)
                    + f"  {rates['endmqm']:>8.2f}  {rates['strmqm']:>8.2f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
