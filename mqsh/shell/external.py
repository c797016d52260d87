"""Programs the interactive shell hands the terminal to: a pager and an editor.

Both are named as a command line ($PAGER, $EDITOR: "less -SRXF", "code --wait"),
split as a shell would split it. While one runs it owns the terminal, so Ctrl-C
is its own to handle (less and vi do): mqsh waits on for it to end.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from pathlib import Path

# What less is given when $LESS says nothing, as pgcli does: chop long lines rather than fold
# them (-S), keep colours (-R), leave the screen as it was (-X), quit at once if it all fits (-F).
LESS_OPTIONS = "-SRXF"


class ProgramFailed(Exception):
    """A pager or editor that could not be run, or that failed; the text says so in a line."""


def _start(command: str, extra: list[str], env: dict[str, str], stdin=None) -> subprocess.Popen:
    try:
        argv = shlex.split(command) + extra
    except ValueError as error:  # an unclosed quote
        raise ProgramFailed(f"cannot run {command}: {error}") from None
    if not argv:
        raise ProgramFailed("no command given")
    try:
        return subprocess.Popen(argv, stdin=stdin, env=env, text=True, encoding="utf-8", errors="replace")
    except OSError as error:
        raise ProgramFailed(f"cannot run {argv[0]}: {error.strerror}") from None


def _wait(process: subprocess.Popen) -> int:
    while True:
        try:
            return process.wait()
        except KeyboardInterrupt:
            continue  # Ctrl-C reached the program too; it decides whether to end


def page(command: str, text: str) -> None:
    """Show text through the pager command."""
    env = dict(os.environ)
    env.setdefault("LESS", LESS_OPTIONS)
    pager = _start(command, [], env, stdin=subprocess.PIPE)
    assert pager.stdin is not None
    try:
        pager.stdin.write(text + "\n")
        pager.stdin.close()
    except (BrokenPipeError, KeyboardInterrupt):
        pass  # the pager was left before it read everything (q in less): the rest is not wanted
    _wait(pager)


def editor_command() -> str:
    """$EDITOR, else $VISUAL, else vi - the order psql looks in."""
    return os.environ.get("EDITOR") or os.environ.get("VISUAL") or "vi"


def edit(text: str) -> str:
    """What the user saves after editing text in their editor."""
    command = editor_command()
    with tempfile.TemporaryDirectory(prefix="mqsh-") as directory:
        path = Path(directory) / "command.mqsc"  # the suffix lets an editor choose its MQSC highlighting
        path.write_text(text + "\n" if text else "", encoding="utf-8")
        code = _wait(_start(command, [str(path)], dict(os.environ)))
        if code != 0:
            raise ProgramFailed(f"editor {command} ended with exit code {code}; nothing changed")
        try:
            return path.read_text(encoding="utf-8", errors="replace").rstrip()
        except OSError as error:  # the editor saved elsewhere and removed the file
            raise ProgramFailed(f"cannot read {path}: {error.strerror}") from None
