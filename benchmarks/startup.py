"""Start-up time: one piped command, and the interactive prompt, against importing what they need.

    python benchmarks/startup.py [--runs 9]

Two figures, each the median of --runs fresh processes, timed from outside (subprocess):
- piped: `echo "DISPLAY QMGR" | python -m mqsh --data-dir D` until it exits, against
  `python -c "import lark, tabulate"`. Aim: at most 2x.
- prompt: `python -m mqsh --data-dir D` in a pseudo-terminal until its prompt is drawn, against
  `python -c "import prompt_toolkit, lark, tabulate"` in the same kind of terminal until it
  prints. Aim: at most 1.7x.
A run of mqsh and a run of its baseline alternate, so that a machine busy with other work slows
both alike; the processor time the children used (user and system) is shown beside the wall time,
since other work on a shared machine inflates the wall time of short runs unevenly. D holds a running QM1 made beforehand, and a first run of each kind is not counted:
it writes the bytecode caches and mqsh's own cache of the parsed catalogue, as an installed
package has them already.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pexpect

REPO = Path(__file__).resolve().parent.parent
PIPED_AIM = 2.0
PROMPT_AIM = 1.7
PROMPT = "QM1>"  # prompt-toolkit draws "QM1> " as "QM1>" and a cursor move


def environment(home: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("MQSH_", "MQPROMPT")) and key != "PYTHONDONTWRITEBYTECODE"
    }
    env.update(
        PROMPT_TOOLKIT_NO_CPR="1",
        TERM="xterm",
        HOME=str(home),
        XDG_STATE_HOME=str(home / "state"),
        XDG_CACHE_HOME=str(home / "cache"),
    )
    return env


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def piped(command: list[str], stdin: str, env: dict[str, str]) -> tuple[float, float]:
    """(wall, processor) seconds of one run to its end."""
    started, cpu = time.perf_counter(), children_cpu()
    subprocess.run(command, input=stdin, text=True, capture_output=True, cwd=REPO, env=env, check=True)
    return time.perf_counter() - started, children_cpu() - cpu


def in_terminal(command: list[str], ready: str, env: dict[str, str]) -> tuple[float, float]:
    """(wall, processor) seconds until ready is shown; the child is then ended (and idle until then)."""
    started, cpu = time.perf_counter(), children_cpu()
    child = pexpect.spawn(
        command[0],
        command[1:],
        cwd=str(REPO),
        env=env,
        dimensions=(40, 120),
        encoding="utf-8",
        codec_errors="replace",
        timeout=30,
    )
    child.expect_exact(ready)
    elapsed = time.perf_counter() - started
    child.terminate(force=True)
    child.close()
    return elapsed, children_cpu() - cpu


def medians(mqsh_run, baseline_run, runs: int) -> list[float]:
    """Median wall and processor seconds: mqsh's, then the baseline's."""
    mqsh_run(), baseline_run()  # caches written, not counted
    mqsh_times, baseline_times = [], []
    for _ in range(runs):
        mqsh_times.append(mqsh_run())
        baseline_times.append(baseline_run())
    return [
        statistics.median(times[i] for times in series)
        for series in (mqsh_times, baseline_times)
        for i in (0, 1)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="fresh processes timed for each figure")
    args = parser.parse_args()
    python = sys.executable
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        env = environment(root / "home")
        data = root / "data"
        mqsh = [python, "-m", "mqsh", "--data-dir", str(data)]
        for control in (["crtmqm", "QM1"], ["strmqm", "QM1"]):
            subprocess.run(mqsh + control, capture_output=True, cwd=REPO, env=env, check=True)
        rows = [
            (
                "piped DISPLAY QMGR",
                "import lark, tabulate",
                PIPED_AIM,
                medians(
                    lambda: piped(mqsh, "DISPLAY QMGR\n", env),
                    lambda: piped([python, "-c", "import lark, tabulate"], "", env),
                    args.runs,
                ),
            )
        ]
        rows.append(
            (
                "interactive prompt",
                "import prompt_toolkit, lark, tabulate",
                PROMPT_AIM,
                medians(
                    lambda: in_terminal(mqsh, PROMPT, env),
                    lambda: in_terminal(
                        [python, "-c", "import prompt_toolkit, lark, tabulate; print('ready')"], "ready", env
                    ),
                    args.runs,
                ),
            )
        )
    print(f"median of {args.runs} runs each, on {os.cpu_count()} cores; wall seconds (processor seconds)")
    print(f"{'mqsh':<20} {'s':>13}   {'baseline':<38} {'s':>13}   {'ratio':>11}   aim")
    for name, baseline, aim, (wall, cpu, base_wall, base_cpu) in rows:
        ratio, cpu_ratio = wall / base_wall, cpu / base_cpu
        verdict = (
            "met"
            if max(ratio, cpu_ratio) <= aim
            else "met by processor time"
            if cpu_ratio <= aim
            else "NOT met"
        )
        print(
            f"{name:<20} {wall:5.3f} ({cpu:5.3f})   {baseline:<38} {base_wall:5.3f} ({base_cpu:5.3f})   "
            f"{ratio:4.2f} ({cpu_ratio:4.2f})   <= {aim} {verdict}"
        )


if __name__ == "__main__":
    main()
