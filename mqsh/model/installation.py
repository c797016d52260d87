"""The queue managers of one data directory, and which of them this process holds.

A queue manager's status (RUNNING, ENDED, ENDED_IMMEDIATELY ...) lives on disk, as
strmqm/endmqm/a crash left it (mqsh.model.qmgr_directory). "Running" means any mqsh may connect to it: the
first one to do so takes its lock and, if the last holder did not close it
cleanly (a killed process), replays its log before doing anything else.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mqsh.core.clock import Clock
from mqsh.core.damage import StartRefused
from mqsh.core.reasons import MQError
from mqsh.model.network import standing, triggers
from mqsh.model.qmgr import QueueManager, StartReport, remove_qmgr_files
from mqsh.model.qmgr_directory import (
    CRASHED,
    ENDED,
    ENDED_IMMEDIATELY,
    ENDED_PREEMPTIVELY,
    RUNNING,
    QmgrDirectory,
)
from mqsh.recovery.engine import ReplayEngine
from mqsh.recovery.restart import recovery_messages
from mqsh.store.files import atomic_write
from mqsh.store.lock import QmgrInUse, QmgrLock
from mqsh.store.log import ExtentMissing, LogCorrupt
from mqsh.store.qmini import write_stanzas

if TYPE_CHECKING:
    from mqsh.model.cluster.clusters import Clusters
    from mqsh.model.network.channels import Network

# endmqm's modes (-c, -w, -i, -p)
CONTROLLED, WAIT, IMMEDIATE, PREEMPTIVE = "controlled", "wait", "immediate", "preemptive"
# The installation the queue managers belong to (dspmq -o installation, DISPLAY QMSTATUS
# INSTNAME/INSTPATH): MQ's name for a first installation, and where mqsh itself is installed.
INSTALLATION_NAME = "Installation1"
INSTALLATION_PATH = Path(__file__).resolve().parents[1]


@dataclass
class LogOptions:
    """crtmqm's log choices, as they go into the qm.ini Log stanza."""

    log_type: str = "CIRCULAR"
    file_pages: int = 4096
    primary: int = 3
    secondary: int = 2
    management: str | None = None  # MANUAL / ARCHIVE / AUTOMATIC (linear); None = the log type's default
    fs_size_mb: int | None = None
    checkpoint_records: int | None = None

    def problem(self) -> str | None:
        """What MQ would refuse in these values, or None."""
        # MQ's own minimum is 64 pages; smaller extents are allowed so that a
        # lab can fill extents with a handful of messages.
        if not 1 <= self.file_pages <= 65535:
            return "LogFilePages must be in the range 1 to 65535."
        if not 2 <= self.primary <= 510 or not 1 <= self.secondary <= 509:
            return "LogPrimaryFiles must be 2 to 510 and LogSecondaryFiles 1 to 509."
        if not 3 <= self.primary + self.secondary <= 511:
            return "LogPrimaryFiles plus LogSecondaryFiles must be 3 to 511."
        if self.management and self.management != "MANUAL" and self.log_type == "CIRCULAR":
            return "LogManagement applies to linear logs only."
        if self.fs_size_mb is not None and self.fs_size_mb < 1:
            return "The log file system size must be at least 1 MB."
        if self.checkpoint_records is not None and self.checkpoint_records < 100:
            return "At least 100 log records must lie between checkpoints."
        return None

    def stanza(self, log_path: str) -> dict[str, str]:
        stanza = {
            "LogPrimaryFiles": str(self.primary),
            "LogSecondaryFiles": str(self.secondary),
            "LogFilePages": str(self.file_pages),
            "LogType": self.log_type,
            "LogBufferPages": "0",
            "LogPath": log_path,
            "LogWriteIntegrity": "TripleWrite",
        }
        if self.log_type != "CIRCULAR":
            stanza["LogManagement"] = (
                self.management or ("AUTOMATIC" if self.log_type == "REPLICATED" else "MANUAL")
            ).title()
        if self.fs_size_mb is not None:
            stanza["LogFileSystemSize"] = str(self.fs_size_mb)
        if self.checkpoint_records is not None:
            stanza["CheckpointRecords"] = str(self.checkpoint_records)
        return stanza


