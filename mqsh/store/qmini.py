"""qm.ini and mqs.ini: MQ's stanza files ("Log:" then indented Key=Value lines)."""

from __future__ import annotations

from pathlib import Path

from mqsh.store.files import atomic_write

Stanzas = dict[str, dict[str, str]]


def read_stanzas(path: Path) -> Stanzas:
    stanzas: Stanzas = {}
    current: dict[str, str] | None = None
    for line in path.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace() and line.rstrip().endswith(":"):
            current = stanzas.setdefault(line.strip()[:-1], {})
        elif current is not None and "=" in line:
            key, _, value = line.strip().partition("=")
            current[key.strip()] = value.strip()
    return stanzas


def write_stanzas(path: Path, stanzas: Stanzas) -> None:
    lines = []
    for stanza, values in stanzas.items():
        lines.append(f"{stanza}:")
        lines.extend(f"   {key}={value}" for key, value in values.items())
    atomic_write(path, ("\n".join(lines) + "\n").encode("utf-8"), sync=True)
