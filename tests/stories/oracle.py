"""The story oracle: random stories run through the real shell, each answer checked against an
independent model of what the story must leave.

A family (queue-sharing groups, clusters, one queue manager's media recovery) knows two things:
- how to tell a random story: a list of actions, drawn from a seeded random.Random;
- what the story must do: its model runs the actions in order and says, for each, the commands to
  type and what each command's answer must show (an Expect).

The oracle writes the commands as one script, runs it as a user does - mqsh reading the script, with
its report captured - splits the report by command, and checks every answer. A disagreement is
shrunk: actions are dropped while the story still disagrees (the model re-tells what the shorter
story must do), and the short script is written to a file that replays it with
`mqsh --data-dir DIR < story.mqsc`.

The model is written apart from mqsh and imports nothing of it: it is the second opinion.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import shutil
import tempfile
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

Check = Callable[[str], "str | None"]  # an answer -> None when it agrees, else what disagrees


@dataclass(frozen=True)
class Expect:
    """One command of the script and what its answer must show (no check: any answer but an internal error)."""

    command: str
    check: Check | None = None


class Family(Protocol):
    name: str

    def story(self, rng: random.Random) -> list[Hashable]:
        """A random story: the actions, in order."""

    def script(self, actions: Sequence[Hashable]) -> list[Expect]:
        """What the model says the actions must do: the commands, each with its check."""


@dataclass
class Disagreement:
    family: str
    seed: int
    engine: str
    actions: list[Hashable]
    command_number: int  # 1-based, as the report numbers commands
    command: str
    answer: str
    why: str
    script_path: Path | None = None

    def __str__(self) -> str:
        replay = (
            f"\n  replay: mqsh --data-dir $(mktemp -d) --engine {self.engine} < {self.script_path}"
            if self.script_path
            else ""
        )
        answer = "\n    ".join(self.answer.splitlines()) or "(nothing)"
        return (
            f"{self.family} story, seed {self.seed}, engine {self.engine}: command {self.command_number}, "
            f"{self.command}\n  {self.why}\n  answer:\n    {answer}{replay}"
        )


# A story writes and syncs its queue managers' files many times: in memory, where there is such a
# file system, a story costs its commands and not the disk's flushes.
MEMORY = Path("/dev/shm")


def scratch_parent() -> str | None:
    """The folder for stories' data directories: memory where it can be written, else the system's
    temporary folder (None)."""
    return str(MEMORY) if MEMORY.is_dir() and os.access(MEMORY, os.W_OK) else None


ECHO = re.compile(r"^ {0,5}(\d+) : (.*)$")
SUMMARY = re.compile(
    r"^(\d+ MQSC commands? read\.|No commands have a syntax error\.|"
    r"(One|\d+) commands? ha(s|ve) a syntax error\.|All valid MQSC commands were processed\.|"
    r"(One|\d+) valid MQSC commands? could not be processed\.)$"
)
BROKEN = ("Traceback (most recent call last)", "internal error")


@dataclass
class Run:
    """What the shell printed for a script: each command's answer, and what went to stderr."""

    answers: list[str]
    stderr: str
    exit_code: int
    report: str = field(repr=False, default="")


def run_script(commands: Sequence[str], data_dir: Path, engine: str = "local") -> Run:
    """The commands as a script read by mqsh (the command line's own entry, in this process, so that
    a story costs what its commands cost and not an interpreter's start)."""
    from mqsh.cli import main  # the shell under test; the model never imports mqsh

    script = data_dir.parent / "story.mqsc"
    script.write_text("".join(f"{command}\n" for command in commands))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--data-dir", str(data_dir), "--engine", engine, "-f", str(script)])
    report = out.getvalue()
    return Run(split_answers(report, len(commands)), err.getvalue(), code, report)


def split_answers(report: str, commands: int) -> list[str]:
    """Each numbered command's answer: the lines after its echo, up to the next echo (the summary
    lines at the end are not the last command's)."""
    answers: list[list[str]] = []
    for line in report.splitlines():
        echoed = ECHO.match(line)
        if echoed and int(echoed[1]) == len(answers) + 1:
            answers.append([])
        elif answers:
            answers[-1].append(line)
    if answers:
        while answers[-1] and SUMMARY.match(answers[-1][-1]):
            answers[-1].pop()
    answers += [[] for _ in range(commands - len(answers))]
    return ["\n".join(lines) for lines in answers]


