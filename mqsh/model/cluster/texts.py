"""The repository manager's error-log messages about records that were not re-published.

AMQ9456 is the id IBM's APAR IT40792 gives the warning, its text MQ's as written in its error
logs; AMQ9469's first line and explanation are from the sample in IBM's APAR IT28022. IBM
documents neither severity letter (mqsh writes W, as for MQ's other repository warnings) nor
AMQ9469's ACTION text (written in AMQ9456's words); docs/messages.md lists both.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from mqsh.model.cluster.cache import QMGR

if TYPE_CHECKING:
    from mqsh.model.cluster.cache import Record

QUEUE_EXPLANATION = (
    "The repository manager detected a cluster queue that had been used sometime in the last 30 days for which "
    "updated information should have been sent from a full repository. However, this has not occurred.\n"
    "The repository manager will keep the information about this queue for a further 60 days from when the error "
    "first occurred."
)


def _responses(cluster: str, qmname: str) -> str:
    return (
        "There are several possible responses:\n"
        f"1) There is a long-running problem with the local queue manager's CLUSRCVR in cluster {cluster}. If this "
        "is true, then correct the problem urgently, to ensure that updates for the cluster are received.\n"
        f"2) There is a long-running problem on the remote queue manager's CLUSSDR in cluster {cluster}. If this "
        "is true, then correct the problem urgently, to ensure that updates for the cluster are sent.\n"
        "3) Check that the repository manager on the remote queue manager has not ended\n"
        "4) The remote queue manager is out of step with this queue manager, potentially due to a restore of the "
        "remote queue manager from a backup. The remote queue manager must issue REFRESH CLUSTER to synchronize "
        "with other queue managers in the cluster.\n"
        "5) The remote queue manager is out of step with this queue manager, potentially due to a disaster "
        "recovery exercise in which a replacement queue manager with the same CLUSRCVR channel name was created, "
        f"was run for a while, then ended. If this has happened, then the remote queue manager {qmname} must now "
        "issue REFRESH CLUSTER to synchronize with other queue managers in the cluster.\n"
        "6) If the above items have been checked, and this problem persists over several days (causing repeats of "
        "this error message in the local queue manager's error logs) then contact your IBM support center."
    )


def not_received(record: Record, now: datetime) -> tuple[str, str, str, str]:
    """(msgid, text, explanation, action) for a record past its expiry."""
    if record.kind == QMGR:
        channel = record.attrs.get("CHANNEL", "")
        days = max(0, (now - datetime.strptime(record.expiry, "%Y-%m-%d %H:%M:%S")).days + 3)
        return (
            "AMQ9469W",
            f"Update not received for CLUSRCVR channel {channel} hosted on queue manager {record.qmid} in "
            f"cluster {record.cluster}.",
            "The repository manager detected that the CLUSRCVR channel has not been re-published by its owning "
            f"queue manager. This re-publish action should have happened automatically {days} days ago, or in "
            "the time between then and now.",
            _responses(record.cluster, record.qmname),
        )
    return (
        "AMQ9456W",
        f"Update not received for queue {record.name}, queue manager {record.qmname} from full repository for "
        f"cluster {record.cluster}.",
        QUEUE_EXPLANATION,
        _responses(record.cluster, record.qmname),
    )
