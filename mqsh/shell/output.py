"""Where the interactive shell's responses go.

To the terminal; through a pager when a response is taller or wider than the
screen and the pager is on (as pgcli does, and on at the start as in pgcli); or,
after \\o FILE or \\o |COMMAND, into a file or a command's input, as psql's \\o.
What is shown apart from the data (the messages of the table and CSV formats)
and the shell's own notes always go to the terminal.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TextIO

from mqsh.shell.external import LESS_OPTIONS, ProgramFailed, page

# Lines kept free below a response for the prompt and the toolbar, as pgcli keeps four.
ROOM = 4


def _write(stream: TextIO, text: str) -> None:
    stream.write(text + "\n")
    stream.flush()


class Output:
    def __init__(self) -> None:
        self.pager_on = True
        self.pager_command: str | None = None  # set by \pager COMMAND; else $PAGER, else less
        self._target: TextIO | None = None  # \o's file, or its command's input
        self._target_name = ""
        self._process: subprocess.Popen | None = None  # \o |COMMAND's command

    # ------------------------------------------------------------ showing
    def stream(self) -> TextIO:
        """Where responses are written now (a \\i report is written here as it runs)."""
        return self._target or sys.stdout

    def show(self, data: str, messages: str = "") -> None:
        """A response: data where responses go, messages on the terminal (stderr)."""
        if data:
            if self._target is not None:
                self._to_target(data)
            elif self._too_big(data):
                self._page(data)
            else:
                _write(sys.stdout, data)
        if messages:
            _write(sys.stderr, messages)

    def note(self, text: str) -> None:
        """The shell's own word (Timing is on., Time: ...): on the terminal, never into \\o's file."""
        _write(sys.stdout, text)

    def _to_target(self, text: str) -> None:
        assert self._target is not None
        try:
            _write(self._target, text)
        except OSError as error:  # a full disk, or \o's command has ended
            name = self._target_name
            self.close()
            print(
                f"mqsh: \\o: cannot write {name}: {error.strerror}; output is back on the terminal.",
                file=sys.stderr,
            )
            _write(sys.stdout, text)

    # ------------------------------------------------------------ the pager
    def pager(self) -> str:
        """The pager command that would run."""
        return self.pager_command or os.environ.get("PAGER") or f"less {LESS_OPTIONS}"

    def _too_big(self, text: str) -> bool:
        if not self.pager_on or not sys.stdout.isatty():
            return False
        size = shutil.get_terminal_size()
        lines = text.split("\n")
        return len(lines) >= size.lines - ROOM or any(len(line) > size.columns for line in lines)

    def _page(self, text: str) -> None:
        sys.stdout.flush()
        try:
            page(self.pager(), text)
        except ProgramFailed as error:
            self.pager_on = False
            print(f"mqsh: pager: {error}. Pager usage is off.", file=sys.stderr)
            _write(sys.stdout, text)

    # ------------------------------------------------------------ \o
    def redirect(self, where: str) -> None:
        """\\o: responses into a file (emptied first) or a command's input; nothing: the terminal.
        Raises OSError, leaving output on the terminal, when the file or command cannot be opened."""
        self.close()
        if not where:
            return
        if where.startswith("|"):
            command = where[1:].strip()
            # A command line as psql runs it: by the shell, so that it may hold pipes and redirection.
            self._process = subprocess.Popen(
                command, shell=True, stdin=subprocess.PIPE, text=True, encoding="utf-8", errors="replace"
            )
            self._target = self._process.stdin
        else:
            self._target = Path(where).expanduser().open("w", encoding="utf-8")
        self._target_name = where

    def close(self) -> None:
        """Back to the terminal: \\o's file closed, or its command's input ended and the command waited for."""
        target, process = self._target, self._process
        self._target, self._process, self._target_name = None, None, ""
        if target is not None:
            try:
                target.close()
            except OSError:
                pass  # its command ended early: nothing more can reach it
        if process is not None:
            while True:
                try:
                    process.wait()
                    break
                except KeyboardInterrupt:
                    process.terminate()  # Ctrl-C while \o's command finishes: do not wait for it
