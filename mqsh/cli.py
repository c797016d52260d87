"""The mqsh command line: pick a mode, run it, exit with its code.

mqsh [options] [QMGR]          interactive on a terminal, else the runmqsc report of stdin
mqsh -f FILE [options] [QMGR]  the runmqsc report of FILE
mqsh crtmqm|strmqm|endmqm|dltmqm|dspmq ...   control commands
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import traceback
from pathlib import Path

from mqsh import __version__
from mqsh.commands.control import programs as control
from mqsh.lab import course
from mqsh.model.qmgr_directory import DEFAULT_QMGR, RUNNING
from mqsh.recovery.engine import ENGINES, ReplayEngine
from mqsh.recovery.restart import recovery_messages
from mqsh.responses import cannot_use
from mqsh.shell.batch import NOT_RUN, run_batch
from mqsh.shell.session import Session
from mqsh.shell.special import FORMATS
from mqsh.store.datadir import default_data_dir

INTERNAL_ERROR = 70


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mqsh",
        description="A runmqsc-compatible shell over modelled IBM MQ queue managers. "
        "Control commands: " + ", ".join(control.CONTROL_COMMANDS) + " (mqsh crtmqm QM1 ...).",
    )
    parser.add_argument("qmgr", nargs="?", help="queue manager (default: the default queue manager)")
    parser.add_argument("-f", dest="file", type=Path, help="read MQSC commands from this file")
    parser.add_argument("-e", dest="echo", action="store_false", help="do not echo commands into the report")
    parser.add_argument(
        "--echo",
        dest="echo_typed",
        action="store_true",
        help="at the prompt, echo each command numbered before its response, as runmqsc does in a "
        "terminal (\\echo on|off switches it)",
    )
    parser.add_argument("-v", dest="verify", action="store_true", help="verify syntax only; run nothing")
    parser.add_argument("--format", choices=FORMATS, default="mqsc", help="how responses are shown")
    parser.add_argument(
        "--data-dir", type=_data_dir, help="data directory (default $MQSH_DATA_DIR or ~/.local/share/mqsh)"
    )
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="auto",
        help="where restart and media recovery replay and SMDS space maps are rebuilt (auto: in "
        "process, on Spark for very long logs or a configured Spark master; reference: record "
        "by record)",
    )
    parser.add_argument(
        "--spark-master",
        default=os.environ.get("MQSH_SPARK_MASTER", "local[*]"),
        help="Spark master URL or sc:// Spark Connect endpoint",
    )
    parser.add_argument("--version", action="version", version=f"mqsh {__version__}")
    return parser


def _history_file() -> Path:
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "mqsh" / "history"


def _choose_qmgr(session: Session, named: str | None, verify_only: bool) -> None:
    """The queue manager to start with. Named, it is that one. Otherwise it is the default queue
    manager. If there is no default yet, the first command that needs a queue manager attaches to
    the default as it is then (Session.attach_default), and in an empty data directory that
    command creates and starts QM1. A script that makes its own queue managers leaves no QM1
    behind, and a script whose first line starts a stopped default can still run. -v only checks
    syntax (runmqsc's verify mode): it attaches to nothing and makes nothing, and its report names
    QM1 when there is no default."""
    if named:
        session.current_qmgr = named
        return
    session.current_qmgr = session.installation.default_name()
    if verify_only:
        session.current_qmgr = session.current_qmgr or DEFAULT_QMGR
    else:
        session.default_on_use = True


def _stopped(session: Session) -> bool:
    """Whether the current queue manager exists and is not running (ended, or never started)."""
    name = session.current_qmgr
    return bool(name) and session.installation.exists(name) and session.installation.status(name) != RUNNING


def run_control_command(argv: list[str], data_dir: Path, engine: ReplayEngine) -> int:
    session = Session(data_dir, engine=engine)
    try:
        result = session.execute(" ".join(_quote(word) for word in argv))
        if result.responses:  # strmqm -z prints nothing at all when it succeeds
            print(session.render(result))
        return result.code or (0 if result.ok else 1)  # a failure never exits 0
    finally:
        session.close()


def _quote(word: str) -> str:
    return word if word and all(c not in word for c in " '\"\\") else "'" + word.replace("'", "'\\''") + "'"


def _report_restart(session: Session) -> None:
    """A queue manager whose last holder was killed is recovered by the first process that uses it:
    it says so on stderr, in the words strmqm's recovery uses."""
    report = session.installation.last_start
    if report is not None and report.unclean and session.current_qmgr:
        for msgid, text in recovery_messages(session.current_qmgr, report):
            print(f"{msgid}: {text}", file=sys.stderr)


MQSH_OPTIONS = ("--data-dir", "--engine", "--spark-master")  # also on a control command line


def _control_options(argv: list[str]) -> tuple[dict[str, str], list[str]]:
    """'--data-dir D', '--engine E' and '--spark-master M' (or --opt=V) taken out of a control command line.

    They may come before the control command or after its arguments (mqsh crtmqm QM1
    --data-dir D); no control command has an option of those names.
    """
    options: dict[str, str] = {}
    rest: list[str] = []
    words = list(argv)
    while words:
        name, equals, value = words[0].partition("=")
        if name in MQSH_OPTIONS and equals:
            options[name], words = value, words[1:]
        elif name in MQSH_OPTIONS and len(words) > 1:
            options[name], words = words[1], words[2:]
        else:
            rest.append(words.pop(0))
    return options, rest


def _data_dir(text: str) -> Path:
    """--data-dir's value: an empty one would quietly be the current directory."""
    if not text.strip():
        raise argparse.ArgumentTypeError("--data-dir needs a directory")
    return Path(text)


def lab_report(script: Path, data_dir: Path) -> str:
    """What `mqsh -f script --data-dir data_dir` prints as its report (for mqsh lab run); what it
    says on stderr (QM1 created for it) is the scratch directory's business, not the lab's."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        run(["-f", str(script), "--data-dir", str(data_dir)])
    return out.getvalue()


def run(argv: list[str]) -> int:
    leading, rest = _control_options(argv)
    if rest[:1] == ["lab"]:  # the labs run in scratch data directories of their own
        return course.main(rest[1:], lab_report)
    if rest and rest[0].lower() in control.CONTROL_COMMANDS:
        engine = leading.get("--engine", "auto")
        if engine not in ENGINES:
            print(f"mqsh: --engine must be one of {', '.join(ENGINES)}.", file=sys.stderr)
            return NOT_RUN
        try:
            data_dir = _data_dir(leading["--data-dir"]) if "--data-dir" in leading else default_data_dir()
        except argparse.ArgumentTypeError as error:
            print(f"mqsh: {error}.", file=sys.stderr)
            return NOT_RUN
        return run_control_command(rest, data_dir, ReplayEngine(engine, leading.get("--spark-master")))
    args = build_parser().parse_args(argv)
    session = Session(
        args.data_dir or default_data_dir(),
        output_format=args.format,
        engine=ReplayEngine(args.engine, args.spark_master),
    )
    try:
        _choose_qmgr(session, args.qmgr, args.verify)
        # runmqsc connects before it reads its input; with no queue manager named, a script
        # attaches when a command first needs one.
        connect_first = bool(args.qmgr)
        if args.file is not None:
            try:
                text = args.file.read_bytes().decode("utf-8", errors="replace")
            except OSError as error:
                print(f"mqsh: cannot read {args.file}: {error.strerror}.", file=sys.stderr)
                return NOT_RUN
            return run_batch(session, text.splitlines(), sys.stdout, args.echo, args.verify, connect_first)
        if sys.stdin.isatty() and sys.stdout.isatty():
            from mqsh.shell.repl import (
                run_repl,  # prompt-toolkit loads only for interactive use
            )

            connected = session.connect()  # an interactive session attaches at once, named or not
            if not connected.ok:
                print(session.render(connected), file=sys.stdout if session.current_qmgr else sys.stderr)
                if args.qmgr or not _stopped(session):
                    return NOT_RUN
                # runmqsc ends here; with the default stopped, its prompt opens to take strmqm, and
                # each command that needs the queue manager says it is not available until then.
            _report_restart(session)
            return run_repl(session, _history_file(), args.echo_typed)
        stdin = (line.decode("utf-8", errors="replace") for line in sys.stdin.buffer)
        code = run_batch(session, stdin, sys.stdout, args.echo, args.verify, connect_first)
        _report_restart(session)
        return code
    finally:
        session.close()


def main(argv: list[str] | None = None) -> int:
    try:
        return run(sys.argv[1:] if argv is None else argv)
    except KeyboardInterrupt:
        print("\nmqsh: interrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as error:  # the data directory: not a directory, read-only, full ...
        print(cannot_use(error), file=sys.stderr)
        return NOT_RUN
    except Exception as error:
        if os.environ.get("MQSH_DEBUG"):
            traceback.print_exc()
        print(
            f"mqsh: internal error: {error.__class__.__name__}: {error}. Set MQSH_DEBUG=1 to see where.",
            file=sys.stderr,
        )
        return INTERNAL_ERROR