class QmgrNotFound(Exception):
    """AMQ8118E."""


class QmgrNotAvailable(Exception):
    """AMQ8146E."""


class EndedWithoutCheckpoint(Exception):
    """endmqm on a full disk: the queue manager ended, but its shutdown checkpoint could not be written."""


class Installation(QmgrDirectory):
    def __init__(self, data_dir: Path, engine: ReplayEngine | None = None):
        super().__init__(data_dir)
        self.engine = engine or ReplayEngine()  # where restart replay runs
        self.clock = Clock(data_dir / "clock")
        self._clusters: Clusters | None = None  # built at the first use (the clusters property)
        self.last_start: StartReport | None = None
        # Queue managers that ended while the application had a unit of work in flight.
        self._broken_connections: set[str] = set()

    # ------------------------------------------------------------ channels and clusters
    @property
    def clusters(self) -> Clusters:
        """The queue managers' repository managers and the network of channels between them, built (their
        modules loaded) at the first use: queue managers in no cluster, no channel at work, never load them."""
        if self._clusters is None:
            from mqsh.model.cluster.clusters import Clusters
            from mqsh.model.network.channels import Network

            self._clusters = Clusters(self, Network(self))
        return self._clusters

    @property
    def network(self) -> Network:
        return self.clusters.network

    def settle(self) -> None:
        """After every command: what it put on a transmission queue, or changed in a cluster, moves on."""
        if self._clusters is not None or any(
            self._channels_at_work(qmgr) for qmgr in list(self.held.values())
        ):
            self.clusters.settle()

    @staticmethod
    def _channels_at_work(qmgr: QueueManager) -> bool:
        """Start the senders a message now waits for (as the network's turn does), then whether a
        channel runs, or the queue manager may be in a cluster: else the network has nothing to do."""
        if qmgr.log is None:
            return False
        if not qmgr.no_services:
            triggers.start_triggered(qmgr)
        return bool(qmgr.channel_states) or _may_be_clustered(qmgr)

    def _attach_to_clusters(self, qmgr: QueueManager) -> None:
        """Its repository manager at once when it may be in a cluster; else its cluster hooks build it
        when a put first asks a cluster for a name, and put the manager's own in their place."""
        if _may_be_clustered(qmgr):
            self.clusters.manager(qmgr)
            return

        def first_call(hook: str):
            def call(*args):
                self.clusters.manager(qmgr)
                return getattr(qmgr.units.routes, hook)(*args)

            return call

        for hook in ("cluster_router", "cluster_definition", "cluster_binder", "cluster_qmgr_route"):
            setattr(qmgr.units.routes, hook, first_call(hook))

    # ------------------------------------------------------------ what exists
    @contextlib.contextmanager
    def settling(self) -> Iterator[None]:
        """While the repository managers and channels settle after a command, no queue manager is
        made or deleted and nothing but its queue manager touches a held one's object files: the
        directory is listed once, not at every channel's connect, and each object file is looked
        at once (ObjectCatalog.files_still)."""
        if self._names_now is not None:
            yield  # within a settle already: its listing stands
            return
        self._names_now = self._listed_names()
        try:
            with contextlib.ExitStack() as still:
                for qmgr in list(self.held.values()):
                    still.enter_context(qmgr.catalog.files_still())
                yield
        finally:
            self._names_now = None

    def log_type(self, name: str) -> str:
        """CIRCULAR, LINEAR or REPLICATED, as the queue manager reads its qm.ini at start;
        "" when that cannot be read."""
        held = self.held.get(name) or QueueManager(self.paths(name), self.clock, self.engine)
        try:
            return held.log_type
        except ValueError:
            return ""

    # ------------------------------------------------------------ lifecycle
    def create(self, name: str, log: LogOptions | None = None, host: str | None = None) -> QueueManager:
        paths = self.paths(name)
        paths.qmgr_dir.mkdir(parents=True, exist_ok=True)
        paths.log_dir.mkdir(parents=True, exist_ok=True)
        write_stanzas(
            paths.qm_ini,
            {
                "QueueManager": {"Name": name, **({"Host": host} if host else {})},
                "Log": (log or LogOptions()).stanza(str(paths.log_root) + "/"),
            },
        )
        self._set_status(name, ENDED)
        return QueueManager(paths, self.clock, self.engine)

    def start(
        self,
        name: str,
        verify_log: bool = False,
        ignore_missing: bool = False,
        no_services: bool | None = None,
    ) -> QueueManager:
        """strmqm: start (restart recovery included) and hold it in this process. no_services is
        strmqm -ns; None (a process taking over a running queue manager) keeps how it was started."""
        if not self.exists(name):
            raise QmgrNotFound(name)
        marker = self.paths(name).no_services_file
        taking_over = no_services is None
        if taking_over:
            no_services = marker.exists()
        elif no_services:
            atomic_write(marker, b"strmqm -ns\n")
        else:
            marker.unlink(missing_ok=True)
        qmgr = QueueManager(self.paths(name), self.clock, self.engine)
        qmgr.member_failed = self.runs_nowhere  # a member's restart may find a peer failed
        report = self.last_start = qmgr.start(verify_log, ignore_missing, no_services)
        # Taken over from a process that let it go cleanly, it goes on as it was; a holder killed
        # leaves a restart, which starts the CONTROL(QMGR) listeners and services again.
        standing.restore(qmgr, taking_over and not report.unclean)
        if report.unclean:  # the error log keeps what the recovery did, as MQ's does
            for msgid, text in recovery_messages(name, report):
                qmgr.errors.write(msgid, text)
        qmgr.units.application_broken = name in self._broken_connections
        self._broken_connections.discard(name)
        self.held[name] = qmgr
        self._attach_to_clusters(qmgr)  # its repository manager, and cluster name resolution for its puts
        self._set_status(name, RUNNING)
        qmgr.on_ended_itself = lambda: self._ended_itself(name)
        return qmgr

    def runs_nowhere(self, name: str) -> bool:
        """No process runs the queue manager: not this one, and no other holds its lock (a killed
        holder's lock went with it). A group member connected to a structure in this state failed."""
        return (
            name not in self.held
            and self.exists(name)
            and not QmgrLock(self.paths(name).lock_file, name).held_elsewhere()
        )

    def _ended_itself(self, name: str) -> None:
        """The queue manager ended itself (a full log or disk): the next start recovers it."""
        self._note_application(name, self.held.pop(name, None))
        try:
            self._set_status(name, CRASHED)
        except OSError:
            pass  # a full disk: the status still says running, and the next use recovers it all the same

    def connect(self, name: str, look: bool = True) -> QueueManager:
        """The queue manager MQSC runs against; starts it here if it is running but not held.
        look=False leaves out the look at its core files (a caller that knows that nothing
        could have happened to them since the last)."""
        if name in self.held:
            qmgr = self.held[name]
            self._watch(qmgr, look)
            return qmgr
        if not self.exists(name):
            raise QmgrNotFound(name)
        # Recorded as running: the first process to use it takes it over, and replays its log
        # first when the last holder was killed (as MQ restarts a failed instance).
        if self.recorded_status(name) != RUNNING:
            raise QmgrNotAvailable(name)
        return self.start(name)

    def try_connect(self, name: str) -> QueueManager | None:
        """The queue manager, if this process can run it now (a channel reaching its host); None
        when it cannot start here (held elsewhere, ended, or failing its restart)."""
        try:
            return self.connect(name)
        except (
            QmgrNotFound,
            QmgrNotAvailable,
            QmgrInUse,
            StartRefused,
            ExtentMissing,
            LogCorrupt,
            MQError,
            OSError,
        ):
            return None

    def _watch(self, qmgr: QueueManager, look: bool = True) -> None:
        """Before each command: a queue manager whose own object or catalog is damaged ends
        preemptively; otherwise it does its background work (automatic images and recoveries)."""
        damaged = qmgr.catalog.core_damage() if look else None
        if damaged is not None:
            qmgr.errors.write(
                "AMQ8004I",
                f"IBM MQ queue manager '{qmgr.name}' ended.",
                f"The queue manager ended preemptively: its {damaged} is damaged.",
                "Start the queue manager again: on a linear or replicated log it re-creates the "
                "damaged object from its media image.",
            )
            self.crash(qmgr.name, f"a preemptive end (its {damaged} is damaged)")
            raise QmgrNotAvailable(qmgr.name)
        qmgr.tick()

    def end(self, name: str, mode: str = CONTROLLED) -> None:
        """endmqm: MQSC is refused until strmqm.

        Controlled, the open unit of work is backed out and the end is clean;
        immediate, the unit stays in flight for the next start to back out;
        preemptive, the queue manager stops as a failure would stop it.
        """
        qmgr = self.held.pop(name, None)
        if mode == PREEMPTIVE:
            if qmgr is not None:
                qmgr.crash("endmqm -p")
            self._note_application(name, qmgr)
            self._set_status(name, ENDED_PREEMPTIVELY)
            return
        if qmgr is not None and self._clusters is not None:  # none built: no repository manager started
            self._clusters.ended(qmgr)
        clean = qmgr.shutdown(back_out=mode != IMMEDIATE) if qmgr is not None else True
        self._note_application(name, qmgr)
        if not clean:
            # No room for the shutdown checkpoint: the next start recovers from the log, as after a failure.
            self._set_status(name, CRASHED)
            raise EndedWithoutCheckpoint(name)
        self._set_status(name, ENDED_IMMEDIATELY if mode == IMMEDIATE else ENDED)

    def _note_application(self, name: str, ended: QueueManager | None) -> None:
        """An application whose unit of work ended with the queue manager is told, at its next
        call after the next start, that its connection broke."""
        if ended is not None and ended.units.ended_with_unit:
            self._broken_connections.add(name)

    def crash(self, name: str, how: str = "a crash (LAB CRASH)") -> None:
        """Lab crash: in-memory state dropped with no shutdown processing at all."""
        qmgr = self.held.pop(name, None)
        if qmgr is not None:
            qmgr.crash(how)
        self._note_application(name, qmgr)
        self._set_status(name, CRASHED)

    def discard_unmade(self, name: str, default: str | None) -> None:
        """What a crtmqm that failed part way made goes again, and the default it had before
        comes back (best effort: the disk may still be full)."""
        remove_qmgr_files(self.paths(name))
        try:
            if default is None:
                (self.data_dir / "mqs.ini").unlink(missing_ok=True)
            elif self._named_default() != default:
                self.set_default(default)
        except OSError:
            pass

    def delete(self, name: str) -> None:
        remove_qmgr_files(self.paths(name))
        if self._named_default() == name:
            (self.data_dir / "mqs.ini").unlink()

    def keep_standing(self) -> None:
        """After a command: the stopped channels and running listeners and services of every held
        queue manager are where the next process to take it over finds them."""
        for qmgr in self.held.values():
            if qmgr.log is not None:
                standing.keep(qmgr)

    def force_logs(self) -> None:
        """Before a command's response: what it logged is on the disk (see LogWriter.force)."""
        for qmgr in self.held.values():
            if qmgr.log is not None:
                qmgr.log.force()

    def settle_files(self) -> None:
        """The object file writes of every held queue manager are done (see DeferredWrites)."""
        for qmgr in self.held.values():
            qmgr.settle_files()

    def close_all(self) -> None:
        """A clean exit of mqsh: every held queue manager is shut down cleanly."""
        for name in list(self.held):
            self.held.pop(name).shutdown()


def _may_be_clustered(qmgr: QueueManager) -> bool:
    """Whether the queue manager may take part in a cluster, as far as its definitions tell without its
    repository manager (which tells exactly: RepositoryManager.takes_part): a cluster cache from earlier
    work, or a cluster channel naming a cluster or a namelist of them."""
    if qmgr.paths.cluster_cache.exists():
        return True
    return any(
        channel.attributes.get("CHLTYPE") in ("CLUSRCVR", "CLUSSDR")
        and any(str(channel.attributes.get(name) or "").strip() for name in ("CLUSTER", "CLUSNL"))
        for channel in qmgr.objects("CHANNEL")
    )
