"""mqsh lab: the teaching labs in order, and each run against its expected report.

    mqsh lab                 the labs: number, subject, title, commands
    mqsh lab run N [N ...]   run labs in a fresh scratch data directory each; say whether each report
                             matched the expected one, showing the first difference when not
    mqsh lab run             every lab, one verdict line each

A lab is examples/NN-name.mqsc with its expected report NN-name.out beside it (a wheel carries both,
as mqsh/labs). A lab shows failures on purpose (a damaged queue's 2101, AMQ8149), so its own exit code
is runmqsc's 10; whether it matched is what `mqsh lab run` answers, 0 or 1.
"""

from __future__ import annotations

import difflib
import re
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

# Runs a lab's script in a data directory the way `mqsh -f script --data-dir DIR` does, and returns its
# report; the command line hands it in, as the shell that runs scripts sits above the labs.
Reporter = Callable[[Path, Path], str]

LABS = Path(__file__).resolve().parents[1] / "labs"  # examples/, linked into the package
TITLE = re.compile(r"^\* Lab (\d+) - (.*)$")
# The decade of a lab's number is its subject: the course goes from one queue manager to many.
SUBJECTS = {
    0: "first steps",
    1: "media recovery and restart",
    2: "journal, checkpoints and the log",
    3: "queue-sharing groups",
    4: "clusters and disaster recovery",
}
# Labs written after their subject's decade was full: their number says only where they come in the list.
SUBJECT_DECADE = {"45": 3, "46": 3, "47": 3}
USAGE = "usage: mqsh lab [run [NUMBER ...]]"
MATCHED, DIFFERED, BAD_USE = 0, 1, 36  # 36: a control command's bad arguments


@dataclass(frozen=True)
class Lab:
    number: str
    title: str
    script: Path

    @property
    def subject(self) -> str:
        return SUBJECTS.get(SUBJECT_DECADE.get(self.number, int(self.number) // 10), "more")

    @property
    def expected(self) -> Path:
        return self.script.with_suffix(".out")

    def commands(self) -> int:
        return sum(
            1
            for line in self.script.read_text().splitlines()
            if line.strip() and not line.lstrip().startswith("*") and not line.rstrip().endswith(("+", "-"))
        )


def _sentence(start: str, comments: list[str]) -> str:
    """A title that runs on over the next comment lines, up to its full stop."""
    words = [start]
    for line in comments:
        if not line.startswith("* ") or words[-1].endswith(".") or len(words) > 3:
            break
        words.append(line[2:].strip())
    return " ".join(words).rstrip(".")


def labs(folder: Path = LABS) -> list[Lab]:
    found = []
    for script in sorted(folder.glob("*.mqsc")):
        lines = script.read_text().splitlines()
        titled = TITLE.match(lines[0]) if lines else None
        if titled and script.with_suffix(".out").exists():
            found.append(Lab(titled[1], _sentence(titled[2], lines[1:]), script))
    return found


def listing(course: list[Lab], out: TextIO) -> int:
    out.write(f"{'lab':<4} {'subject':<32} {'commands':>8}  title\n")
    for lab in course:
        out.write(f"{lab.number:<4} {lab.subject:<32} {lab.commands():>8}  {lab.title}\n")
    out.write(
        f"\n{len(course)} labs. `mqsh lab run N` runs one in a scratch data directory and says whether its "
        "report matched.\n"
    )
    return MATCHED


def first_difference(expected: str, got: str, context: int = 3) -> str:
    diff = list(
        difflib.unified_diff(
            expected.splitlines(), got.splitlines(), "expected", "this run", n=context, lineterm=""
        )
    )
    hunk_ends = [i for i, line in enumerate(diff) if line.startswith("@@")][1:2]
    return "\n".join(diff[: hunk_ends[0]] if hunk_ends else diff)


def report_of(lab: Lab, reporter: Reporter) -> str:
    """The lab's report from a fresh data directory, that directory's path written as the expected
    reports write it."""
    with tempfile.TemporaryDirectory(prefix="mqsh-lab-") as scratch:
        data_dir = Path(scratch) / "data"
        return reporter(lab.script, data_dir).replace(str(data_dir), "<data-dir>")


def run(course: list[Lab], numbers: list[str], reporter: Reporter, out: TextIO) -> int:
    by_number = {lab.number: lab for lab in course}
    unknown = [number for number in numbers if number.zfill(2) not in by_number]
    if unknown:
        out.write(f"mqsh: no lab {', '.join(unknown)}; `mqsh lab` lists them.\n")
        return BAD_USE
    chosen = [by_number[number.zfill(2)] for number in numbers] if numbers else course
    differed = 0
    for lab in chosen:
        got = report_of(lab, reporter)
        matched = got == lab.expected.read_text()
        differed += not matched
        if len(chosen) == 1:
            out.write(got)
        verdict = "matched its expected report" if matched else "differs from its expected report"
        out.write(f"Lab {lab.number} ({lab.title}) {verdict}.\n")
        if not matched:
            out.write(first_difference(lab.expected.read_text(), got) + "\n")
    if len(chosen) > 1:
        out.write(f"{len(chosen) - differed} of {len(chosen)} labs matched.\n")
    return DIFFERED if differed else MATCHED


def main(argv: list[str], reporter: Reporter, out: TextIO = sys.stdout) -> int:
    course = labs()
    if not course:
        out.write(f"mqsh: no labs found in {LABS}.\n")
        return BAD_USE
    if not argv:
        return listing(course, out)
    if argv[0].lower() == "run" and all(word.isdigit() for word in argv[1:]):
        return run(course, argv[1:], reporter, out)
    out.write(USAGE + "\n")
    return BAD_USE
