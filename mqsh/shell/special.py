"""Shell commands: the few words that steer mqsh itself rather than a queue manager."""

from __future__ import annotations

from dataclasses import dataclass

FORMATS = ("mqsc", "table", "json", "csv")


@dataclass(frozen=True)
class ShellCommand:
    name: str
    aliases: tuple[str, ...]
    usage: str
    description: str


SHELL_COMMANDS: dict[str, ShellCommand] = {
    command.name: command
    for command in (
        ShellCommand("help", ("\\?", "\\help", "\\h"), "help [TOPIC]",
                     "List everything, or explain a verb, object, attribute or command (help DEFINE QLOCAL)."),
        ShellCommand("\\format", (), "\\format mqsc|table|json|csv", "Choose how responses are shown."),
        ShellCommand("\\q", (), "\\q", "Leave mqsh (END, EXIT and QUIT do too)."),
    )
}

END_WORDS = ("END", "EXIT", "QUIT")


def find(text: str) -> tuple[ShellCommand, list[str]] | None:
    """The shell command a line starts with, and its arguments."""
    words = text.split()
    if not words:
        return None
    for command in SHELL_COMMANDS.values():
        if words[0].lower() in (command.name, *command.aliases):
            return command, words[1:]
    return None


def is_end(text: str) -> bool:
    return text.strip().upper() in END_WORDS
