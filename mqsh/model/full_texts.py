"""The error log's words when a queue manager's log, or the disk under it, has no room left."""

from __future__ import annotations

from pathlib import Path

from mqsh.store.errorlog import ErrorLog


def log_full(errors: ErrorLog, name: str, long_running: bool, backed_out: bool) -> None:
    """MQ reports every full log with AMQ7463, and adds AMQ7465 when a long-running unit of work
    is what keeps the space from being released."""
    errors.write("AMQ7463E", f"The log for queue manager {name} is full.")
    if long_running:
        errors.write(
            "AMQ7465W",
            f"The log for queue manager {name} is full because of a long-running transaction.",
            "A long-running unit of work holds the oldest log extent still needed for restart, so no "
            "extent could be reused." + (" The unit of work was backed out." if backed_out else ""),
            "Commit or back out units of work sooner, or add log extents.",
        )


def log_file_system_full(errors: ErrorLog, log_dir: Path) -> None:
    """No room for another extent: the queue manager ends."""
    errors.write(
        "AMQ6708E",
        f"A disk full condition was encountered when formatting a new log file in location {log_dir}.",
        "The log file system has no room for another extent: the extents still needed for restart or "
        "media recovery fill it. Work in progress was rolled back and the queue manager ended.",
        "Make room in the log file system (archive or delete extents not needed, re-create damaged "
        "objects so MEDIALOG can move), then restart the queue manager.",
    )


def disk_full(errors: ErrorLog, log_dir: Path) -> None:
    """No room to write a record: the call fails, and the queue manager goes on."""
    errors.write(
        "AMQ6708E",
        f"A disk full condition was encountered when writing to the log in location {log_dir}.",
        "The disk holding the log has no room left. The MQI call failed and work in progress was rolled "
        "back; nothing acknowledged before was lost.",
        "Make room on the disk. The queue manager goes on once there is room.",
    )
