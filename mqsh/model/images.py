"""Media images: each object's media recovery record, the images that move it, and objects
re-created from them (rcrmqobj, restart, and a replicated log's automatic recovery)."""

from __future__ import annotations

from typing import Any

from mqsh.core.clock import TIMESTAMP
from mqsh.core.damage import CATALOG_KEY
from mqsh.core.objects import MQObject
from mqsh.model.basics import QmgrBasics
from mqsh.model.catalog import ObjectCatalog
from mqsh.model.forward import forward
from mqsh.model.journal import Journal
from mqsh.recovery import accounts, ledger, logscan
from mqsh.recovery.media import recreate as media_recovery
from mqsh.recovery.media.coverage import held_on, recoverable
from mqsh.recovery.media.imaging import ImageSchedule
from mqsh.recovery.media.native_ha import AutoRecovery
from mqsh.store import records


class MediaImages:
    def __init__(self, basics: QmgrBasics, catalog: ObjectCatalog, journal: Journal):
        self.paths = basics.paths
        self.clock = basics.clock
        self.errors = basics.errors
        self.engine = basics.engine
        self.config = basics.config
        self.catalog = catalog
        self.journal = journal
        # Each object's media recovery record: the LSN where its latest media
        # image starts (its creation record until an image is taken).
        self.media: dict[str, int] = {}
        self.images = ImageSchedule(self)
        self.auto_recovery = AutoRecovery(self)

    # What imaging and automatic recovery read (mqsh.recovery.media.imaging.Imaged, native_ha.Recovering).
    log = forward("journal", "log")
    extent_bytes = forward("config", "extent_bytes")
    log_type = forward("config", "log_type")
    supports_media_recovery = forward("config", "supports_media_recovery")
    state = forward("catalog", "state")
    qmgr_object = forward("catalog", "qmgr_object")
    catalog_damaged = forward("catalog", "catalog_damaged")
    in_use = forward("catalog", "in_use")

    def is_recoverable(self, obj: MQObject) -> bool:
        qmgr = self.catalog.qmgr_object
        return recoverable(self.config.log_type, qmgr.attributes if qmgr else {}, obj)

    def track_media(self, records):
        """Pass records through, noting the media images among them."""
        for record in records:
            self.note_media(record)
            yield record

    def note_media(self, record: dict[str, Any]) -> None:
        typed = records.decode(record)
        if isinstance(typed, records.ObjectImage) or (
            isinstance(typed, records.ObjectChanged) and typed.created
        ):
            self.media[typed.key] = record[records.LSN]
            self.images.note(typed.key)
        elif isinstance(typed, records.CatalogImage):
            self.media[CATALOG_KEY] = record[records.LSN]
            self.images.note(CATALOG_KEY)
        elif isinstance(typed, records.ObjectDeleted):
            self.media.pop(typed.key, None)

    def oldest_media_lsn(self) -> int | None:
        """MEDIALOG's record: the oldest media recovery record of a recoverable object."""
        state = self.catalog.state
        records = [lsn for key, lsn in self.media.items() if key in state and self.is_recoverable(state[key])]
        return min(records) if records else None

    def record_image(self, obj: MQObject, reserved: bool = False) -> int:
        """Write a media image of obj to the log; its media recovery record moves here.

        The image is what obj already is, so memory is not re-applied from it
        (that would drop the queue's non-persistent messages); obj only learns
        the image's LSN.
        """
        logged = self.journal.log_record(
            records.ObjectImage(
                obj.key,
                obj.object_type,
                obj.name,
                obj.attributes,
                [message.to_document() for message in obj.messages if message.persistent],
            ).encode(),
            reserved,
        )
        obj.lsn = logged[records.LSN]
        return logged[records.LSN]

    def record_catalog_image(self, reserved: bool = False) -> int:
        """The catalog's media image: the list of objects that exist."""
        entries = sorted([obj.namespace, obj.object_type, obj.name] for obj in self.catalog.state.values())
        return self.journal.log_record(records.CatalogImage(entries).encode(), reserved)[records.LSN]

    def shutdown_images(self) -> None:
        """As MQ does at shutdown: process objects, queues that are not local, empty local queues.

        The queue manager object and the catalog are imaged too (as IBM i
        does), so that their media recovery records keep moving. Like the
        shutdown checkpoint, these images use reserved log space: a full log
        must not stop a clean shutdown.
        """
        in_order = sorted(self.catalog.state.values(), key=lambda o: o.key)
        for obj in in_order:
            if obj.damaged or not self.is_recoverable(obj):
                continue
            if obj.object_type == "QLOCAL" and any(message.persistent for message in obj.messages):
                continue
            if obj.namespace in ("QUEUE", "PROCESS", "QMGR"):
                self.record_image(obj, reserved=True)
                # Records kept on the queue (durable subscriptions ...) are imaged with it. Most
                # queues hold none, and a queue manager may have tens of thousands of queues.
                held = held_on(obj.name) if obj.namespace == "QUEUE" else []
                for record in in_order if held else ():
                    if record.namespace in held and not record.damaged:
                        self.record_image(record, reserved=True)
        if not self.catalog.catalog_damaged:
            self.record_catalog_image(reserved=True)

    def recreate(self, keys: list[str]) -> list[MQObject]:
        """Media recovery of objects (rcrmqobj, restart): rebuilt from the log, their files written anew.

        Only a recoverable object is re-created. An object damaged at start is known by name
        only, so whether it is recoverable is what the log says of it (its IMGRCOVQ, or the
        queue manager's IMGRCOVQ or IMGRCOVO): one that is not stays damaged, as on a circular
        log, and keeps the attributes the log gave it so that later commands judge it the same.
        """
        rebuilt = media_recovery.rebuild(self.paths.log_dir, self.media, keys, self.engine)
        self.catalog.settle_files()
        # The queue manager object first: a queue's IMGRCOVQ(QMGR) takes the queue manager's value.
        for key in sorted(rebuilt, key=lambda key: rebuilt[key].object_type != "QMGR"):
            obj = rebuilt[key]
            if not self.is_recoverable(obj):
                rebuilt.pop(key)
                damaged = self.catalog.state.get(key)
                if damaged is not None and damaged.damaged:
                    damaged.object_type, damaged.attributes = obj.object_type, obj.attributes
                continue
            self.catalog.state[key] = obj
            self.catalog.write_object_file_now(obj)
            self.catalog.changed.discard(key)
            self.auto_recovery.forget(key)
        self.catalog.write_catalog()
        return [rebuilt[key] for key in keys if key in rebuilt]

    def recreate_explained(self, keys: list[str], kind: str, cause: str = "") -> list[MQObject]:
        """Media recovery on the running queue manager (rcrmqobj, or automatic on a replicated log), with
        the record LAB EXPLAIN tells: the extents read from the oldest image on, each queue's ledger."""
        images = {key: self.media[key] for key in keys if key in self.media}
        recreated = self.recreate(keys)
        counted = [(obj, images[obj.key]) for obj in recreated if obj.key in images]
        if counted:
            log_dir = self.paths.log_dir
            first_lsn = min(lsn for _obj, lsn in counted)
            first_extent = logscan.extent_holding(log_dir, first_lsn)
            ledger.save(
                self.paths.qmgr_dir,
                ledger.media_explanation(
                    kind,
                    self.paths.name,
                    f"{self.clock.now():{TIMESTAMP}}",
                    self.engine.where(log_dir, first_extent, first_lsn),
                    ledger.extents_read(log_dir, first_extent, self.log.next_lsn),
                    [(obj, lsn, accounts.message_ids_at(log_dir, lsn)) for obj, lsn in counted],
                    cause,
                ),
            )
        return recreated

    def tick(self) -> None:
        """The queue manager's own background work, run before each command."""
        self.images.run()
        self.auto_recovery.run()
