"""strmqm: start a queue manager, and what its options do instead of (or around) a start.

-c redefines the default and system objects and stops again, -e CMDLEVEL enables a
command level, -f makes missing directories again, -z and -d none keep the
informational lines back. The model has no backup queue managers (-r, -a), no
standby instances (-x) and no service trace (-si, -ss): those are refused, or
answered, as MQ answers them where there is no such thing.
"""

from __future__ import annotations

import argparse
import re

from mqsh.commands.context import Context
from mqsh.commands.control import media
from mqsh.commands.control.defaults import replace_default_objects
from mqsh.commands.control.parsing import (
    LOG_NOT_AVAILABLE,
    NOT_VALID,
    RUNNING_RC,
    UNEXPECTED,
    ControlParser,
    Runner,
    control_parser,
    lines,
    unknown_qmgr,
)
from mqsh.commands.qsg import copies
from mqsh.core.damage import StartRefused
from mqsh.model import sharing_groups as groups
from mqsh.model.qmgr_directory import RUNNING
from mqsh.recovery.restart import queue_accounts
from mqsh.responses import Result
from mqsh.store.datadir import NAMESPACE_FOLDERS
from mqsh.store.lock import QmgrInUse
from mqsh.store.log import ExtentMissing, LogCorrupt
from mqsh.store.qmini import read_stanzas

CMDLEVEL = re.compile(r"^CMDLEVEL=([0-9]+)$", re.IGNORECASE)


def command_level(text: str) -> int:
    """-e's value: CMDLEVEL=n, the only thing MQ enables with it."""
    found = CMDLEVEL.match(text)
    if not found:
        raise ValueError(text)  # argparse reports it as "invalid command_level value"
    return int(found.group(1))


def parsers() -> dict[str, ControlParser]:
    strmqm = control_parser("strmqm", "Start a queue manager.")
    what = strmqm.add_mutually_exclusive_group()
    what.add_argument(
        "-c",
        dest="redefine",
        action="store_true",
        help="start, redefine the default and system objects, then stop",
    )
    what.add_argument(
        "-r",
        dest="replay",
        action="store_true",
        help="update a backup queue manager (there are none in mqsh)",
    )
    what.add_argument(
        "-a",
        dest="activate",
        action="store_true",
        help="activate a backup queue manager (there are none in mqsh)",
    )
    what.add_argument(
        "-x",
        dest="instance",
        action="store_true",
        help="start an instance, standby permitted (the first instance becomes active)",
    )
    what.add_argument(
        "-e",
        dest="cmdlevel",
        type=command_level,
        metavar="CMDLEVEL=n",
        help="enable a command level (mqsh has one: DISPLAY QMGR CMDLEVEL)",
    )
    strmqm.add_argument(
        "-f",
        dest="fix_dirs",
        action="store_true",
        help="make missing directories of the queue manager again, empty",
    )
    trace = strmqm.add_mutually_exclusive_group()
    trace.add_argument(
        "-si",
        dest="trace",
        action="store_const",
        const="-si",
        help="interactive service mode (not modelled: refused)",
    )
    trace.add_argument(
        "-ss", dest="trace", action="store_const", const="-ss", help="service mode (not modelled: refused)"
    )
    strmqm.add_argument(
        "-d",
        dest="detail",
        type=str.lower,
        choices=["information", "none"],
        default="information",
        help="information (default): every message; none: errors only",
    )
    strmqm.add_argument("-z", dest="quiet", action="store_true", help="errors only")
    strmqm.add_argument(
        "-ns",
        dest="no_services",
        action="store_true",
        help="start no channel initiator, command server, listeners or services",
    )
    strmqm.add_argument(
        "--verify-log",
        dest="verify_log",
        action="store_true",
        help="check the checksum of every record of every log extent first (qm.ini VerifyLogOnStart)",
    )
    strmqm.add_argument(
        "--ignore-missing-log",
        dest="ignore_missing",
        action="store_true",
        help="pass over missing log extents instead of refusing to start (qm.ini IgnoreMissingLogExtents)",
    )
    strmqm.add_argument("qmgr", nargs="?")
    return {"strmqm": strmqm}


def strmqm(ctx: Context, args: argparse.Namespace, run: Runner) -> Result:
    result = _strmqm(ctx, args, run)
    if not (args.quiet or args.detail == "none"):
        return result
    # -z and -d none: the error messages only (MQ's AMQnnnnE/S, and a failure's own line).
    kept = [
        message for message in result.responses if not result.ok and not message.text.endswith("starting.")
    ]
    return Result(kept, ok=result.ok, code=result.code)


def _strmqm(ctx: Context, args: argparse.Namespace, run: Runner) -> Result:
    installation = ctx.installation
    if args.trace:
        # MQ documents -si and -ss (service modes) with no message of their own; mqsh models no
        # service trace, so it refuses them in the style of a usage error rather than ignore them.
        return lines(
            f"strmqm: {args.trace} (service mode) is not supported: mqsh models no service trace.",
            ok=False,
            code=NOT_VALID,
        )
    name = args.qmgr or installation.default_name()
    if not name or not installation.exists(name):
        return unknown_qmgr()
    # Held here, or left running by an earlier run (the next command it serves takes it over).
    # A second -x instance would wait as a standby; with no second machine in the model
    # there is nowhere for it to stand by, so it is answered as a start of a running one.
    if name in installation.held or installation.status(name) == RUNNING:
        return lines(f"IBM MQ queue manager '{name}' running.", ok=False, code=RUNNING_RC)
    if args.replay or args.activate:
        return _no_backup(installation, name, args.replay)
    if args.cmdlevel is not None:
        return _command_level(ctx, name, args.cmdlevel)
    if args.fix_dirs:
        _fix_directories(installation.paths(name))
    return _start(ctx, name, args, run)


