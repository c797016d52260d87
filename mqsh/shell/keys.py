"""Key bindings of the REPL: Enter runs the input only once the command is complete.

runmqsc continues a command on the next line when a line ends in "+" or "-";
a ";" or a line without either ends it. The input buffer is multi-line, and
Enter either submits it or opens the next continuation line.
"""

from __future__ import annotations

from prompt_toolkit.filters import completion_is_selected
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from mqsh.language.lines import LineReader


def is_complete(text: str) -> bool:
    """True when no command in `text` waits for a continuation line."""
    reader = LineReader()
    for line in text.split("\n"):
        reader.feed(line)
    return not reader.in_command


def shell_key_bindings() -> KeyBindings:
    bindings = KeyBindings()

    @bindings.add("enter", filter=completion_is_selected)
    def _accept_completion(event: KeyPressEvent) -> None:
        """Enter on a highlighted completion takes it, without running the command."""
        event.current_buffer.complete_state = None

    @bindings.add("enter", filter=~completion_is_selected)
    def _submit_or_continue(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        if is_complete(buffer.text):
            buffer.validate_and_handle()
        else:
            buffer.insert_text("\n")

    return bindings
