"""JSON text for what the queue manager writes and reads most: log records and object files.

Every command that changes an object encodes it twice (its log record and its
file), and a restart decodes every record it replays. orjson does both several
times faster than the standard library's json module, and its output is the
same compact JSON (UTF-8 rather than \\u escapes, which every reader here
takes alike). What orjson refuses - an integer beyond 64 bits, a string that is
not valid Unicode (text read with its undecodable bytes kept), a key that is
not a string - goes through the standard library as before, and so does text
that only it reads (NaN). Reading, orjson would take an integer beyond 64 bits
for a float: text the standard library wrote begins with a space (JSON allows
it), which tells loads to read it with the standard library too. A number that
is not finite, which JSON has no word for, orjson writes as null: the store
keeps none (its numbers are integers, and the simulated clock's offset in
seconds, which stays within the clock's range).
"""

from __future__ import annotations

import json
from typing import Any

import orjson

STANDARD_MARK = b" "  # leads the text dumps had the standard library write


def dumps(value: Any, sort_keys: bool = False) -> bytes:
    """value as compact JSON text, keys in order when sort_keys."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS if sort_keys else 0)
    except orjson.JSONEncodeError:
        return STANDARD_MARK + json.dumps(value, separators=(",", ":"), sort_keys=sort_keys).encode("utf-8")


def loads(text: bytes | str) -> Any:
    """The value of JSON text; ValueError when it is not JSON."""
    if text[:1] in (
        STANDARD_MARK,
        " ",
    ):  # written by the standard library: it may hold integers orjson cannot
        return json.loads(text)
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)
