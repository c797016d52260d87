"""Restart: the objects, the log and the units of work brought back as they were, at each start.

The order is KahaDB's and MQ's (mqsh.recovery.restart): finish a checkpoint's
redo, load the object files, replay the log from the restart point, mark what
is damaged, re-create what must be, and back out the units left in flight.
"""

from __future__ import annotations

import errno
from dataclasses import dataclass, field
from typing import Any

from mqsh.core.clock import TIMESTAMP
from mqsh.core.damage import CATALOG_KEY, StartRefused, error_log_type, report_damage
from mqsh.core.objects import MQObject
from mqsh.core.progress import counted, status_line
from mqsh.model.basics import QmgrBasics
from mqsh.model.catalog import ObjectCatalog
from mqsh.model.checkpoints import Checkpoints
from mqsh.model.images import MediaImages
from mqsh.model.journal import Journal
from mqsh.model.messages import MessageStore
from mqsh.recovery import accounts, ledger, logscan, restart
from mqsh.recovery.accounts import QueueAccount
from mqsh.recovery.media import recreate as media_recovery
from mqsh.recovery.replay import reference as replay
from mqsh.store import log as logstore
from mqsh.store import putnotes, redo
from mqsh.store.records import ObjectDeleted, decode


@dataclass
class StartReport:
    replayed: int = 0
    backed_out: int = 0
    unclean: bool = False
    redo_files: int | None = None  # object files rewritten from a cut-short checkpoint's redo record
    full_replay: bool = False  # no log control file: the whole log was replayed
    verified: int | None = None  # records checked by the log integrity scan
    skipped: list[str] = field(default_factory=list)  # missing extents passed over
    damaged: list[MQObject] = field(default_factory=list)
    recreated: list[MQObject] = field(default_factory=list)
    catalog_rebuilt: bool = False
    # Where each queue's messages came from (queues left with messages or with units backed out),
    # and the extents the replay read; told when the start recovered (unclean, or units backed out).
    accounts: list[QueueAccount] = field(default_factory=list)
    extents: str = ""


