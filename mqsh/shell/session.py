"""A shell session: the current queue manager, the output format, and execute().

execute() takes one complete command - MQSC, a control command, a LAB control
or a shell command - and returns a Result. It never raises for bad input:
everything a user can get wrong comes back as an AMQ message or a one-line
``mqsh:`` error.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

from mqsh.commands.context import Context
from mqsh.commands.control import programs as control
from mqsh.commands.control.parsing import LOG_NOT_AVAILABLE, NOT_AVAILABLE, NOT_FOUND, RUNNING_RC, UNEXPECTED
from mqsh.commands.dispatch import run_mqsc
from mqsh.core.damage import StartRefused
from mqsh.core.objects import namespace_of
from mqsh.language import catalogue as catalogue_module
from mqsh.language.usage import usage_lines, variant_named, verb_list
from mqsh.language.validate import Command, MqscSyntaxError, parse_command
from mqsh.model.installation import Installation, QmgrNotAvailable, QmgrNotFound
from mqsh.model.qmgr_directory import DEFAULT_QMGR, RUNNING
from mqsh.model.sharing_groups import group_names_of, membership
from mqsh.model.sharing_groups import start_problem as group_start_problem
from mqsh.recovery.engine import ReplayEngine
from mqsh.recovery.spark.session import ReplayCancelled, SparkUnavailable
from mqsh.render.mqsc import render as render_mqsc
from mqsh.render.structured import json_record, render_csv, render_json, render_table
from mqsh.responses import Display, Message, Result, SyntaxProblem
from mqsh.shell import help, special
from mqsh.store.lock import QmgrInUse
from mqsh.store.log import ExtentMissing, LogCorrupt

GROUP_OBJECTS = ("CFSTRUCT", "SMDS")  # kept in the queue-sharing group's repository, not by a queue manager
# Formats whose output is the DISPLAY data alone: every other response is shown apart (on stderr).
DATA_ONLY = {"table": render_table, "csv": render_csv}
# A script's commands may share one look at the queue manager's core files (see Session), but never
# for longer than this: a file damaged while a long script runs is noticed this soon.
CORE_LOOK_SECONDS = 0.2
NO_DEFAULT = "mqsh: there is no default queue manager; name one (mqsh dspmq lists them)."


class NoDefaultQmgr(Exception):
    """No queue manager named, several in the data directory, and none of them the default."""


class Session:
    def __init__(
        self,
        data_dir: Path,
        qmgr: str | None = None,
        output_format: str = "mqsc",
        engine: ReplayEngine | None = None,
    ):
        self.catalogue = catalogue_module.load()
        self.installation = Installation(data_dir, engine)
        self.current_qmgr = qmgr
        self.output_format = output_format
        # Interactive: a syntax error says what was probably meant in a line, not runmqsc's usage.
        self.brief_syntax_errors = False
        # No queue manager named: the first command that needs one attaches to the default as it is
        # then, or makes QM1 in a data directory with none (attach_default).
        self.default_on_use = False
        # A report with no echo whose next commands have already arrived forces the logs once for
        # a group of them, and gives their responses after that force (BatchRun decides).
        self.forces_deferred = False
        # Before each command the queue manager's own object and its catalog are looked at, so that
        # one damaged or removed by hand ends it at the next command (Installation.connect). A
        # script's command whose lines had all arrived before the last look needs none of its own:
        # whatever was done to the files before it arrived was there to be seen then. The look
        # costs little itself, but each of its stat calls lets the helper threads take the
        # interpreter, which made it a tenth of an echoed script's time.
        self._input_delivered: Callable[[], int] | None = None  # a script's input lines arrived so far
        self._core_looked: tuple[str, int, float] | None = None  # (queue manager, lines arrived then, when)

    # ------------------------------------------------------------ execution
    def execute(self, text: str, input_line: int | None = None, script: bool = False) -> Result:
        """Run one command. input_line is the line of the script's input (follow_input) that
        the command ends on; script: the command is a script's (a report's), not typed at the prompt."""
        text = text.strip()
        if not text:
            return Result()
        if special.is_end(text):
            return Result(ends_session=True)
        shell_command = special.find(text)
        if shell_command is not None and script:
            refused = self._refused_in_script(text)
            if refused is not None:
                return refused
        elif shell_command is not None:
            self._core_looked = None
            return self._shell(*shell_command)
        if control.is_control(text):
            self._core_looked = None  # control commands work on the files themselves
            self.installation.settle_files()
            return self._guarded(lambda: control.run_control(self._context(), text, run_mqsc))
        parsed = self._parsed(text)
        if isinstance(parsed, MqscSyntaxError):
            return self._syntax_error(parsed)
        return self._guarded(lambda: self._run(parsed, input_line))

    def follow_input(self, delivered: Callable[[], int] | None) -> None:
        """The script whose commands execute() is given from now on: how many of its input lines
        have arrived so far (None: no script, every command looks at the core files itself)."""
        self._input_delivered = delivered
        self._core_looked = None

    def _parsed(self, text: str) -> Command | MqscSyntaxError:
        try:
            return parse_command(text, self.catalogue)
        except MqscSyntaxError as error:
            return error

    @staticmethod
    def _refused_in_script(text: str) -> Result | None:
        """A script is runmqsc's input: the shell's backslash commands steer the prompt and are refused
        there, and help is no MQSC verb (None: the MQSC parser reads it, as runmqsc would)."""
        word = text.split()[0]
        if not word.startswith("\\"):
            return None
        return Result.failure(f"mqsh: {word} works only at the interactive prompt, not in a script.")

    def check(self, text: str) -> Result:
        """runmqsc -v on a script: syntax only, nothing carried out."""
        if special.is_end(text):
            return Result(ends_session=True)
        if special.find(text) is not None:
            refused = self._refused_in_script(text)
            if refused is not None:
                return refused
        elif control.is_control(text):
            return Result()
        parsed = self._parsed(text)
        return self._syntax_error(parsed) if isinstance(parsed, MqscSyntaxError) else Result()

    def _syntax_error(self, error: MqscSyntaxError) -> Result:
        if self.brief_syntax_errors:
            problem = SyntaxProblem(error.segment, hint=help.syntax_hint(self.catalogue, error))
        elif error.verb is None:
            problem = SyntaxProblem(
                error.segment, verb_list(self.catalogue), "AMQ8426I", "Valid MQSC commands are:"
            )
        else:
            variant = (
                variant_named(self.catalogue.objects[error.target], error.text) if error.target else None
            )
            member = (
                bool(self.current_qmgr)
                and self.installation.exists(self.current_qmgr)
                and membership(self.installation, self.current_qmgr) is not None
            )
            problem = SyntaxProblem(
                error.segment, usage_lines(self.catalogue, error.verb, error.target, variant, member)
            )
        return Result([problem], ok=False, syntax_error=True)

    def _guarded(self, action) -> Result:
        """Queue manager trouble becomes MQ's words, never a traceback, and a control
        command's exit code (MQSC's comes from the report). Whatever the command logged
        is forced to disk before its response is given: here, or by the report that holds a
        group's responses until force_logs (forces_deferred)."""
        try:
            result = self._answered(action)
            # The repository managers and channels do what they can before the answer: what the
            # command put on a transmission queue, changed in a cluster, or in the network, moves on now.
            self.installation.settle()
            self.installation.keep_standing()
            return result
        finally:
            if not self.forces_deferred:
                self.installation.force_logs()

    def force_logs(self) -> None:
        """What the commands run so far logged is on the disk: before their responses are given."""
        self.installation.force_logs()

    @staticmethod
    def _answered(action) -> Result:
        try:
            return action()
        except QmgrNotFound:
            return Result.failure("IBM MQ queue manager does not exist.", "AMQ8118E", code=NOT_FOUND)
        except NoDefaultQmgr:
            return Result.failure(NO_DEFAULT, code=NOT_FOUND)
        except QmgrNotAvailable:
            return Result.failure("IBM MQ queue manager not available.", "AMQ8146E", code=NOT_AVAILABLE)
        except QmgrInUse as error:
            return Result.failure(f"mqsh: {error}.", code=RUNNING_RC)
        except StartRefused as error:  # a queue manager started on first use (mqsh QM1) that cannot start
            return Result.failure(error.text, error.msgid, code=error.code)
        except ExtentMissing as error:
            return Result.failure(
                f"Log file {error.extent} could not be opened for use.", "AMQ6767E", code=LOG_NOT_AVAILABLE
            )
        except LogCorrupt as error:
            return Result.failure(
                f"mqsh: {error}; the queue manager cannot start.", "AMQ7082E", code=LOG_NOT_AVAILABLE
            )
        except (SparkUnavailable, ReplayCancelled) as error:
            return Result.failure(f"mqsh: {error}.", code=UNEXPECTED)

    def _context(self, qmgr=None) -> Context:
        return Context(self.catalogue, self.installation, qmgr)

    def _run(self, command: Command, input_line: int | None = None) -> Result:
        if command.verb == "LAB":
            self._core_looked = None  # a lab command may damage, copy or replace the files
            return self._lab(command)
        return run_mqsc(self._context(self._connect(input_line)), command)

    def connect(self) -> Result:
        """Connect to the current queue manager now (runmqsc does so before reading), or to the
        default one when none is current (attach_default)."""
        return self._guarded(lambda: self._connect() and Result())

    def needs_qmgr(self, text: str) -> bool:
        """Whether the command attaches to a queue manager: an MQSC command or a LAB control that
        works on one. Control commands, shell commands, other LAB controls and commands with a
        syntax error need none."""
        text = text.strip()
        if not text or special.is_end(text) or special.find(text) is not None or control.is_control(text):
            return False
        parsed = self._parsed(text)
        if isinstance(parsed, MqscSyntaxError):
            return False
        return parsed.verb != "LAB" or (parsed.target or "") in _lab_controls().NEEDS_QMGR

    def attach_default(self) -> Result:
        """Make the queue manager the next command works on current, when none is yet (see
        default_on_use): the default queue manager as it is now - one the script made itself, say
        - or, in a data directory with none at all, QM1, created and started here."""
        return self._guarded(lambda: self._attach() and Result())

    def _attach(self) -> str:
        if self.current_qmgr:
            return self.current_qmgr
        if not self.default_on_use:
            raise QmgrNotFound("")
        name = self.installation.default_name()
        if name is None and self.installation.names():
            raise NoDefaultQmgr()
        if name is None:
            name = DEFAULT_QMGR
            self._create_default(name)
        self.current_qmgr = name
        return name

    def _connect(self, input_line: int | None = None):
        name = self._attach()
        if (
            name not in self.installation.held
            and self.installation.exists(name)
            and self.installation.recorded_status(name) == RUNNING
        ):
            # Connecting starts a queue manager whose holder was killed: a member of a
            # queue-sharing group starts only with its group's repository, as strmqm checks.
            refused = group_start_problem(self.installation, name)
            if refused is not None:
                raise StartRefused("", refused, code=control.UNEXPECTED)
        if self._last_look_covers(name, input_line):
            return self.installation.connect(name, look=False)
        # Counted before the look: every line counted arrived before it.
        delivered = (
            self._input_delivered() if self._input_delivered is not None and input_line is not None else None
        )
        qmgr = self.installation.connect(name)
        self._core_looked = (name, delivered, time.monotonic()) if delivered is not None else None
        return qmgr

    def _last_look_covers(self, qmgr_name: str, input_line: int | None) -> bool:
        """Whether the script's command ending on input_line had arrived before the last look at
        qmgr_name's core files, taken less than CORE_LOOK_SECONDS ago."""
        looked = self._core_looked
        return (
            looked is not None
            and input_line is not None
            and looked[0] == qmgr_name
            and input_line <= looked[1]
            and time.monotonic() - looked[2] < CORE_LOOK_SECONDS
        )

    def _create_default(self, name: str) -> None:
        """QM1 of an empty data directory, made and started where it is first needed, and said on stderr."""
        for command in (f"crtmqm {name}", f"strmqm {name}"):
            if not control.run_control(self._context(), command, run_mqsc).ok:
                raise QmgrNotFound(name)
        print(
            f"mqsh: no queue manager in {self.installation.data_dir}; created and started {name}.",
            file=sys.stderr,
        )

    def _lab(self, command: Command) -> Result:
        self.installation.settle_files()  # a lab command may damage, copy or replace the files
        action = command.target or ""
        lab = _lab_controls()
        if action in lab.STANDALONE:
            return lab.STANDALONE[action](self._context(), command)
        if action in lab.NEEDS_SHELL:
            return lab.NEEDS_SHELL[action](self._context(), command, self)
        return lab.NEEDS_QMGR[action](self._context(self._connect()), command)

    def use(self, name: str) -> Result:
        """LAB USE: make another queue manager the current one."""
        if not self.installation.exists(name):
            return Result.failure("IBM MQ queue manager does not exist.", "AMQ8118E")
        self.current_qmgr = name
        return Result.message(f"Current queue manager is {name}.")

    def _shell(self, command: special.ShellCommandSpec, args: list[str]) -> Result:
        if command.name == "\\q":
            return Result(ends_session=True)
        if command.name == "\\format":
            if len(args) != 1 or args[0].lower() not in special.FORMATS:
                return Result.failure(f"mqsh: usage: {command.usage}")
            self.output_format = args[0].lower()
            return Result.message(f"Output format is {self.output_format}.")
        return Result(
            [Message(line) for line in help.lines_for(self.catalogue, control.CONTROL_COMMANDS, args)]
        )

    # ------------------------------------------------------------ output and lookups
    def render(self, result: Result) -> str:
        """All of a result's text in one piece."""
        return "\n".join(part for part in self.render_parts(result) if part)

    def render_parts(self, result: Result) -> tuple[str, str]:
        """(data, messages): for table and CSV the tables alone, and every other response in
        runmqsc's words, to be shown apart; for the other formats everything is data."""
        if self.output_format == "json":
            return render_json(result.responses, self.typed_value, result.ok), ""
        if self.output_format in DATA_ONLY:
            others = [response for response in result.responses if not isinstance(response, Display)]
            return DATA_ONLY[self.output_format](result.responses), render_mqsc(others)
        return render_mqsc(result.responses), ""

    def json_record(self, result: Result) -> dict:
        return json_record(result.responses, self.typed_value, result.ok)

    def typed_value(self, name: str, value):
        """A displayed value as JSON gives it: an integer attribute's number as a number."""
        spec = self.catalogue.attributes.get(name)
        if spec is not None and spec.type == "integer" and isinstance(value, str):
            text = value.strip()
            if text.lstrip("-").isdigit():
                return int(text)
        return value

    def object_names(self, target: str, qmgr_name: str | None = None) -> list[str]:
        """The names of target objects the current (or the named) queue manager holds or, for the
        objects of its queue-sharing group (CFSTRUCT, SMDS), its group holds."""
        spec = self.catalogue.object(target)
        qmgr = self.installation.held.get(qmgr_name or self.current_qmgr or "")
        if spec is None or qmgr is None:
            return []
        if spec.name in GROUP_OBJECTS:
            return group_names_of(self.installation, qmgr.name, spec.name)
        if spec.kind == "status":
            # A status display is named by what it shows: a queue, a channel ... or a connection.
            if spec.name == "CONN":
                return [qmgr.application.conn] if qmgr.application is not None else []
            spec = self.catalogue.object(spec.name_attribute or "")
            if spec is None or spec.kind == "status":
                return []
        return [
            obj.name
            for obj in qmgr.objects(namespace_of(spec.name, spec.family))
            if spec.kind == "family" or obj.object_type == spec.name
        ]

    def qmgr_names(self) -> list[str]:
        return self.installation.names()

    def close(self) -> None:
        self.installation.close_all()


def _lab_controls():
    """The LAB controls, loaded at the first LAB command: a session of MQSC alone never loads them."""
    from mqsh.lab import controls

    return controls
