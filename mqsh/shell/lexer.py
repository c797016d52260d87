"""Syntax colours for the input buffer: each scanned piece's role becomes a style class."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.lexers import Lexer

from mqsh.shell.scanner import Piece, scan_lines
from mqsh.shell.vocabulary import Vocabulary

STRING_CLASS = "class:mqsc.string"


def style_class(piece: Piece) -> str:
    """mqsc.verb, mqsc.attribute, ... (quoted values are strings whatever their role)."""
    return STRING_CLASS if piece.quoted else f"class:mqsc.{piece.role.value}"


def highlight_lines(text: str, vocabulary: Vocabulary) -> list[StyleAndTextTuples]:
    """Fragments for each line of `text`; text between pieces (blanks) is unstyled.

    The scanner reads each physical line on its own, so no piece crosses a line end.
    """
    pieces = iter(sorted(scan_lines(text, vocabulary), key=lambda piece: piece.start))
    piece = next(pieces, None)
    lines: list[StyleAndTextTuples] = []
    offset = 0
    for line in text.split("\n"):
        line_end = offset + len(line)
        fragments: StyleAndTextTuples = []
        position = offset
        while piece is not None and piece.start < line_end:
            if piece.start > position:
                fragments.append(("", text[position : piece.start]))
            fragments.append((style_class(piece), text[piece.start : piece.end]))
            position = piece.end
            piece = next(pieces, None)
        if position < line_end:
            fragments.append(("", text[position:line_end]))
        lines.append(fragments)
        offset = line_end + 1
    return lines


class MqscLexer(Lexer):
    """prompt-toolkit lexer over highlight_lines, keeping the last result for redraws."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        self._last: tuple[str, list[StyleAndTextTuples]] = ("", [[]])

    def lex_document(self, document: Document) -> Callable[[int], StyleAndTextTuples]:
        text = document.text
        if text != self._last[0]:
            try:
                self._last = (text, highlight_lines(text, self.vocabulary))
            except Exception:
                # Colours are a convenience: on any surprise, show the text plain.
                self._last = (text, [[("", line)] for line in text.split("\n")])
        lines = self._last[1]
        return lambda number: lines[number] if number < len(lines) else []