def _no_backup(installation, name: str, replay: bool) -> Result:
    """strmqm -r and -a act on a backup queue manager, which mqsh has none of (LAB BACKUP copies
    a queue manager's files whole, and LAB RESTORE brings them back as the queue manager itself)."""
    log = read_stanzas(installation.paths(name).qm_ini).get("Log", {})
    if replay and log.get("LogManagement", "").upper() == "AUTOMATIC":
        # Message id unverified: MQ documents that strmqm -r fails under LogManagement=Automatic.
        return lines(
            f"AMQ7369E: strmqm -r is not allowed for queue manager '{name}': its LogManagement "
            "is Automatic, and log extents may be reused before they are backed up.",
            ok=False,
            code=UNEXPECTED,
        )
    # Message id unverified: MQ's words for a queue manager that was never made a backup.
    return lines(
        f"AMQ7087E: Queue manager '{name}' is not a backup queue manager.", ok=False, code=UNEXPECTED
    )


def _command_level(ctx: Context, name: str, level: int) -> Result:
    """-e CMDLEVEL=n: mqsh's queue managers have one command level, enabled from creation."""
    current = int(ctx.catalogue.objects["QMGR"].variant().defaults["CMDLEVEL"])
    if level == current:
        # Message id unverified: the level asked for is the one already enabled, so nothing changes.
        return lines(f"AMQ7290I: Command level {level} is already enabled for queue manager '{name}'.")
    # Message id unverified: a level this installation does not offer.
    return lines(
        f"AMQ7291E: Command level {level} is not supported for queue manager '{name}'; "
        f"this installation supports command level {current}.",
        ok=False,
        code=NOT_VALID,
    )


def _fix_directories(paths) -> None:
    """-f: the directories that can come back empty with nothing lost (an object type's folder,
    whose objects are then damaged and recovered from their media images as without it, and
    errors/). The log directory is not one of them: an empty one would lose the log."""
    for folder in (*NAMESPACE_FOLDERS.values(), "errors"):
        (paths.qmgr_dir / folder).mkdir(exist_ok=True)


def _start(ctx: Context, name: str, args: argparse.Namespace, run: Runner) -> Result:
    installation = ctx.installation
    starting = f"IBM MQ queue manager '{name}' starting."
    refused = groups.start_problem(installation, name)
    if refused is not None:
        return lines(starting, refused, ok=False, code=UNEXPECTED)
    try:
        qmgr = installation.start(name, args.verify_log, args.ignore_missing, args.no_services)
        copies.catch_up(
            Context(ctx.catalogue, installation, qmgr)
        )  # z/OS refreshes a member's copies at start
    except QmgrInUse as error:
        return lines(f"AMQ8041E: {error}.", ok=False, code=RUNNING_RC)
    except StartRefused as error:
        return lines(
            starting, f"{error.msgid}: {error.text}" if error.msgid else error.text, ok=False, code=error.code
        )
    except ExtentMissing as error:
        return lines(
            starting,
            f"AMQ6767E: Log file {error.extent} could not be opened for use. The queue "
            "manager cannot start without it; restore it, or start with --ignore-missing-log to "
            "pass over it.",
            ok=False,
            code=LOG_NOT_AVAILABLE,
        )
    except LogCorrupt as error:
        return lines(
            starting,
            f"AMQ7082E: Log file {error.extent} is damaged: {error.problem}. The queue manager cannot start.",
            ok=False,
            code=LOG_NOT_AVAILABLE,
        )
    report = installation.last_start
    started = [
        starting,
        *media.start_notes(report),
        f"{report.replayed} log records accessed on queue manager '{name}' during the log replay phase.",
        f"Log replay for queue manager '{name}' complete.",
        *(
            [f"{report.backed_out} log records accessed on queue manager '{name}' during the recovery phase."]
            if report.unclean
            else []
        ),
        *media.damage_notes(report),
        f"Transaction manager state recovered for queue manager '{name}'."
        + (
            f" {report.backed_out} in-flight unit{'s' if report.backed_out > 1 else ''} of work backed out."
            if report.backed_out
            else ""
        ),
        *(f"{msgid}: {text}" for msgid, text in queue_accounts(name, report)),
        f"IBM MQ queue manager '{name}' started.",
    ]
    if not args.redefine:
        return lines(*started)
    # -c: the objects are defined again on the started queue manager, which then stops.
    try:
        created, replaced, failed = replace_default_objects(Context(ctx.catalogue, installation, qmgr), run)
    finally:
        installation.end(name)
    return lines(
        *started,
        f"Creating or replacing default objects for {name}.",
        f"Default objects statistics : {created} created. {replaced} replaced. {failed} failed.",
        "Completing setup.",
        "Setup completed.",
        f"IBM MQ queue manager '{name}' ended.",
    )


HANDLERS = {"strmqm": strmqm}
