"""Where things live in a data directory, laid out like /var/mqm.

<data>/mqs.ini                         default queue manager, known queue managers
<data>/clock                           the simulated clock
<data>/qmgrs/QM1/qm.ini                the queue manager's configuration (Log: stanza)
<data>/qmgrs/QM1/qmstatus              RUNNING, ENDED ... (dspmq's STATUS), as strmqm, endmqm or a failure left it
<data>/qmgrs/QM1/qmstanding.json       stopped channels, running listeners and services (across processes)
<data>/qmgrs/QM1/QMQMOBJCAT            the object catalog
<data>/qmgrs/QM1/<type folder>/<name>  one object file per object (queues hold messages)
<data>/qmgrs/QM1/errors/AMQERR01.LOG   the error log
<data>/log/QM1/amqhlctl.lfh            the log control file (checkpoint, clean/unclean)
<data>/log/QM1/active/S0000000.LOG     log extents
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path

from mqsh.store.names import to_file_name

# Object files are grouped the way MQ groups them: all queue types share one
# name space (and folder), channels another, and so on.
CLUSTER_CACHE_FILE = "clusters.db"  # a queue manager's cluster cache, in its own directory

NAMESPACE_FOLDERS = {
    "QMGR": "qmanager",
    "QUEUE": "queues",
    "CHANNEL": "channel",
    "LISTENER": "listener",
    "SERVICE": "services",
    "PROCESS": "procdef",
    "NAMELIST": "namelist",
    "TOPIC": "topic",
    "AUTHINFO": "authinfo",
    "SUB": "subscriptions",
    "COMMINFO": "comminfo",
    "CHLAUTH": "chlauth",
    "AUTHREC": "authrec",
    "POLICY": "policy",
}


def default_data_dir() -> Path:
    """--data-dir, else MQSH_DATA_DIR, else $XDG_DATA_HOME/mqsh (~/.local/share/mqsh)."""
    explicit = os.environ.get("MQSH_DATA_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "mqsh"


@dataclass(frozen=True)
class QmgrPaths:
    data_dir: Path
    name: str

    @property
    def folder(self) -> str:
        return to_file_name(self.name)

    # Made once: every command asks for them, and building paths costs more than the lookups.
    @functools.cached_property
    def qmgr_dir(self) -> Path:
        return self.data_dir / "qmgrs" / self.folder

    @functools.cached_property
    def log_root(self) -> Path:
        return self.data_dir / "log" / self.folder

    @property
    def log_dir(self) -> Path:
        return self.log_root / "active"

    @property
    def control_file(self) -> Path:
        return self.log_root / "amqhlctl.lfh"

    @property
    def qm_ini(self) -> Path:
        return self.qmgr_dir / "qm.ini"

    @property
    def status_file(self) -> Path:
        return self.qmgr_dir / "qmstatus"

    @property
    def no_services_file(self) -> Path:
        """There while the queue manager runs as strmqm -ns started it (read by every process that
        takes it over, so that none starts its listeners or services)."""
        return self.qmgr_dir / "qmstart.ns"

    @property
    def standing_file(self) -> Path:
        """The stopped channels and running listeners and services that outlive a process
        (mqsh.model.network.standing)."""
        return self.qmgr_dir / "qmstanding.json"

    @property
    def cluster_cache(self) -> Path:
        """What its repository manager knows of its clusters (mqsh.model.cluster.cache)."""
        return self.qmgr_dir / CLUSTER_CACHE_FILE

    @property
    def catalog(self) -> Path:
        return self.qmgr_dir / "QMQMOBJCAT"

    @property
    def error_log(self) -> Path:
        return self.qmgr_dir / "errors" / "AMQERR01.LOG"

    @property
    def lock_file(self) -> Path:
        return self.qmgr_dir / "qm.lock"

    def object_file(self, namespace: str, name: str) -> Path:
        return _object_file(self.qmgr_dir, namespace, name)

    def exists(self) -> bool:
        return holds_qmgr(self.qmgr_dir)


@functools.lru_cache(maxsize=1 << 16)
def _object_file(qmgr_dir: Path, namespace: str, name: str) -> Path:
    return qmgr_dir / NAMESPACE_FOLDERS[namespace] / to_file_name(name)


def holds_qmgr(directory: Path) -> bool:
    """Whether a queue manager was created in directory: anything in it counts.

    Its qm.ini alone does not decide: a queue manager whose qm.ini was lost
    still exists (its start then says why it cannot), and crtmqm must not
    create another over its files.
    """
    return directory.is_dir() and any(directory.iterdir())
