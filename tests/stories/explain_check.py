"""The check a story makes of LAB EXPLAIN after each recovery: every ledger line adds up, and the
depth it adds up to is the one the model expects of the queue."""

from __future__ import annotations

import re

from tests.stories.oracle import Check

LEDGER = re.compile(r"^Queue (\S+)(?: against the failure)?: (.+) = CURDEPTH\((\d+)\)\.$")
TERM = re.compile(r"(?:^|\s([+-])\s)(\d+) ")


def total(terms: str) -> int:
    """'10 from the media image + 5 put ... - 4 got ...' -> 11."""
    return sum(-int(number) if sign == "-" else int(number) for sign, number in TERM.findall(terms))


def explained(depths: dict[str, int], damaged: set[str], every_queue: bool) -> Check:
    """depths: the model's depth of each queue the recovery left usable; damaged: those it left damaged.
    every_queue: a restart tells every queue holding messages (rcrmqobj only those it re-created)."""

    def check(answer: str) -> str | None:
        told = set()
        for line in answer.splitlines():
            found = LEDGER.match(line.strip())
            if found is None:
                continue
            queue, terms, depth = found[1], found[2], int(found[3])
            if total(terms) != depth:
                return f"the ledger does not add up: {line.strip()!r}"
            if queue in damaged:
                return f"a ledger for {queue}, which the model has damaged: {line.strip()!r}"
            if queue in depths and depth != depths[queue]:
                return f"the ledger of {queue} adds up to CURDEPTH({depth}); the model holds {depths[queue]}"
            told.add(queue)
        untold = (
            [queue for queue, depth in depths.items() if depth and queue not in told] if every_queue else []
        )
        if untold:
            return f"no ledger for {', '.join(untold)}, which the model has holding messages"
        missing = [
            queue for queue in sorted(damaged) if every_queue and f"Queue {queue} is damaged" not in answer
        ]
        return f"the explanation does not tell that {', '.join(missing)} is damaged" if missing else None

    return check


SHARED = re.compile(
    r"^Shared queue (\S+): (\d+) from the backup \+ (\d+) put since, replayed = CURDEPTH\((\d+)\)\.$"
)
STRUCTURE = re.compile(
    r"^Structure \S+: (\d+) from the backup - (\d+) got or backed out since \+ (\d+) put since = "
    r"(\d+) messages?;"
)


def cf_explained(depths: dict[str, int], entries: int) -> Check:
    """LAB EXPLAIN CFSTRUCT after a RECOVER CFSTRUCT: each shared queue's two terms add up to the depth
    the model holds, and the structure's sum to the messages it holds."""

    def check(answer: str) -> str | None:
        told = {}
        for line in answer.splitlines():
            if (found := SHARED.match(line.strip())) is not None:
                backed_up, replayed, depth = int(found[2]), int(found[3]), int(found[4])
                if backed_up + replayed != depth:
                    return f"the ledger does not add up: {line.strip()!r}"
                told[found[1]] = depth
            elif (found := STRUCTURE.match(line.strip())) is not None:
                restored, gone, put, total_ = (int(found[index]) for index in range(1, 5))
                if restored - gone + put != total_ or total_ != entries:
                    return f"the structure's sum is {line.strip()!r}; the model holds {entries} messages"
        wrong = {queue: depth for queue, depth in depths.items() if told.get(queue, 0) != depth}
        return f"the ledgers say {told}, the model holds {wrong}" if wrong else None

    return check
