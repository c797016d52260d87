"""Object names -> file names, reversibly, never escaping their folder.

MQ names may hold '/' and '%' (and '.' which MQ itself maps to '!'). Every
character outside [A-Za-z0-9_] is written as '!' for '.', or '%XX' (its code in
hex) otherwise, so "QL.A" is stored as "QL!A" and "A/B%C" as "A%2FB%25C". The
result never contains a path separator and is never "." or "..".

A name whose file name would pass what file systems allow (255 bytes; a
subscription's name may be 10,240 characters) is stored under the start of its
file name, '#' and a digest of the whole name: '#' is never in an encoded name,
so such a file name is told apart, though the name cannot be read back from it
(the object file holds its own name).
"""

from __future__ import annotations

import hashlib
import string

_PLAIN = set(string.ascii_letters + string.digits + "_")
MAX_FILE_NAME = 200  # within every file system's 255, with room for a '.tmp' beside it
DIGEST_MARK = "#"


def to_file_name(name: str) -> str:
    if not name:
        raise ValueError("an object name cannot be empty")
    encoded = _encoded(name)
    if len(encoded) <= MAX_FILE_NAME:
        return encoded
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:32]
    return f"{encoded[: MAX_FILE_NAME - len(digest) - 1]}{DIGEST_MARK}{digest}"


def _encoded(name: str) -> str:
    out = []
    for char in name:
        if char in _PLAIN:
            out.append(char)
        elif char == ".":
            out.append("!")
        else:
            out.append("".join(f"%{byte:02X}" for byte in char.encode("utf-8")))
    return "".join(out)


def from_file_name(file_name: str) -> str | None:
    """The name a file name stands for; None for a digest name or a file name no name maps to
    (a stray file in an object folder)."""
    if DIGEST_MARK in file_name:
        return None
    try:
        return _decoded(file_name)
    except (ValueError, IndexError):
        return None


def _decoded(file_name: str) -> str:
    data = bytearray()
    index = 0
    while index < len(file_name):
        char = file_name[index]
        if char == "!":
            data += b"."
            index += 1
        elif char == "%":
            data.append(int(file_name[index + 1 : index + 3], 16))
            index += 3
        else:
            data += char.encode("utf-8")
            index += 1
    return data.decode("utf-8")
