"""Control commands: crtmqm, strmqm, endmqm, dltmqm, dspmq (and media recovery, csq5pqsg, dmpmqcfg).

They run the same way from the operating system (``mqsh crtmqm QM1``) and from
inside the shell (``crtmqm QM1`` on a line of its own). Their words and exit
codes follow MQ's (crtmqm 8 = exists, strmqm 5 = running, 16 = no such queue
manager).
"""

from __future__ import annotations

import argparse
import importlib
import re
import shlex
from collections.abc import Iterator, Mapping
from functools import cache

from mqsh import __version__
from mqsh.commands.context import Context
from mqsh.commands.control.defaults import create_default_objects, create_qmgr_object
from mqsh.commands.control.parsing import (
    EXISTS,
    NAME_ERROR,
    NOT_VALID,
    RUNNING_RC,
    UNEXPECTED,
    ControlParser,
    Runner,
    number,
    qmgr_not_available,
)
from mqsh.commands.control.parsing import control_parser as _parser
from mqsh.commands.control.parsing import lines as _lines
from mqsh.commands.control.parsing import unknown_qmgr as _unknown
from mqsh.core.reasons import MQError
from mqsh.model import sharing_groups as groups
from mqsh.model.installation import (
    CONTROLLED,
    IMMEDIATE,
    INSTALLATION_NAME,
    INSTALLATION_PATH,
    PREEMPTIVE,
    WAIT,
    EndedWithoutCheckpoint,
    LogOptions,
)
from mqsh.model.logspace import MANAGEMENT
from mqsh.model.qmgr_directory import RUNNING, STATUS_WORDS, valid_qmgr_name
from mqsh.responses import Result
from mqsh.store.lock import QmgrInUse

HOST_NAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$")


# What dspmq -o can show, in the order -o all shows it.
DSPMQ_FIELDS = ("status", "default", "standby", "installation", "nativeha", "all")


# Each control command by the module that parses and carries it out (its parsers() and HANDLERS),
# imported when the command is first used or asked about: a report that runs no dmpmqcfg loads
# nothing of it. The one place that names them, in the order help and usage list them.
CONTROL_MODULES: dict[str, str] = {
    "crtmqm": __name__,
    "strmqm": "mqsh.commands.control.strmqm",
    "endmqm": __name__,
    "dltmqm": __name__,
    "dspmq": __name__,
    "rcdmqimg": "mqsh.commands.control.media",
    "rcrmqobj": "mqsh.commands.control.media",
    "rcdmqmimg": "mqsh.commands.control.media",
    "csq5pqsg": "mqsh.commands.control.csq5pqsg",
    "dmpmqcfg": "mqsh.commands.control.dmpmqcfg",
    "audit": "mqsh.commands.control.audit",
}


