"""What the interactive shell does with each command it reads: run it, show its response
(mqsh.shell.output), time it - and the shell commands that steer this, as psql's do:

    \\i FILE                  the file's runmqsc report, as mqsh -f FILE prints it (no banner)
    \\o [FILE | |COMMAND]     where responses go
    \\pager [on|off|COMMAND]  paging of long responses
    \\timing [on|off]         "Time: 1.234 ms" after each command
    \\echo [on|off]           runmqsc's numbered echo of each command before its response
    \\e                       the last command in the editor; what is saved comes back to the prompt

The prompt itself (prompt-toolkit) stays in mqsh.shell.repl.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from mqsh.language.lines import Chunk
from mqsh.shell import special
from mqsh.shell.batch import BatchRun, Tally, echo_lines
from mqsh.shell.external import ProgramFailed, edit
from mqsh.shell.output import Output
from mqsh.shell.session import Session

SWITCH = {"on": True, "off": False}


def timing_line(seconds: float) -> str:
    """psql's words for how long a command took: milliseconds, and from a second on a clock time too."""
    milliseconds = seconds * 1000
    if milliseconds < 1000:
        return f"Time: {milliseconds:.3f} ms"
    minutes, rest = divmod(seconds, 60)
    if minutes < 60:
        return f"Time: {milliseconds:.3f} ms ({int(minutes):02d}:{rest:06.3f})"
    hours, minutes = divmod(minutes, 60)
    return f"Time: {milliseconds:.3f} ms ({int(hours):02d}:{int(minutes):02d}:{rest:06.3f})"


def _error(text: str) -> None:
    print(f"mqsh: {text}", file=sys.stderr)


def _switched(command: special.ShellCommandSpec, argument: str, now: bool) -> bool | None:
    """What "on", "off" or nothing (the other way round) switches a setting to; None for a wrong word."""
    if argument and argument.lower() not in SWITCH:
        _error(f"usage: {command.usage}")
        return None
    return SWITCH[argument.lower()] if argument else not now


class Console:
    def __init__(self, session: Session, output: Output | None = None):
        self.session = session
        self.output = output or Output()
        self.timing = False
        # runmqsc echoes each command it reads, numbered, in a terminal too: shown when asked for
        # (\echo, --echo); the numbers run on whether shown or not, as the report's do.
        self.echo = False
        self.number = 0
        self.last_command = ""  # what \e edits: the last command run, shell commands such as \o aside
        self.pending = ""  # what \e saved, for the next prompt to start with

    def run(self, text: str, tally: Tally | None = None, lines: list[str] | None = None) -> bool:
        """Run one complete command and show what it answers; True when it ends the session.
        tally counts it (and the commands of a \\i file) for the summary at the end; lines are the
        lines it was typed on, for the echo."""
        found = special.find(text)
        if found is not None and found[0].interactive:
            self._shell(found[0], special.argument_text(text), tally)
            return False
        if found is None:  # MQSC and control commands are numbered; help and \\format are the shell's
            self.number += 1
            if self.echo and self.session.output_format == "mqsc":
                self.output.show("\n".join(echo_lines(Chunk(lines or text.split("\n"), text), self.number)))
        self.last_command = text
        started = time.perf_counter()
        result = self.session.execute(text)
        data, messages = self.session.render_parts(result)
        elapsed = time.perf_counter() - started  # the command, not the time spent reading a pager
        self.output.show(data, messages)
        if result.ends_session:
            return True
        if tally is not None and found is None:  # the summary counts MQSC commands, not help or \format
            tally.account(result)
        if self.timing:
            self.output.note(timing_line(elapsed))
        return False

    def take_pending(self) -> str:
        text, self.pending = self.pending, ""
        return text

    def close(self) -> None:
        self.output.close()

    # ------------------------------------------------------------ the shell commands
    def _shell(self, command: special.ShellCommandSpec, argument: str, tally: Tally | None) -> None:
        if command.name == "\\i":
            self._include(command, argument, tally)
        elif command.name == "\\o":
            self._redirect(command, argument)
        elif command.name == "\\pager":
            self._pager(argument)
        elif command.name == "\\timing":
            self._timing(command, argument)
        elif command.name == "\\echo":
            self._echo(command, argument)
        elif command.name == "\\e":
            self._edit(command, argument)

    def _include(self, command: special.ShellCommandSpec, where: str, tally: Tally | None) -> None:
        if not where:
            _error(f"usage: {command.usage}")
            return
        try:
            text = Path(where).expanduser().read_bytes().decode("utf-8", errors="replace")
        except OSError as error:
            _error(f"\\i: cannot read {where}: {error.strerror}.")
            return
        # The report is a script's: runmqsc's whole usage after a syntax error, not the prompt's hint.
        brief, self.session.brief_syntax_errors = self.session.brief_syntax_errors, False
        report = BatchRun(self.session, self.output.stream())
        try:
            report.run(text.splitlines())
        finally:
            self.session.brief_syntax_errors = brief
            if tally is not None:
                tally.add(report.tally)

    def _redirect(self, command: special.ShellCommandSpec, where: str) -> None:
        if where.startswith("|") and not where[1:].strip():
            _error(f"usage: {command.usage}")
            return
        try:
            self.output.redirect(where)
        except OSError as error:
            _error(f"\\o: cannot write {where}: {error.strerror}.")

    def _pager(self, argument: str) -> None:
        output = self.output
        if argument.lower() in SWITCH:
            output.pager_on = SWITCH[argument.lower()]
        elif argument:
            output.pager_command, output.pager_on = argument, True
        else:
            output.pager_on = not output.pager_on  # \pager alone switches it, as psql's \pset pager
        output.note(
            f"Pager is used for long output: {output.pager()}." if output.pager_on else "Pager usage is off."
        )

    def _timing(self, command: special.ShellCommandSpec, argument: str) -> None:
        switched = _switched(command, argument, self.timing)
        if switched is not None:
            self.timing = switched
            self.output.note("Timing is on." if self.timing else "Timing is off.")

    def _echo(self, command: special.ShellCommandSpec, argument: str) -> None:
        switched = _switched(command, argument, self.echo)
        if switched is not None:
            self.echo = switched
            self.output.note("Echo is on." if self.echo else "Echo is off.")

    def _edit(self, command: special.ShellCommandSpec, argument: str) -> None:
        if argument:
            _error(f"usage: {command.usage}")
            return
        try:
            self.pending = edit(self.last_command)
        except ProgramFailed as error:
            _error(f"\\e: {error}.")
