"""The interactive shell: prompt, run each command, print its response, until END or Ctrl-D.

In a terminal runmqsc echoes each command numbered ("     1 : DEFINE QLOCAL(Q1)") and shows
no prompt unless MQPROMPT is set; mqsh keeps its prompt and shows the echo when asked for
(mqsh --echo, \\echo on). mqsh.shell.console runs each command and shows its response. Everything that can go wrong while a command runs is
reported in one line and the prompt comes back.
"""

from __future__ import annotations

import os
import sys
import traceback
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.completion import ThreadedCompleter
from prompt_toolkit.history import FileHistory, History, InMemoryHistory

from mqsh.commands.control.programs import CONTROL_COMMANDS
from mqsh.language.lines import split_commands
from mqsh.responses import cannot_use
from mqsh.shell.batch import Tally
from mqsh.shell.completer import MqshCompleter, SessionNames
from mqsh.shell.console import Console
from mqsh.shell.keys import shell_key_bindings
from mqsh.shell.lexer import MqscLexer
from mqsh.shell.prompt import prompt_text
from mqsh.shell.session import Session
from mqsh.shell.special import SHELL_COMMANDS
from mqsh.shell.style import SHELL_STYLE
from mqsh.shell.toolbar import bottom_toolbar
from mqsh.shell.vocabulary import Vocabulary


def open_history(history_file: Path) -> History:
    """The history file, or (when it cannot be written) a history that lasts this session."""
    try:
        history_file.parent.mkdir(parents=True, exist_ok=True)
        with history_file.open("a"):  # fails now, not at the first command, if it cannot be written
            pass
    except OSError as error:
        print(f"mqsh: history will not be saved: {error.strerror}: {history_file}", file=sys.stderr)
        return InMemoryHistory()
    return FileHistory(str(history_file))


def _continuation(width: int, line_number: int, wrap_count: int) -> str:
    # Continuation lines are marked like runmqsc marks them in its echo: "    : ".
    return " " * max(width - 2, 0) + ": "


def build_prompt_session(session: Session, history: History, names: SessionNames) -> PromptSession:
    vocabulary = Vocabulary.of(session.catalogue, CONTROL_COMMANDS, SHELL_COMMANDS)
    return PromptSession(
        history=history,
        completer=ThreadedCompleter(MqshCompleter(vocabulary, names)),
        complete_while_typing=True,
        auto_suggest=AutoSuggestFromHistory(),
        lexer=MqscLexer(vocabulary),
        style=SHELL_STYLE,
        bottom_toolbar=bottom_toolbar(session, vocabulary),
        multiline=True,
        prompt_continuation=_continuation,
        key_bindings=shell_key_bindings(),
    )


def run_input(
    session: Session,
    text: str,
    names: SessionNames,
    tally: Tally | None = None,
    console: Console | None = None,
) -> bool:
    """Run every command in one accepted input; True when one of them ends the session.
    tally counts them for the summary runmqsc prints at the end."""
    console = console or Console(session)
    for chunk in split_commands(text):
        if not chunk.is_command:
            continue
        try:
            with names.lock:
                ended = console.run(chunk.text, tally, chunk.lines)
        except KeyboardInterrupt:
            print("mqsh: interrupted", file=sys.stderr)
            return False
        except OSError as error:  # the data directory: read-only, full ...
            print(cannot_use(error), file=sys.stderr)
            return False
        except Exception as error:
            if os.environ.get("MQSH_DEBUG"):
                traceback.print_exc()
            print(
                f"mqsh: internal error: {type(error).__name__}: {error}. Set MQSH_DEBUG=1 to see where.",
                file=sys.stderr,
            )
            return False
        if ended:
            return True
    return False


def run_repl(session: Session, history_file: Path, echo: bool = False) -> int:
    """Read, run and print until END/EXIT/QUIT or Ctrl-D; the exit code is the report's, as runmqsc's
    is whether its input is a terminal or a file: 0, or 10 after a syntax error or a failed command.
    echo: each command numbered before its response from the start (\\echo switches it)."""
    names = SessionNames(session)
    session.brief_syntax_errors = True
    prompt_session = build_prompt_session(session, open_history(history_file), names)
    print(f"Starting MQSC for queue manager {session.current_qmgr}.")
    print("Type help for what mqsh understands; END, EXIT, QUIT or Ctrl-D to leave.")
    tally = Tally()
    console = Console(session)
    console.echo = echo
    try:
        while True:
            try:
                # \e leaves what was saved in the editor here, to be run with Enter (as pgcli does).
                text = prompt_session.prompt(
                    lambda: prompt_text(session.current_qmgr), default=console.take_pending()
                )
            except KeyboardInterrupt:
                continue  # Ctrl-C abandons the input being typed
            except EOFError:
                break
            if run_input(session, text, names, tally, console):
                break
    finally:
        console.close()
    console.output.note("\n".join(tally.summary(verify=False)))  # as runmqsc ends an interactive session
    return tally.exit_code