def first_disagreement(expects: Sequence[Expect], run: Run) -> tuple[int, str] | None:
    """(index, why) of the first answer the model does not accept, or of a broken run."""
    for broken in BROKEN:
        if broken in run.stderr or broken in run.report:
            at = next((i for i, answer in enumerate(run.answers) if broken in answer), len(expects) - 1)
            return at, f"the shell broke: {run.stderr.strip() or broken}"
    for index, (expect, answer) in enumerate(zip(expects, run.answers)):
        if any(broken in answer for broken in BROKEN):
            return index, "the shell broke"
        if expect.check is not None:
            why = expect.check(answer)
            if why is not None:
                return index, why
    return None


def check_story(
    family: Family, actions: Sequence[Hashable], engine: str, workdir: Path
) -> tuple[int, str, str] | None:
    """Run one story; (index, why, answer) of its first disagreement, or None."""
    expects = family.script(actions)
    data_dir = Path(tempfile.mkdtemp(dir=workdir)) / "data"
    try:
        run = run_script([expect.command for expect in expects], data_dir, engine)
    finally:
        shutil.rmtree(data_dir.parent, ignore_errors=True)
    found = first_disagreement(expects, run)
    if found is None:
        return None
    index, why = found
    return index, why, run.answers[index] if index < len(run.answers) else ""


