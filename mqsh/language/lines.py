"""Physical input lines -> MQSC commands, by runmqsc's continuation rules.

runmqsc echoes every physical line, numbers the first line of each command and
joins continued lines before parsing:

* a line whose first column is ``*`` is a comment; a blank line is ignored;
* a trailing ``-`` continues with the first column of the next line;
* a trailing ``+`` continues with the first non-blank of the next line;
* a ``;`` (outside quotes) at the end ends the command, even after a ``+``;
* comment and blank lines inside a continued command are dropped.

The reader is incremental so that the REPL can ask "is this command complete?"
and the batch report can echo each line as it is read.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Chunk:
    """A run of physical lines: one command, or one comment/blank line."""

    lines: list[str] = field(default_factory=list)
    text: str | None = None  # the joined command; None for comment/blank lines

    @property
    def is_command(self) -> bool:
        return self.text is not None


def is_comment(line: str) -> bool:
    return line.startswith("*")


def _quote_open(text: str) -> bool:
    """True when text ends inside a quoted string ('' counts as a quote pair)."""
    return text.count("'") % 2 == 1


def _split_continuation(line: str, joined_so_far: str) -> tuple[str, str | None]:
    """Return (content, mode) where mode is '+', '-', ';' or None (command ends).

    Trailing blanks after a continuation character are tolerated: runmqsc
    scripts in the wild often carry them.
    """
    stripped = line.rstrip()
    if stripped.endswith(("+", "-")):
        return stripped[:-1], stripped[-1]
    if stripped.endswith(";") and not _quote_open(joined_so_far + stripped[:-1]):
        return stripped[:-1], ";"
    return line.rstrip("\r\n"), None


class LineReader:
    """Feed physical lines one at a time; completed chunks come back from feed()."""

    def __init__(self) -> None:
        self._pending: Chunk | None = None
        self._joined = ""
        self._mode: str | None = None  # how the next line joins: '+' or '-'

    @property
    def in_command(self) -> bool:
        """True while a continued command waits for more lines."""
        return self._pending is not None

    def feed(self, line: str) -> list[Chunk]:
        line = line.rstrip("\r\n")
        if self._pending is None:
            if is_comment(line) or not line.strip():
                return [Chunk([line])]
            self._pending = Chunk([])
            self._joined = ""
            self._mode = None
        chunk = self._pending
        if self._mode is not None and (is_comment(line) or not line.strip()):
            # Comment and blank lines between continued lines are discarded
            # (but still echoed as part of the command).
            chunk.lines.append(line)
            return []
        chunk.lines.append(line)
        content, mode = _split_continuation(line, self._joined)
        if self._mode == "+":
            content = content.lstrip()
        self._joined += content
        if mode in ("+", "-"):
            self._mode = mode
            return []
        return [self._finish()]

    def preview(self, line: str) -> str:
        """The command text so far, if `line` (still being typed) were its last line.

        Completion and the syntax hint look at a half-typed, possibly continued
        command through this; the reader itself does not change.
        """
        if is_comment(line):
            return self._joined
        if self._pending is not None and self._mode == "+":
            line = line.lstrip()
        return self._joined + line

    def close(self) -> list[Chunk]:
        """End of input: a command still waiting for continuation ends here."""
        if self._pending is None:
            return []
        return [self._finish()]

    def _finish(self) -> Chunk:
        chunk = self._pending
        assert chunk is not None
        # A line holding only ";" or a dangling "+" carries no command.
        chunk.text = self._joined.strip() or None
        self._pending = None
        self._joined = ""
        self._mode = None
        return chunk


def split_commands(text: str) -> list[Chunk]:
    """All chunks of a whole script."""
    reader = LineReader()
    chunks: list[Chunk] = []
    for line in text.splitlines():
        chunks.extend(reader.feed(line))
    chunks.extend(reader.close())
    return chunks