def parsers() -> dict[str, ControlParser]:
    crtmqm = _parser("crtmqm", "Create a queue manager.")
    logging = crtmqm.add_mutually_exclusive_group()
    logging.add_argument(
        "-lc", dest="log_type", action="store_const", const="CIRCULAR", help="circular logging (default)"
    )
    logging.add_argument("-ll", dest="log_type", action="store_const", const="LINEAR", help="linear logging")
    logging.add_argument(
        "-lr",
        dest="log_type",
        action="store_const",
        const="REPLICATED",
        help="replicated logging (Native HA)",
    )
    crtmqm.add_argument(
        "-lf",
        dest="file_pages",
        type=number,
        default=4096,
        help="log file pages (4 KB each, up to 65535; MQ itself takes 64 or more)",
    )
    crtmqm.add_argument("-lp", dest="primary", type=number, default=3, help="primary log files (2-510)")
    crtmqm.add_argument("-ls", dest="secondary", type=number, default=2, help="secondary log files (1-509)")
    # qm.ini Log stanza settings MQ leaves to editing the file, settable at creation here.
    crtmqm.add_argument(
        "--log-management",
        dest="management",
        type=str.upper,
        choices=MANAGEMENT,
        help="LogManagement of a linear log: MANUAL (default), ARCHIVE or AUTOMATIC",
    )
    crtmqm.add_argument(
        "--log-fs-size",
        dest="fs_size",
        type=number,
        metavar="MB",
        help="size of the log file system in MB (default: shared, not a limit)",
    )
    crtmqm.add_argument(
        "--checkpoint-records",
        dest="checkpoint_records",
        type=number,
        metavar="N",
        help="log records between checkpoints (default 10000)",
    )
    crtmqm.add_argument("-q", dest="default", action="store_true", help="make it the default queue manager")
    crtmqm.add_argument(
        "--host",
        dest="host",
        metavar="NAME",
        help="host it runs on in the lab's network (default: its name in lower case)",
    )
    crtmqm.add_argument("qmgr")

    endmqm = _parser("endmqm", "End a queue manager.")
    mode = endmqm.add_mutually_exclusive_group()
    mode.add_argument(
        "-c",
        dest="mode",
        action="store_const",
        const=CONTROLLED,
        help="controlled (default): the open unit of work is backed out, then a clean end",
    )
    mode.add_argument(
        "-w", dest="mode", action="store_const", const=WAIT, help="controlled, waiting for the end"
    )
    mode.add_argument(
        "-i",
        dest="mode",
        action="store_const",
        const=IMMEDIATE,
        help="immediate: units of work in flight are backed out at the next start",
    )
    mode.add_argument(
        "-p",
        dest="mode",
        action="store_const",
        const=PREEMPTIVE,
        help="preemptive: no shutdown processing at all, as in a failure",
    )
    endmqm.set_defaults(mode=CONTROLLED)
    endmqm.add_argument(
        "-r",
        dest="reconnect",
        action="store_true",
        help="clients reconnect elsewhere (mqsh's own connection has nowhere to go)",
    )
    endmqm.add_argument("qmgr", nargs="?")

    dltmqm = _parser("dltmqm", "Delete a queue manager.")
    dltmqm.add_argument("qmgr")

    dspmq = _parser("dspmq", "Display queue managers.")
    dspmq.add_argument("-m", dest="qmgr")
    dspmq.add_argument("-s", dest="shown", action="append_const", const="status", help="status (the default)")
    dspmq.add_argument(
        "-o",
        dest="shown",
        action="append",
        choices=list(DSPMQ_FIELDS),
        help="what to show; all of it with -o all",
    )
    dspmq.add_argument("-x", dest="instances", action="store_true", help="the instance running each one")
    dspmq.add_argument("-a", dest="active", action="store_true", help="running queue managers only")
    dspmq.add_argument(
        "-n", dest="untranslated", action="store_true", help="(mqsh's strings are not translated)"
    )
    return {"crtmqm": crtmqm, "endmqm": endmqm, "dltmqm": dltmqm, "dspmq": dspmq}


class _Parsers(Mapping[str, ControlParser]):
    """Each control command's parser, made when it is first asked for."""

    def __iter__(self) -> Iterator[str]:
        return iter(CONTROL_MODULES)

    def __len__(self) -> int:
        return len(CONTROL_MODULES)

    def __getitem__(self, name: str) -> ControlParser:
        return _module_parsers(CONTROL_MODULES[name])[name]


@cache
def _module_parsers(module: str) -> dict[str, ControlParser]:
    return importlib.import_module(module).parsers()


CONTROL_COMMANDS: Mapping[str, ControlParser] = _Parsers()