class Restart:
    def __init__(
        self,
        basics: QmgrBasics,
        catalog: ObjectCatalog,
        journal: Journal,
        media_images: MediaImages,
        checkpoints: Checkpoints,
        units: MessageStore,
    ):
        self.paths = basics.paths
        self.name = basics.paths.name
        self.clock = basics.clock
        self.engine = basics.engine
        self.errors = basics.errors
        self.config = basics.config
        self.catalog = catalog
        self.journal = journal
        self.media_images = media_images
        self.checkpoints = checkpoints
        self.units = units

    def recover(self, options: restart.StartOptions) -> StartReport:
        report = StartReport(redo_files=redo.apply(redo.redo_path(self.paths.log_root), self.paths.data_dir))
        failure = ledger.read_failure(self.paths.qmgr_dir)  # what LAB CRASH or endmqm saw as it ended
        control = self.checkpoints.read_control()
        report.unclean = control.get("state") != "clean"
        loaded = restart.load_object_files(self.paths, self.catalog.files)
        listed = restart.read_catalog_file(self.paths.catalog)
        on_file = {
            key: [message.msgid for message in obj.messages]
            for key, obj in loaded.state.items()
            if obj.namespace == "QUEUE"
        }
        log_dir = self.paths.log_dir
        if options.verify_log:
            report.verified = logscan.verify(log_dir)
        if control:
            from_lsn = control.get("restart_lsn", 0)
            first_extent = self._restart_extent(control.get("restart_extent", 0), from_lsn)
            if listed is not None:
                restart.set_aside_stale(loaded, listed, from_lsn, self.catalog.files)
        else:
            # Nothing says how far the object files got, so the whole log is
            # replayed - which needs the log from its very first record. Only the
            # first start (in crtmqm) finds no log at all and no object files either.
            if not logstore.list_extents(log_dir) and (loaded.state or loaded.bad):
                raise StartRefused("AMQ6767E", restart.lost_log_text(log_dir), code=23)
            if not logscan.complete_from_start(log_dir):
                raise StartRefused("AMQ6767E", restart.incomplete_log_text(log_dir), code=23)
            first_extent, from_lsn = 0, 0
            report.full_replay = bool(logstore.list_extents(log_dir))
        self.catalog.state = loaded.state
        self.media_images.media = dict(control.get("media", {}))
        skipped = report.skipped if options.ignore_missing else None
        self._check_newest_extent(control, skipped)
        base_lsns = {key: obj.lsn for key, obj in self.catalog.state.items()}
        # A whole-log replay (columnar in process, or Spark) builds a new State, so a failed or
        # cancelled one changes nothing; it reports the object records, which is what media
        # tracking and damage need, and the units of work left open. Passing over missing
        # extents is the reference replayer's.
        where = "reference" if skipped is not None else self.engine.where(log_dir, first_extent, from_lsn)
        if where != "reference" and logstore.list_extents(log_dir):
            replayed = self.engine.replay_whole(
                where,
                self.catalog.state,
                log_dir,
                first_extent,
                from_lsn,
                control.get("uows", {}),
                self._lost_queues(loaded, listed),
            )
            self.catalog.state, report.replayed, records = (
                replayed.state,
                replayed.count,
                replayed.object_records,
            )
            for record in records:
                self.media_images.note_media(record)
            in_flight = replayed.units
        else:
            with status_line("reading the log to replay it") as progress:
                records = (
                    list(counted(logscan.records(log_dir, first_extent, from_lsn, skipped), progress))
                    if logstore.list_extents(log_dir)
                    else []
                )
            report.replayed = replay.replay(
                self.catalog.state,
                self.media_images.track_media(records),
                putnotes.read(log_dir.parent),
            )
            in_flight = restart.units_in_flight(control.get("uows", {}), records)
            # An image may bring back a lost queue with work of a unit whose records all came before
            # the restart point: the pending messages name it (as the whole-log replays find it).
            for uow, queues in replay.in_flight(self.catalog.state).items():
                in_flight.setdefault(uow, set()).update(queues)
        self.catalog.changed |= {
            key for key, obj in self.catalog.state.items() if base_lsns.get(key) != obj.lsn
        }
        self._remove_deleted_files(records, loaded)
        if control:
            self._mark_start_damage(loaded, listed, records, report)
        for key in loaded.bad:
            # An unreadable file whose object the replay re-created whole is simply overwritten.
            if key in self.catalog.state and not self.catalog.state[key].damaged:
                self.catalog.files.remember(key, self.catalog.object_path(self.catalog.state[key]))
        next_lsn = max([control.get("next_lsn", 0)] + [obj.lsn + 1 for obj in self.catalog.state.values()])
        self.checkpoints.restart_point = from_lsn
        self.checkpoints.log_start = control.get("log_start") or {
            "lsn": from_lsn,
            "time": self.clock.now().isoformat(),
        }
        self.journal.open(
            next_lsn,
            self.checkpoints.oldest_restart_lsn,
            self.media_images.oldest_media_lsn,
            self.checkpoints.note_current_extent,
        )
        self.units.ids_from = next_lsn
        log_end = self.journal.log.next_lsn  # the log's own end: the newest record replayed is before it
        self._recover_at_start(in_flight, report)
        # A member of a queue-sharing group also catches its structures up with its log, and
        # backs out there the units it left in flight.
        group = self.units.group()
        shared_units = group.restart(log_dir, first_extent, from_lsn) if group is not None else {}
        for uow in shared_units:
            in_flight.setdefault(uow, set())
        replayed = ledger.snapshot(self.catalog.state.values()) if report.unclean or in_flight else {}
        for uow, queues in sorted(in_flight.items()):
            if group is not None:
                group.unit_structures = dict.fromkeys(shared_units.get(uow, ()), 0)
            self.units.log_unit_end("BCK", uow, sorted(queues))
            report.backed_out += 1
        if report.unclean or report.backed_out:
            self._account(report, on_file, in_flight, first_extent)
        try:
            if (report.unclean or report.backed_out) and (
                control or report.full_replay
            ):  # not crtmqm's first start
                ledger.save(
                    self.paths.qmgr_dir,
                    ledger.restart_explanation(
                        ledger.RestartFacts(
                            self.name,
                            f"{self.clock.now():{TIMESTAMP}}",
                            where,
                            from_lsn if control else None,
                            report.replayed,
                            report.backed_out,
                            ledger.extents_read(log_dir, first_extent, log_end),
                            on_file,
                            {
                                obj.key: self.media_images.media[obj.key]
                                for obj in report.recreated
                                if obj.key in self.media_images.media
                            },
                            replayed,
                            report.skipped,
                            failure,
                        ),
                        self.catalog.state.values(),
                    ),
                )
            self.checkpoints.checkpoint()
        except OSError as error:
            if error.errno != errno.ENOSPC:
                raise
            # A full disk: the queue manager runs without its restart checkpoint (and without this
            # recovery's explanation), so that what is there can be displayed and ended; the restart
            # point stays, and the next checkpoint writes what this one could not (Checkpoints.checkpoint).
        ledger.forget_failure(self.paths.qmgr_dir)  # recovered from: the next failure is noted afresh
        return report

    def _account(
        self,
        report: StartReport,
        on_file: dict[str, list[str]],
        in_flight: dict[str, set[str]],
        first_extent: int,
    ) -> None:
        """Each queue's account: found on its file (or, for one re-created at start, in its media
        image), or replayed from the log; with the units of work backed out on it."""
        from_image = {obj.key for obj in report.recreated if obj.key in self.media_images.media}
        for key in from_image:
            on_file[key] = list(accounts.message_ids_at(self.paths.log_dir, self.media_images.media[key]))
        units: dict[str, int] = {}
        for queues in in_flight.values():
            for queue in queues:
                units[queue] = units.get(queue, 0) + 1
        for key, obj in sorted(self.catalog.state.items()):
            if obj.object_type != "QLOCAL" or obj.damaged or not (obj.messages or units.get(obj.name)):
                continue
            report.accounts.append(
                accounts.account(
                    obj,
                    on_file.get(key, ()),
                    units.get(obj.name, 0),
                    "the media image" if key in from_image else "the queue file",
                )
            )
        if report.accounts:
            report.extents = accounts.extents_read(self.paths.log_dir, first_extent)

    def _remove_deleted_files(self, records: list, loaded: restart.LoadedFiles) -> None:
        """The files of objects the replay deleted again. A DELETE removes its object's file after
        its log record is written, or behind the command: a kill in between leaves the file. The
        replay deletes the object from what the start loaded, but the file must go too, before the
        checkpoint that ends the start moves the restart point past the record: the next start
        would load the object from it again."""
        deleted = {
            typed.key for typed in map(decode, records) if isinstance(typed, ObjectDeleted)
        } - self.catalog.state.keys()
        for key in sorted(deleted):
            if key in loaded.state:
                namespace, name = loaded.state[key].namespace, loaded.state[key].name
            elif key in loaded.bad:
                namespace, _, name = loaded.bad[key]
            else:
                continue  # no file was there
            self.catalog.remove_object_file(key, self.paths.object_file(namespace, name))

    def _restart_extent(self, recorded: int, from_lsn: int) -> int:
        """The extent replay starts in: the one the last checkpoint named, unless it has gone since.

        A checkpoint taken as its extent fills names that extent, though the
        restart point is the first record of the next; nothing then needs the
        named extent, and the log may reuse or delete it. The extent that holds
        the restart point is where replay starts. An extent that is missing
        and needed is still reported as missing.
        """
        present = logstore.list_extents(self.paths.log_dir)
        if not present or recorded in present or recorded > present[-1]:
            return recorded
        try:
            holding = logscan.extent_holding(self.paths.log_dir, from_lsn)
        except logstore.ExtentMissing:
            return recorded
        return max(recorded, holding)

    def _check_newest_extent(self, control: dict[str, Any], skipped: list[str] | None) -> None:
        """The log must reach the extent the control file last recorded as current.

        A missing extent between others shows as a gap in the numbers; a missing
        newest extent shows only here.
        """
        current = control.get("current_extent")
        present = logstore.list_extents(self.paths.log_dir)
        if current is None or (present and present[-1] >= current):
            return
        missing = logstore.extent_file_name(self.paths.log_dir, current)
        if skipped is None:
            raise logstore.ExtentMissing(missing)
        skipped.append(missing)

    def _lost_queues(self, loaded: restart.LoadedFiles, listed: restart.Catalog | None) -> set[str]:
        """Queues whose files were missing or unusable at start, as far as the catalog tells."""
        catalog = (listed.objects if listed is not None else None) or restart.catalog_from_media(
            self.media_images.media, self.catalog.state
        )
        return {
            name
            for namespace, _type, name in restart.suspects(loaded, catalog, []).values()
            if namespace == "QUEUE"
        }

    def _mark_start_damage(
        self, loaded: restart.LoadedFiles, listed: restart.Catalog | None, records: list, report: StartReport
    ) -> None:
        """Objects whose files were unusable and that the replay did not re-create whole are damaged."""
        catalog = listed.objects if listed is not None else None
        if catalog is None:
            # The catalog is rebuilt from what the log knows: every object
            # with a media recovery record has not been deleted.
            report.catalog_rebuilt = True
            report_damage(
                self.errors,
                "QMQMOBJCAT",
                "catalog",
                "the object catalog could not be read; it is rebuilt from the object files and the log",
            )
            catalog = restart.catalog_from_media(self.media_images.media, self.catalog.state)
            # Taken as read: the checkpoint that ends the start writes the rebuilt catalog over it.
            self.catalog.files.remember(CATALOG_KEY, self.paths.catalog)
        for key, (namespace, object_type, name) in sorted(restart.suspects(loaded, catalog, records).items()):
            obj = MQObject(object_type, name, {}, namespace, damaged=True)
            self.catalog.state[key] = obj
            self.catalog.changed.discard(key)
            detail = "its object file is missing or damaged"
            if key in loaded.stale:
                detail = (
                    "its object file is older than the queue manager's record of it: it reflects the log "
                    "up to record {} and was last written at record {}".format(*loaded.stale[key])
                )
            report_damage(self.errors, name, error_log_type(obj), detail)
            report.damaged.append(obj)

    def _recover_at_start(self, in_flight: dict[str, set[str]], report: StartReport) -> None:
        """The queue manager object, and queues holding in-flight work, come back from their images."""
        wanted = [
            obj.key
            for obj in report.damaged
            if obj.object_type == "QMGR" or any(obj.name in queues for queues in in_flight.values())
        ]
        if not wanted:
            self.media_images.auto_recovery.schedule_all(report.damaged)
            return
        if not self.config.supports_media_recovery:
            if any(obj.object_type == "QMGR" for obj in report.damaged):
                raise StartRefused("AMQ7472E", restart.circular_qmgr_text(self.name))
            return  # the damaged queues stay damaged; their uncommitted messages are ignored
        try:
            report.recreated = self.media_images.recreate(wanted)
        except (logstore.ExtentMissing, media_recovery.NoMediaImage) as error:
            raise StartRefused("AMQ6767E", restart.unrecoverable_text(error), code=23) from None
        self.media_images.auto_recovery.schedule_all(obj for obj in report.damaged if obj.damaged)
