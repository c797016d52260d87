"""What LAB EXPLAIN CLUSTER must tell on a cluster story's member just after a REFRESH CLUSTER, a
RESET CLUSTER or a restore from a backup, by the cluster model: the records of each QMID with the
fate the command gave them and the sequence numbers the model gave them, and a sum that adds up
(before - removed + learned - gone = now).
"""

from __future__ import annotations

import re

from tests.stories.cluster_records import QMGR, QUEUE
from tests.stories.oracle import Check

ATTRIBUTE = re.compile(r"(\w+)\(([^()]*)\)")
TOTAL = re.compile(r"(\d+) before((?: [-+] \d+ [a-z ]+?)*) = (\d+) now")
TERM = re.compile(r" ([-+]) (\d+) ")


def records(answer: str) -> list[dict[str, str]]:
    """Each record told, as its DISPLAY heads it, with its KIND (QMGR or QUEUE)."""
    found = []
    for told in answer.split("Display ")[1:]:
        attributes = dict(ATTRIBUTE.findall(told))
        attributes["KIND"] = QMGR if told.startswith("Cluster Queue Manager") else QUEUE
        found.append(attributes)
    return found


def adds_up(answer: str) -> str | None:
    total = TOTAL.search(answer)
    if total is None:
        return "expected the sum of its records"
    counted = int(total[1]) + sum(
        int(n) if sign == "+" else -int(n) for sign, n in TERM.findall(total[2] + " ")
    )
    return None if counted == int(total[3]) else f"the sum does not add up: {total[0]}"


def refresh_explained(qmid: str | None, renumbered: int) -> Check:
    """Just after a REFRESH CLUSTER: its records of its own are those of the queue manager's QMID,
    renumbered from the epoch seconds of the refresh (IBM MQ docs: REFRESH CLUSTER)."""

    def check(answer: str) -> str | None:
        if "Last REFRESH CLUSTER" not in answer:
            return "expected the refresh explained"
        for record in records(answer):
            if record.get("FATE") == "OWN" and (
                record.get("QMID") != qmid or record.get("SEQNOW") != str(renumbered)
            ):
                return f"expected its own records of QMID {qmid} renumbered {renumbered}"
        return adds_up(answer)

    return check


def reset_explained(old: str, queues: bool, held: set[str], rejoined: str | None) -> Check:
    """Just after RESET CLUSTER ACTION(FORCEREMOVE) QMID(old) on a full repository: the old QMID's
    records it held are removed - its queues only with QUEUES(YES) (IBM MQ docs: RESET CLUSTER) -
    and no other; held: the kinds of the old QMID's records the model says it surely held. A
    queue manager rebuilt with a new QMID that the repository surely knows (rejoined) is told as
    back in the cluster with it."""

    def check(answer: str) -> str | None:
        if f"Last RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMID('{old}')" not in answer:
            return "expected the reset explained"
        removed: set[str] = set()
        for record in records(answer):
            fate, kind = record.get("FATE"), record["KIND"]
            if record.get("QMID") == old:
                wanted = "REMOVED" if kind == QMGR or queues else "KEPT"
                if fate != wanted:
                    return f"expected the old QMID's {kind} record {wanted}, told {fate}"
                removed.add(kind)
            elif fate == "REMOVED":
                return f"a record of QMID {record.get('QMID')} removed: only {old}'s may be"
        if held - removed:
            return f"expected the old QMID's records {sorted(held)} told, found {sorted(removed)}"
        if rejoined is not None and f"with a new QMID, {rejoined}" not in answer:
            return f"expected the rejoin with the new QMID {rejoined} told"
        return adds_up(answer)

    return check


def restore_explained(name: str, qmid: str, own: dict[str, int]) -> Check:
    """Just after a restore from a backup and the queue manager's start: its own records are its
    QMID's, numbered as the backup held them (plus one where a re-publish fell due since, which
    it sends as it starts) - own: the model's sequence number of each kind."""

    def check(answer: str) -> str | None:
        if f"restored from backup {name}" not in answer:
            return "expected the restore explained"
        told = {record["KIND"]: record for record in records(answer) if record.get("FATE") == "OWN"}
        if set(told) != set(own):
            return f"expected its own records {sorted(own)}, told {sorted(told)}"
        for kind, seq in own.items():
            if told[kind].get("QMID") != qmid or told[kind].get("SEQNOW") != str(seq):
                return f"expected its own {kind} record of QMID {qmid} numbered {seq}"
        return adds_up(answer)

    return check