def crtmqm(ctx: Context, args: argparse.Namespace, run: Runner) -> Result:
    installation = ctx.installation
    name = args.qmgr
    if not valid_qmgr_name(name):
        return _unknown(code=NAME_ERROR)
    if installation.exists(name):
        return _lines(f"AMQ8110E: IBM MQ queue manager '{name}' already exists.", ok=False, code=EXISTS)
    if name in groups.groups(installation):
        return _lines(
            f"mqsh: '{name}' is the name of a queue sharing group; a queue manager's name must differ "
            "from it.",
            ok=False,
            code=NAME_ERROR,
        )
    options = LogOptions(
        args.log_type or "CIRCULAR",
        args.file_pages,
        args.primary,
        args.secondary,
        args.management,
        args.fs_size,
        args.checkpoint_records,
    )
    problem = options.problem()
    if problem:
        return _lines(f"crtmqm: {problem}", ok=False, code=NOT_VALID)
    if args.host is not None and not HOST_NAME.match(args.host):
        return _lines(
            f"crtmqm: '{args.host}' is not a host name: letters, digits, '-' and '.', up to 253.",
            ok=False,
            code=NOT_VALID,
        )
    # Only -q changes the default; the first queue manager becomes it (asked before this
    # one exists, which would otherwise stand as the only one).
    was_default = installation.default_name()
    try:
        if args.default or was_default is None:
            installation.set_default(name)
        qmgr = installation.create(name, options, args.host)
        # Creation starts the queue manager long enough to write its objects, as
        # MQ does, so that they are logged like any later definition.
        qmgr.start()
        try:
            setup = Context(ctx.catalogue, installation, qmgr)
            create_qmgr_object(setup)
            created, failed = create_default_objects(setup, run)
        finally:
            qmgr.shutdown()
    except (OSError, MQError) as error:
        # A full disk (or a directory that cannot be written): no half-made queue manager is left.
        installation.discard_unmade(name, was_default)
        why = error.strerror if isinstance(error, OSError) else f"MQRC {error.reason}"
        return _lines(
            f"AMQ7002E: An error occurred manipulating a file ({why}). Queue manager '{name}' "
            "was not created.",
            ok=False,
            code=UNEXPECTED,
        )
    return _lines(
        "IBM MQ queue manager created.",
        f"Directory '{qmgr.paths.qmgr_dir}' created.",
        f"Creating or replacing default objects for {name}.",
        f"Default objects statistics : {created} created. 0 replaced. {failed} failed.",
        "Completing setup.",
        "Setup completed.",
    )


def endmqm(ctx: Context, args: argparse.Namespace, run: Runner) -> Result:
    installation = ctx.installation
    name = args.qmgr or installation.default_name()
    if not name or not installation.exists(name):
        return _unknown()
    if name not in installation.held and installation.status(name) != RUNNING:
        return qmgr_not_available()
    try:
        installation.connect(name)  # a queue manager left running by another run is ended cleanly too
    except QmgrInUse as error:
        return _lines(f"AMQ8041E: {error}.", ok=False, code=RUNNING_RC)
    try:
        installation.end(name, args.mode)
    except EndedWithoutCheckpoint:
        return _lines(
            f"IBM MQ queue manager '{name}' ending.",
            f"AMQ6708E: A disk full condition was encountered: queue manager '{name}' ended without "
            "its shutdown checkpoint. The next strmqm recovers it from the log.",
            f"IBM MQ queue manager '{name}' ended.",
        )
    if args.mode == CONTROLLED:
        # The request returns at once in MQ; here nothing is left to wait for when it does.
        return _lines(
            "Quiesce request accepted. The queue manager will stop when all outstanding work is complete."
        )
    if args.mode == WAIT:
        return _lines(f"Waiting for queue manager '{name}' to end.", f"IBM MQ queue manager '{name}' ended.")
    return _lines(f"IBM MQ queue manager '{name}' ending.", f"IBM MQ queue manager '{name}' ended.")


def dltmqm(ctx: Context, args: argparse.Namespace, run: Runner) -> Result:
    installation = ctx.installation
    name = args.qmgr
    if not installation.exists(name):
        return _unknown()
    if name in installation.held or installation.status(name) == RUNNING:
        return _lines(
            f"AMQ7017E: Queue manager '{name}' is running; end it first with endmqm.",
            ok=False,
            code=RUNNING_RC,
        )
    group = groups.membership(installation, name)
    if group is not None:
        # A member's entry in the shared repository would outlive it (z/OS: CSQ5PQSG REMOVE QMGR first).
        return _lines(
            f"mqsh: Queue manager '{name}' is a member of queue sharing group {group}; remove it "
            f"first: csq5pqsg REMOVE QMGR,{name},{group}",
            ok=False,
            code=UNEXPECTED,
        )
    installation.delete(name)
    return _lines(f"IBM MQ queue manager '{name}' deleted.")


