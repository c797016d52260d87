"""MQ reason codes (MQRC) that applications see from the model."""

from __future__ import annotations

# Each reason code by IBM's name (IBM MQ docs: API completion and reason codes).
MQRC_BACKED_OUT = 2003
MQRC_CONNECTION_BROKEN = 2009
MQRC_ENVIRONMENT_ERROR = 2012
MQRC_GET_INHIBITED = 2016
MQRC_MSG_TOO_BIG_FOR_Q = 2030
MQRC_NO_MSG_AVAILABLE = 2033
MQRC_OBJECT_CHANGED = 2041
MQRC_OBJECT_IN_USE = 2042
MQRC_PERSISTENT_NOT_ALLOWED = 2048
MQRC_PUT_INHIBITED = 2051
MQRC_Q_FULL = 2053
MQRC_Q_NOT_EMPTY = 2055
MQRC_Q_TYPE_ERROR = 2057
MQRC_Q_MGR_NOT_AVAILABLE = 2059
MQRC_UNKNOWN_OBJECT_NAME = 2085
MQRC_UNKNOWN_REMOTE_Q_MGR = 2087
MQRC_OBJECT_DAMAGED = 2101
MQRC_RESOURCE_PROBLEM = 2102
MQRC_CLUSTER_RESOLUTION_ERROR = 2189
MQRC_STORAGE_MEDIUM_FULL = 2192
MQRC_CLUSTER_PUT_INHIBITED = 2268
MQRC_DB2_NOT_AVAILABLE = 2342
MQRC_CF_STRUC_ERROR = 2349
MQRC_CF_STRUC_FAILED = 2373
MQRC_DATA_SET_NOT_AVAILABLE = 2561

REASONS = {code: name for name, code in dict(globals()).items() if name.startswith("MQRC_")}


class MQError(Exception):
    """An MQI call failed with a reason code."""

    def __init__(self, reason: int, detail: str = ""):
        super().__init__(f"{reason} ({REASONS.get(reason, 'MQRC_UNKNOWN')})")
        self.reason = reason
        self.detail = detail

    @property
    def name(self) -> str:
        return REASONS.get(self.reason, "MQRC_UNKNOWN")

    def report(self, call: str) -> str:
        """The line an application's failed call gives: 'MQPUT ended with reason code 2053 (MQRC_Q_FULL).'"""
        return f"{call} ended with reason code {self.reason} ({self.name})."
