"""A queue manager's configuration: the Log stanza of its qm.ini, and the queue-sharing group it names."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

from mqsh.model.logspace import LogConfig
from mqsh.store.datadir import QmgrPaths
from mqsh.store.qmini import read_stanzas

QSG_STANZA = "QueueSharingGroup"


def group_named_in(qm_ini: Path) -> str | None:
    """The group a queue manager's qm.ini names (stanza QueueSharingGroup, as z/OS's system
    parameters name it with QSGDATA), or None."""
    try:
        return read_stanzas(qm_ini).get(QSG_STANZA, {}).get("Name") or None
    except (OSError, UnicodeDecodeError):
        return None


class QmgrConfig:
    def __init__(self, paths: QmgrPaths):
        self.paths = paths

    # The Log stanza is read once per queue manager object (one per start): it is
    # looked at for every record logged, and MQ too reads qm.ini only at start.
    @cached_property
    def log_settings(self) -> dict[str, str]:
        """The Log stanza; ValueError when qm.ini is missing, unreadable or has none.

        Defaults would not do: they are a circular log's, and a linear log
        taken for a circular one is reused, and its records lost.
        """
        path = self.paths.qm_ini
        try:
            log = read_stanzas(path).get("Log")
        except FileNotFoundError:
            raise ValueError(f"its configuration file {path} is missing") from None
        except (OSError, UnicodeDecodeError):
            raise ValueError(f"its configuration file {path} cannot be read") from None
        if not log or "LogPath" not in log:
            raise ValueError(f"the Log stanza of its configuration file {path} is missing or has no LogPath")
        return log

    @cached_property
    def log_config(self) -> LogConfig:
        return LogConfig.from_settings(self.log_settings)

    @property
    def log_type(self) -> str:
        return self.log_config.log_type

    @property
    def extent_bytes(self) -> int:
        return self.log_config.extent_bytes

    @property
    def checkpoint_every(self) -> int:
        return self.log_config.checkpoint_records

    @property
    def supports_media_recovery(self) -> bool:
        return self.log_type != "CIRCULAR"

    @cached_property
    def sharing_group(self) -> str | None:
        """The queue-sharing group it is a member of, or None: read once, as its start reads it (a
        queue manager joins or leaves a group only while it is ended)."""
        return group_named_in(self.paths.qm_ini)
