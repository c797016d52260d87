"""The runmqsc report for a script read from stdin or a file.

    <banner line>
    Starting MQSC for queue manager QM1.  (with no queue manager to name yet: said before the
    <blank>                                first command that attaches to one)
    <blank>
         1 : define ql(queue1)            every physical line echoed; a command's first line numbered
    AMQ8006I: IBM MQ queue created.       the responses after the command's last line
           : * a comment                  comments, blanks and continuation lines unnumbered
    N MQSC commands read.                 END is numbered but not counted
    No commands have a syntax error.
    All valid MQSC commands were processed.

Exit codes are runmqsc's: 0 all processed, 10 some failed or had a syntax
error, 20 the script could not be run at all.

The formats for tools keep stdout for what a tool reads, with no echo: JSON
Lines (one record per command, then the summary); tables or CSV blocks, one per
DISPLAY, with every message, the banner and the summary on stderr.
"""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TextIO

from mqsh import __version__
from mqsh.language.lines import Chunk
from mqsh.responses import Result
from mqsh.shell import special
from mqsh.shell.lookahead import Lookahead
from mqsh.shell.session import Session

# A report with no echo (-e, and the formats for tools) gives a response only once the command's
# log records are forced, as every report does, but one force may serve a group of commands whose
# lines have all arrived (a group commit). With the echo it cannot: a command's echo comes before
# it runs, so that a killed script's report says which commands ran, and the response before the
# next echo. A response waits for at most this many commands.
GROUP_LIMIT = 64
# A long script keeps what it defines: tens of thousands of objects that live as long as the queue
# manager. The interpreter's full collections scan every one of them each time (a tenth of the time
# of 50,000 ALTERs), though none of them is garbage. So every so many commands, what is alive is
# collected once and then set aside from later collections (gc.freeze); the run's end gives it back
# to the collector (gc.unfreeze), so that a queue manager ended since is freed as before.
FREEZE_EVERY = 5000
BANNER = f"mqsh {__version__} - MQSC for modelled IBM MQ queue managers (runmqsc-compatible report)"
OK, ERRORS, NOT_RUN = 0, 10, 20


@dataclass
class Tally:
    read: int = 0
    syntax_errors: int = 0
    failed: int = 0

    def summary(self, verify: bool) -> list[str]:
        lines = [
            _count(self.read, "MQSC command read.", "MQSC commands read.", "No MQSC commands read."),
            _count(
                self.syntax_errors,
                "command has a syntax error.",
                "commands have a syntax error.",
                "No commands have a syntax error.",
            ),
        ]
        if not verify:
            lines.append(
                _count(
                    self.failed,
                    "valid MQSC command could not be processed.",
                    "valid MQSC commands could not be processed.",
                    "All valid MQSC commands were processed.",
                )
            )
        return lines

    def account(self, result: Result) -> None:
        """One command read (END is not counted), and how it went."""
        self.read += 1
        if result.syntax_error:
            self.syntax_errors += 1
        elif not result.ok:
            self.failed += 1

    def add(self, other: Tally) -> None:
        """Another report's commands, as read here too (a file run with \\i in the shell)."""
        self.read += other.read
        self.syntax_errors += other.syntax_errors
        self.failed += other.failed

    @property
    def exit_code(self) -> int:
        return ERRORS if self.syntax_errors or self.failed else OK


def _count(number: int, one: str, many: str, none: str) -> str:
    if number == 0:
        return none
    return f"One {one}" if number == 1 else f"{number} {many}"


def echo_lines(chunk: Chunk, number: int | None) -> list[str]:
    lines = []
    for index, line in enumerate(chunk.lines):
        if index == 0 and number is not None:
            lines.append(f"{number:6d} : {line}")
        else:
            lines.append("       :" + (f" {line}" if line else ""))
    return lines


