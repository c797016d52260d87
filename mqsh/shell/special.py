"""Shell commands: the few words that steer mqsh itself rather than a queue manager."""

from __future__ import annotations

from dataclasses import dataclass

FORMATS = ("mqsc", "table", "json", "csv")


@dataclass(frozen=True)
class ShellCommandSpec:
    name: str
    aliases: tuple[str, ...]
    usage: str
    description: str
    # Carried out by the interactive shell (mqsh.shell.console), which owns the terminal; the rest by
    # the session. A script is runmqsc's input: every backslash command there is refused.
    interactive: bool = False


SHELL_COMMANDS: dict[str, ShellCommandSpec] = {
    command.name: command
    for command in (
        ShellCommandSpec(
            "help",
            ("\\?", "\\help", "\\h"),
            "help [TOPIC]",
            "List everything, or explain a verb, object, attribute or command (help DEFINE QLOCAL).",
        ),
        ShellCommandSpec("\\format", (), "\\format mqsc|table|json|csv", "Choose how responses are shown."),
        ShellCommandSpec(
            "\\i", (), "\\i FILE", "Run an MQSC file here, with its runmqsc report.", interactive=True
        ),
        ShellCommandSpec(
            "\\o",
            (),
            "\\o [FILE | |COMMAND]",
            "Send responses to FILE (emptied first) or to COMMAND; \\o alone: back to the terminal.",
            interactive=True,
        ),
        ShellCommandSpec(
            "\\pager",
            (),
            "\\pager [on|off|COMMAND]",
            "Page responses taller or wider than the screen ($PAGER or less -SRXF; on at start).",
            interactive=True,
        ),
        ShellCommandSpec(
            "\\timing", (), "\\timing [on|off]", "Say how long each command took.", interactive=True
        ),
        ShellCommandSpec(
            "\\echo",
            (),
            "\\echo [on|off]",
            "Echo each command numbered before its response, as runmqsc does (mqsh --echo: on at start).",
            interactive=True,
        ),
        ShellCommandSpec(
            "\\e",
            (),
            "\\e",
            "Edit the last command in $EDITOR; what is saved comes back to the prompt.",
            interactive=True,
        ),
        ShellCommandSpec("\\q", (), "\\q", "Leave mqsh (END, EXIT and QUIT do too)."),
    )
}

END_WORDS = ("END", "EXIT", "QUIT")
# What help says of them, in the overview and as their own topic (help end).
END_HELP = (" | ".join(END_WORDS), "Leave mqsh.")


def argument_text(text: str) -> str:
    """All that follows a shell command's name, as typed (a file name or a command line)."""
    parts = text.strip().split(maxsplit=1)
    return parts[1].strip() if len(parts) > 1 else ""


def find(text: str) -> tuple[ShellCommandSpec, list[str]] | None:
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