def _dspmq_fields(
    installation, name: str, status: str, kind: str, default: str | None
) -> list[tuple[str, str]]:
    """What dspmq -o kind shows of a queue manager, as (field, value) pairs in MQ's order."""
    running = status == RUNNING
    if kind == "status":
        return [("STATUS", STATUS_WORDS[status])]
    if kind == "default":
        return [("DEFAULT", "yes" if default == name else "no")]
    if kind == "standby":
        return [("STANDBY", "Not permitted" if running else "Not applicable")]
    if kind == "installation":
        return [
            ("INSTNAME", INSTALLATION_NAME),
            ("INSTPATH", str(INSTALLATION_PATH)),
            ("INSTVER", __version__),
        ]
    # nativeha: mqsh runs the one instance of a replicated queue manager, in sync with itself.
    replicated = installation.log_type(name) == "REPLICATED"
    return [
        ("ROLE", ("Active" if running else "Unknown") if replicated else "Not configured"),
        ("INSTANCE", installation.host(name) if replicated else ""),
        ("INSYNC", "yes" if replicated and running else ""),
        ("QUORUM", "1/1" if replicated and running else ""),
        ("GRPLSN", ""),
        ("GRPNAME", ""),
        ("GRPROLE", "Not configured"),
    ]


def dspmq(ctx: Context, args: argparse.Namespace, run: Runner) -> Result:
    """dspmq: each queue manager's name and what -s and -o ask for (-s when nothing is asked);
    -x adds the instance running it, -a leaves out those not running."""
    installation = ctx.installation
    names = [args.qmgr] if args.qmgr else installation.names()
    if args.qmgr and not installation.exists(args.qmgr):
        return _unknown(72)
    asked = set(args.shown or ["status"])
    kinds = [kind for kind in DSPMQ_FIELDS[:-1] if kind in asked or "all" in asked]
    default = installation.default_name() if "default" in kinds else None
    lines = []
    for name in names:
        status = installation.status(name)
        if args.active and status != RUNNING:
            continue
        shown = " ".join(
            f"{field}({value})"
            for kind in kinds
            for field, value in _dspmq_fields(installation, name, status, kind, default)
        )
        group = groups.membership(installation, name)
        if group is not None:
            shown += f" QSGNAME({group})"  # z/OS's name for it; shown only for members
        lines.append(f"{f'QMNAME({name})':<58}{shown}")
        if args.instances and status == RUNNING:
            lines.append(f"    INSTANCE({installation.host(name)}) MODE(Active)")
    return _lines(*lines)


HANDLERS = {"crtmqm": crtmqm, "endmqm": endmqm, "dltmqm": dltmqm, "dspmq": dspmq}


def is_control(text: str) -> bool:
    words = text.split(None, 1)
    return bool(words) and words[0].lower() in CONTROL_MODULES


def run_control(ctx: Context, text: str, run: Runner) -> Result:
    """One control command line: 'crtmqm -ll QM2'."""
    try:
        words = shlex.split(text)
    except ValueError as error:
        return _lines(f"mqsh: {error}", ok=False, code=NOT_VALID)
    name = words[0].lower()
    try:
        args = CONTROL_COMMANDS[name].parse_args(words[1:])
    except ValueError as error:
        return _lines(
            f"{CONTROL_COMMANDS[name].prog}: {error}",
            f"usage: {CONTROL_COMMANDS[name].format_usage().strip()[7:]}",
            ok=False,
            code=NOT_VALID,
        )  # MQ's control commands: 36, invalid arguments
    return importlib.import_module(CONTROL_MODULES[name]).HANDLERS[name](ctx, args, run)