class BatchRun:
    def __init__(self, session: Session, out: TextIO, echo: bool = True, verify: bool = False):
        self.session = session
        self.out = out
        self.verify = verify
        self.tally = Tally()
        self.number = 0
        self.ended = False
        # JSON Lines: one object per command and the summary, nothing else (no echo, no report lines).
        self.json_lines = session.output_format == "json"
        self.ahead: Lookahead | None = None
        # Report lines of a group not yet forced, with where each goes (reports with no echo).
        self.held: list[tuple[str, TextIO]] = []
        self.held_commands = 0
        self.echo = echo and session.output_format == "mqsc"
        # Where the report's own lines go: stderr for tables and CSV, whose stdout is the data alone.
        self.chatter = out if session.output_format in ("mqsc", "json") else sys.stderr
        # Whether "Starting MQSC for queue manager ..." is said: at the report's head when there is a
        # current queue manager to name (run_batch), else before the first command that attaches to one.
        self.starting_said = bool(session.current_qmgr)

    def _write(self, lines: Iterable[str], to: TextIO | None = None) -> None:
        stream = to or self.out
        if self.grouping:
            self.held.extend((line, stream) for line in lines)
            return
        for line in lines:
            stream.write(line + "\n")
        stream.flush()

    @property
    def grouping(self) -> bool:
        return self.session.forces_deferred

    def _give_held(self) -> None:
        """Force the group's log records, then give its report lines in order."""
        self.session.force_logs()
        for index, (line, stream) in enumerate(self.held):
            stream.write(line + "\n")
            if index + 1 == len(self.held) or self.held[index + 1][1] is not stream:
                stream.flush()
        self.held.clear()
        self.held_commands = 0

    def _group_ends(self) -> bool:
        """Whether the held responses must be given before the next chunk is taken: it has not
        arrived yet (a script fed a command at a time waits for each response), it is END
        (which ends the session), or the group is full."""
        following = self.ahead.peek() if self.ahead is not None else None
        if following is None or self.held_commands >= GROUP_LIMIT:
            return True
        return following.is_command and following.text is not None and special.is_end(following.text)

    def chunk(self, chunk: Chunk) -> None:
        if not chunk.is_command:
            if self.echo:
                self._write(echo_lines(chunk, None))
            return
        self.number += 1
        if self.number % FREEZE_EVERY == 0:
            gc.collect()
            gc.freeze()
        assert chunk.text is not None
        if not self.starting_said and self.session.needs_qmgr(chunk.text):
            self._say_starting()
        if self.echo:
            self._write(echo_lines(chunk, self.number))
        self.held_commands += 1  # a command whose response is empty still waits for the force
        result = (
            self.session.check(chunk.text)
            if self.verify
            else self.session.execute(
                chunk.text, self.ahead.last_line if self.ahead is not None else None, script=True
            )
        )
        if result.ends_session:
            self.ended = True
            return
        self.tally.account(result)
        if self.json_lines:
            record = {"seq": self.number, "command": chunk.text, **self.session.json_record(result)}
            self._write([json.dumps(record)])
            return
        data, messages = self.session.render_parts(result)
        if messages:
            self._write(messages.split("\n"), self.chatter)
        if data:
            self._write(data.split("\n"))

    def _say_starting(self) -> None:
        """Attach to the default queue manager now, and name it as runmqsc's report does at its head.
        When there is none to attach to, the command itself says why, and the next one tries again."""
        if not self.session.attach_default().ok:
            return
        self.starting_said = True
        lines = starting(self.session.current_qmgr or "").split("\n")[:-1]
        self._write(lines, self.out if self.session.output_format == "mqsc" else sys.stderr)

    def run(self, lines: Iterable[str]) -> int:
        self.ahead = Lookahead(lines)
        deferred = self.session.forces_deferred
        self.session.forces_deferred = not self.echo and not self.verify
        self.session.follow_input(self.ahead.delivered)
        try:
            while not self.ended:
                if self.held_commands and self.grouping and self._group_ends():
                    self._give_held()
                chunk = self.ahead.next()
                if chunk is None:
                    break
                self.chunk(chunk)
        finally:
            if self.grouping:
                self._give_held()  # before the summary: it answers for every command
            self.session.forces_deferred = deferred
            self.session.follow_input(None)
            if self.number >= FREEZE_EVERY:
                gc.unfreeze()
        if self.json_lines:
            self._write(
                [
                    json.dumps(
                        {
                            "summary": {
                                "read": self.tally.read,
                                "syntax_errors": self.tally.syntax_errors,
                                "failed": self.tally.failed,
                                "exit_code": self.tally.exit_code,
                                "text": self.tally.summary(self.verify),
                            }
                        }
                    )
                ]
            )
        else:
            self._write(self.tally.summary(self.verify), self.chatter)
        return self.tally.exit_code


def run_batch(
    session: Session,
    lines: Iterable[str],
    out: TextIO,
    echo: bool = True,
    verify: bool = False,
    connect_first: bool = True,
) -> int:
    """The whole report, from the banner to the summary; returns the exit code. In the formats for
    tools the banner goes to stderr, so that stdout holds the records or tables alone.

    connect_first: connect to the current queue manager before reading, as runmqsc does (a queue
    manager named on the command line). Otherwise the first command that needs one attaches to
    it; with none current yet, "Starting MQSC for queue manager ..." is said there, naming the one
    it attached to (BatchRun)."""
    chatter = out if session.output_format == "mqsc" else sys.stderr
    chatter.write(BANNER + "\n")
    if connect_first and not verify:
        connected = session.connect()
        if not connected.ok:
            data, messages = session.render_parts(connected)
            for text, stream in ((data, out), (messages, sys.stderr)):
                if text:
                    stream.write(text + "\n")
            return NOT_RUN
    if session.current_qmgr:
        chatter.write(starting(session.current_qmgr))
    return BatchRun(session, out, echo, verify).run(lines)


def starting(qmgr: str) -> str:
    """runmqsc's line once it has a queue manager, and its two blank lines."""
    return f"Starting MQSC for queue manager {qmgr}.\n\n\n"
