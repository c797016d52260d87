"""The objects a new queue manager starts with (crtmqm's default objects)."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources

from mqsh.commands.context import Context
from mqsh.core.clock import mq_date, mq_time
from mqsh.language.lines import split_commands
from mqsh.language.validate import Command, MqscSyntaxError, parse_command
from mqsh.responses import Result


def default_definitions() -> list[str]:
    script = resources.files("mqsh.commands.control").joinpath("default_objects.mqsc").read_text()
    return [chunk.text for chunk in split_commands(script) if chunk.text]


def create_qmgr_object(ctx: Context) -> None:
    """The queue manager object itself, with its QMID (name, creation date and time) and the
    certificate label crtmqm gives it. (SSLKEYR stays blank: MQ's default names the data
    path, which would make every log record's place depend on where the data lies.)"""
    qmgr = ctx.qmgr
    spec = ctx.catalogue.objects["QMGR"]
    now = ctx.clock.now()
    attributes = dict(spec.variant().defaults)
    attributes.update(
        {
            "QMNAME": qmgr.name,
            "QMID": f"{qmgr.name}_{now:%Y-%m-%d_%H.%M.%S}",
            "CERTLABL": f"ibmwebspheremq{qmgr.name.lower()}",
            "CRDATE": mq_date(now),
            "CRTIME": mq_time(now),
            "ALTDATE": mq_date(now),
            "ALTTIME": mq_time(now),
        }
    )
    qmgr.save_object("QMGR", "QMGR", qmgr.name, attributes)


def create_default_objects(ctx: Context, run: Callable[[Context, Command], Result]) -> tuple[int, int]:
    """(created, failed): each default definition runs as an ordinary command."""
    created = failed = 0
    for text in default_definitions():
        try:
            command = parse_command(text, ctx.catalogue)
        except MqscSyntaxError:
            failed += 1
            continue
        result = run(ctx, command)
        if result.ok:
            created += 1
        else:
            failed += 1
    return created, failed


def replace_default_objects(ctx: Context, run: Callable[[Context, Command], Result]) -> tuple[int, int, int]:
    """(created, replaced, failed) for strmqm -c: each default and system object is defined again
    with REPLACE and its defaults, so that one of that name goes back to them; others stay as they are.
    The channel authentication records are not objects, and stay as they were set."""
    created = replaced = failed = 0
    for text in default_definitions():
        if not text.upper().startswith("DEFINE"):
            continue
        try:
            command = parse_command(f"{text} REPLACE", ctx.catalogue)
        except MqscSyntaxError:
            failed += 1
            continue
        spec = ctx.catalogue.objects[command.target]
        existed = ctx.qmgr.catalog.lookup(spec.family or spec.name, command.name) is not None
        if not run(ctx, command).ok:
            failed += 1
        elif existed:
            replaced += 1
        else:
            created += 1
    return created, replaced, failed