def shrink(
    family: Family,
    actions: list[Hashable],
    engine: str,
    workdir: Path,
    found: tuple[int, str, str],
    budget: int = 150,
) -> list[Hashable]:
    """A shorter story that still disagrees the same way: drop runs of actions, halving their
    length, while the story without them disagrees for the same reason at the same kind of command
    (at most budget runs of the shell). A shorter story that disagrees otherwise is another
    finding, not this one: shrinking to it would hide what the long story showed."""
    wanted = _signature(family, actions, found)
    chunk = max(1, len(actions) // 2)
    while chunk >= 1 and budget > 0:
        start, progressed = 0, False
        while start < len(actions) and budget > 0:
            candidate = actions[:start] + actions[start + chunk :]
            budget -= 1
            found = check_story(family, candidate, engine, workdir) if candidate else None
            if found is not None and _signature(family, candidate, found) == wanted:
                actions, progressed = candidate, True
            else:
                start += chunk
        if not progressed:
            chunk //= 2
    return actions


def _signature(
    family: Family, actions: Sequence[Hashable], found: tuple[int, str, str] | None
) -> tuple[str, str] | None:
    """What makes two disagreements the same: the reason, and the command's verb and object."""
    if found is None:
        return None
    index, why, _ = found
    expects = family.script(actions)
    command = expects[index].command.split() if index < len(expects) else []
    return why, " ".join(command[:2])


def tell(
    family: Family, seed: int, engine: str = "local", workdir: Path | None = None, keep_to: Path | None = None
) -> Disagreement | None:
    """Tell the story a random seed draws and check it; a disagreement comes back shrunk, its script written to
    keep_to (or the system's temporary folder)."""
    own = workdir is None
    workdir = workdir or Path(tempfile.mkdtemp(prefix="mqsh-story-"))
    try:
        actions = family.story(random.Random(seed))
        first = check_story(family, actions, engine, workdir)
        if first is None:
            return None
        actions = shrink(family, actions, engine, workdir, first)
        found = check_story(family, actions, engine, workdir)
        if found is None:  # it disagreed once and not again: keep the whole story
            actions = family.story(random.Random(seed))
            found = check_story(family, actions, engine, workdir) or (
                0,
                "disagreed once, not when run again",
                "",
            )
        index, why, answer = found
        expects = family.script(actions)
        folder = keep_to or Path(tempfile.gettempdir())
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"story-{family.name}-{seed}-{engine}.mqsc"
        header = [
            f"* {family.name} story, seed {seed}, engine {engine}: command {index + 1} disagrees: {why}"
        ]
        path.write_text("\n".join(header + [expect.command for expect in expects]) + "\n")
        return Disagreement(
            family.name, seed, engine, actions, index + 1, expects[index].command, answer, why, path
        )
    finally:
        if own:
            shutil.rmtree(workdir, ignore_errors=True)


# ------------------------------------------------------------ checks the families share
def says(*texts: str) -> Check:
    """The answer holds every text."""

    def check(answer: str) -> str | None:
        missing = [text for text in texts if text not in answer]
        return f"expected {missing!r} in the answer" if missing else None

    return check


def says_none_of(*texts: str) -> Check:
    def check(answer: str) -> str | None:
        present = [text for text in texts if text in answer]
        return f"did not expect {present!r} in the answer" if present else None

    return check


def all_of(*checks: Check) -> Check:
    """The answer passes every check; the first that fails says why."""

    def check(answer: str) -> str | None:
        return next((why for why in (c(answer) for c in checks) if why is not None), None)

    return check


CURDEPTH = re.compile(r"CURDEPTH\((\d+)\)")


def depth_is(depth: int) -> Check:
    """A DISPLAY of one queue's CURDEPTH shows depth."""

    def check(answer: str) -> str | None:
        found = CURDEPTH.findall(answer)
        if len(found) != 1:
            return f"expected one CURDEPTH({depth}), found {found or 'none'}"
        return None if int(found[0]) == depth else f"expected CURDEPTH({depth}), got CURDEPTH({found[0]})"

    return check


BROWSED = re.compile(r"^\s+\d+  MSGID\(\w+\)  PERSISTENT\((YES|NO)\)  SIZE\((\d+)\)  PRIORITY\((\d+)\)", re.M)


def browsed(answer: str) -> list[tuple[int, bool]] | None:
    """LAB BROWSE's messages as (size, persistent), in order; None when the browse failed."""
    if answer.startswith("No messages on queue"):
        return []
    if "message(s) on queue" not in answer:
        return None
    return [(int(size), persistence == "YES") for persistence, size, _priority in BROWSED.findall(answer)]


def holds(messages: Sequence[tuple[int, bool]]) -> Check:
    """LAB BROWSE shows exactly these messages, (size, persistent) each, in this order."""

    def check(answer: str) -> str | None:
        found = browsed(answer)
        if found is None:
            return f"the browse failed; expected {len(messages)} message(s)"
        if found == list(messages):
            return None
        lost = [m for m in messages if m not in found]
        invented = [m for m in found if m not in messages]
        return (
            f"expected {len(messages)} message(s), found {len(found)}; missing (size, persistent) {lost}, "
            f"unexpected {invented}"
            if lost or invented
            else f"the right messages in the wrong order: {found}"
        )

    return check


def holds_with(
    messages: Sequence[tuple[int, bool]],
    settled: Callable[[], Sequence[tuple[int, bool]]],
    flying: Callable[[], Sequence[tuple[int, bool]]],
) -> Check:
    """LAB BROWSE shows these messages in this order, every settled one (arrived, in an order the
    story cannot tell), and any of the flying ones (on their way) - nothing else, none twice.
    settled and flying are asked when the answer is checked: they may depend on earlier answers."""

    def check(answer: str) -> str | None:
        found = browsed(answer)
        if found is None:
            return "the browse failed"
        must, may = list(messages) + list(settled()), set(flying())
        missing = [m for m in must if m not in found]
        unexpected = [m for m in found if m not in must and m not in may]
        doubled = sorted({m for m in found if found.count(m) > 1})
        ordered = [m for m in found if m in messages]
        if missing or unexpected or doubled:
            return f"missing (size, persistent) {missing}, unexpected {unexpected}, twice {doubled}"
        return None if ordered == list(messages) else f"the messages in the wrong order: {found}"

    return check


def depth_between(low: Callable[[], int], high: Callable[[], int]) -> Check:
    """A DISPLAY of one queue's CURDEPTH shows a depth from low() to high() (asked at check time)."""

    def check(answer: str) -> str | None:
        found = CURDEPTH.findall(answer)
        if len(found) != 1:
            return f"expected one CURDEPTH, found {found or 'none'}"
        return (
            None
            if low() <= int(found[0]) <= high()
            else f"expected CURDEPTH from {low()} to {high()}, got CURDEPTH({found[0]})"
        )

    return check
