"""When a sending channel that could not reach its partner tries again.

As MQ documents SHORTRTY and LONGRTY: when the first attempt to start fails, the short
retry count is decremented and the channel tries the remaining number of times, SHORTTMR
seconds apart; then LONGRTY times, LONGTMR seconds apart; still failing, it ends and stays
STOPPED until a START CHANNEL. A channel that connects has its counts back in full (MQ
resets them once a message flows). DISPLAY CHSTATUS shows what is left as SHORTRTS and
LONGRTS.

Between two turns of the network nothing it depends on changes (a command or a repository
manager's step comes first), so an attempt that fails now would have failed at every retry
that fell due since the last turn: those are counted as made - a frozen lab clock advanced
by days does not have to stop at every retry - and the next one falls where the intervals
put it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from mqsh.model.network.state import ChannelState

# MQ's defaults, as a channel definition without them has them.
DEFAULTS = {"SHORTRTY": 10, "SHORTTMR": 60, "LONGRTY": 999_999_999, "LONGTMR": 1200}


@dataclass(frozen=True)
class RetryPolicy:
    short_count: int
    short_interval: timedelta
    long_count: int
    long_interval: timedelta

    @classmethod
    def of(cls, attributes: dict) -> RetryPolicy:
        def number(name: str) -> int:
            try:
                return max(int(attributes.get(name, DEFAULTS[name])), 0)
            except (TypeError, ValueError):
                return DEFAULTS[name]

        return cls(
            number("SHORTRTY"),
            timedelta(seconds=number("SHORTTMR")),
            number("LONGRTY"),
            timedelta(seconds=number("LONGTMR")),
        )


def due(state: ChannelState, now: datetime) -> bool:
    """Whether a sender tries to connect at this turn: a retrying one only once its retry is due."""
    return state.next_try is None or state.next_try <= now


def connected(state: ChannelState, policy: RetryPolicy) -> None:
    state.next_try = None
    state.short_left, state.long_left = policy.short_count, policy.long_count


def remaining(state: ChannelState, policy: RetryPolicy) -> tuple[int, int]:
    """(SHORTRTS, LONGRTS): the retries left, in full for a channel that has not failed."""
    if state.short_left is None or state.long_left is None:
        return policy.short_count, policy.long_count
    return state.short_left, state.long_left


def failed(state: ChannelState, policy: RetryPolicy, now: datetime) -> bool:
    """Count the attempt that failed now (and the ones due since the last turn) and set the
    next one; False when none is left: the channel has ended."""
    if state.next_try is None:  # the first attempt: it takes one of the short count
        state.short_left, state.long_left = max(policy.short_count - 1, 0), policy.long_count
        return _schedule(state, policy, now)
    short_left, long_left = remaining(state, policy)
    attempt = state.next_try
    if short_left:
        made, attempt = _made(attempt, policy.short_interval, short_left, now)
        short_left -= made
        if short_left == 0 and long_left and attempt + policy.long_interval <= now:
            made, attempt = _made(attempt + policy.long_interval, policy.long_interval, long_left, now)
            long_left -= made
    else:
        made, attempt = _made(attempt, policy.long_interval, long_left, now)
        long_left -= made
    state.short_left, state.long_left = short_left, long_left
    return _schedule(state, policy, attempt)


def _made(first: datetime, interval: timedelta, count: int, now: datetime) -> tuple[int, datetime]:
    """(how many of count attempts, interval apart from first, fall due by now - one at least -,
    the moment of the last of them)."""
    if count <= 0:
        return 0, first
    made = count if not interval else min(count, (now - first) // interval + 1)
    return made, first + interval * (made - 1)


def _schedule(state: ChannelState, policy: RetryPolicy, last_attempt: datetime) -> bool:
    if state.short_left:
        state.next_try = last_attempt + policy.short_interval
    elif state.long_left:
        state.next_try = last_attempt + policy.long_interval
    else:
        state.next_try = None
        return False
    return True
