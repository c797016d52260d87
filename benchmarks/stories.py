"""Random stories through the real shell, checked against the oracle's model, by the thousand.

    python3 benchmarks/stories.py [--family NAME ...] [--stories 2000] [--seed 0] [--engine local]
                                  [--keep DIR]

For each family (all unless named) it tells --stories stories from seeds --seed, --seed+1, ...,
runs each through mqsh (reading the story as a script) on --engine, and prints the stories, the
commands they ran, the time and the rate, and every disagreement, shrunk, with the script that
replays it (kept in --keep, default the system's temporary folder). Exit 1 when any story disagrees.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.stories.families import FAMILIES
from tests.stories.oracle import scratch_parent, tell


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--family", action="append", choices=sorted(FAMILIES))
    parser.add_argument("--stories", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engine", default="local", choices=["local", "reference", "spark", "auto"])
    parser.add_argument("--keep", type=Path, default=Path(tempfile.gettempdir()))
    args = parser.parse_args()
    failed = False
    print(
        f"{'family':<18} {'engine':<9} {'stories':>8} {'commands':>9} {'seconds':>8} {'stories/s':>9} "
        f"{'disagree':>8}"
    )
    for name in args.family or sorted(FAMILIES):
        family = FAMILIES[name]()
        commands, disagreements, started = 0, [], time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="mqsh-stories-", dir=scratch_parent()) as work:
            for seed in range(args.seed, args.seed + args.stories):
                commands += len(family.script(family.story(random.Random(seed))))
                found = tell(family, seed, args.engine, Path(work), args.keep)
                if found is not None:
                    disagreements.append(found)
        seconds = time.perf_counter() - started
        print(
            f"{name:<18} {args.engine:<9} {args.stories:>8} {commands:>9} {seconds:>8.1f} "
            f"{args.stories / seconds:>9.1f} {len(disagreements):>8}",
            flush=True,
        )
        for found in disagreements:
            print(f"\n{found}\n")
        failed = failed or bool(disagreements)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
