"""LAB TIMELINE [QMGR(name) | CFSTRUCT(name)] [SVG('file')]: a log's story as a picture.

For a queue manager: its log extents (active from the restart point's extent
on, inactive before it, archived once SET LOG ARCHIVED said so, missing where
the numbers have a gap), the checkpoints and media images the log holds, the
restart point (RECLOG) and media recovery point (MEDIALOG) the log control
file names, and the failures and recoveries it went through (the recovery
history mqsh.recovery.ledger keeps), and the file-level copies LAB BACKUP
kept of it. For a structure of a queue-sharing group: each member's log,
with the structure's backup, its purge and its last recovery where they lie.
Drawn along the simulated clock (mqsh.lab.timeline_axis) to the terminal's
width, or written as SVG.
"""

from __future__ import annotations

from mqsh.commands.context import Context
from mqsh.lab.backup import copies_of
from mqsh.lab.picture_output import deliver
from mqsh.lab.shell import Shell
from mqsh.lab.timeline_axis import Lane, Mark, moment_of
from mqsh.lab.timeline_draw import Picture, svg, text_lines
from mqsh.lab.timeline_log import extent_spans, log_marks
from mqsh.language.validate import Command
from mqsh.recovery import ledger, logscan
from mqsh.responses import Result
from mqsh.store import clocknotes
from mqsh.store import log as logstore
from mqsh.store.datadir import QmgrPaths
from mqsh.store.files import CorruptFile, read_document
from mqsh.store.qmini import read_stanzas


def _control(paths: QmgrPaths) -> dict:
    try:
        return read_document(paths.control_file)
    except (OSError, CorruptFile):
        return {}


def _archived(paths: QmgrPaths) -> set[int]:
    try:
        return set(read_document(paths.log_root / "amqharch.lfh").get("archived", []))
    except (OSError, CorruptFile, AttributeError):
        return set()


def _inside_name(paths: QmgrPaths) -> str:
    """The queue manager's own name, which a disaster-recovery copy (LAB RESTORE ... AS) keeps from the
    backup it was made from - so that the copy's picture shows that backup too."""
    try:
        return read_stanzas(paths.qm_ini).get("QueueManager", {}).get("Name") or paths.name
    except OSError:
        return paths.name


def qmgr_picture(paths: QmgrPaths) -> Picture:
    log_dir = paths.log_dir
    control = _control(paths)
    marks = log_marks(log_dir)
    active_from = None
    if "restart_lsn" in control:
        restart = control["restart_lsn"]
        marks.append(
            Mark(restart, "restart point (RECLOG)", "restart point (RECLOG): restart replays from here")
        )
        try:
            active_from = logscan.extent_holding(log_dir, restart)
        except logstore.ExtentMissing:
            active_from = None
    media = [lsn for key, lsn in control.get("media", {}).items() if not key.startswith("CATALOG/")]
    if media:
        marks.append(
            Mark(
                min(media),
                "media recovery point (MEDIALOG)",
                "media recovery point (MEDIALOG): the oldest media image still needed",
            )
        )
    for event in ledger.history(paths.qmgr_dir):
        if event.get("failed_lsn") is not None or event.get("failed_at"):
            lsn = event.get("failed_lsn")
            marks.append(
                Mark(
                    None if lsn is None else max(lsn - 1, 0),
                    "failure",
                    f"{event['cause']}",
                    moment_of(event.get("failed_at")),
                )
            )
        if event.get("lsn") is not None:
            what = {"rcrmqobj": "rcrmqobj", "automatic": "automatic media recovery"}.get(
                event.get("kind", ""), "restart recovery"
            )
            marks.append(Mark(event["lsn"], "recovery", what, moment_of(event.get("at"))))
    for copy in copies_of(paths.data_dir, _inside_name(paths), log_dir, paths.log_root):
        to = "no log record" if copy.last_lsn is None else f"its log to LSN {copy.last_lsn}"
        marks.append(Mark(copy.last_lsn, "copy", f"LAB BACKUP TO({copy.name}): {to}", moment_of(copy.taken)))
    spans = extent_spans(log_dir, active_from, _archived(paths))
    bounds = f"LSN {spans[0].first} - {spans[-1].last}" if spans else "no log extents"
    return Picture(
        f"Log of queue manager {paths.name}: {bounds}",
        [Lane(paths.name, spans, marks, clocknotes.read(paths.log_root))],
    )


def _deliver(picture: Picture, command: Command) -> Result:
    return deliver(command, lambda width: text_lines(picture, width), lambda: svg(picture), picture.title)


def timeline(ctx: Context, command: Command, shell: Shell) -> Result:
    name = command.params.get("QMGR") or shell.current_qmgr
    if not name or not ctx.installation.exists(name):
        return Result.failure("IBM MQ queue manager does not exist.", "AMQ8118E")
    if "CFSTRUCT" in command.params:
        from mqsh.lab import (
            timeline_cf,  # a group's structure: loads the group's modules only when asked
        )

        picture = timeline_cf.picture(ctx, name, command.params["CFSTRUCT"])
        if isinstance(picture, Result):
            return picture
        return _deliver(picture, command)
    return _deliver(qmgr_picture(ctx.installation.paths(name)), command)
