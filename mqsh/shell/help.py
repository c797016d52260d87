"""help and \\h: the list of everything, or one topic - a verb, a verb and an object, one attribute,
a lab control, a control command or a shell command - from the catalogue and the parsers.

    help                          everything, one line each
    help DEFINE                   what DEFINE does and what it defines
    help DEFINE QLOCAL            its syntax, then each attribute with its values and meaning
    help ALTER QMGR IMGRCOVQ      one attribute
    help LAB / help LAB CLOCK     the lab controls, or one
    help crtmqm / help \\format    a control command's options, a shell command
"""

from __future__ import annotations

import argparse
import difflib
import re

from mqsh.language.catalogue import AttributeSpec, Catalogue, ObjectSpec, VerbSpec
from mqsh.language.usage import attribute_names, usage_lines
from mqsh.language.validate import MqscSyntaxError, allowed_keywords
from mqsh.shell.special import END_HELP, SHELL_COMMANDS, is_end


def overview(catalogue: Catalogue, controls: dict[str, argparse.ArgumentParser]) -> list[str]:
    lines = [
        "MQSC commands (help VERB [OBJECT [ATTRIBUTE]] for one; the AMQ8427I usage follows any syntax error):"
    ]
    lines += [
        "  " + " ".join(sorted(catalogue.verbs[verb].name for verb in catalogue.verbs if verb != "LAB"))
    ]
    lines += ["Control commands (help COMMAND for its options):"]
    lines += ["  " + " ".join(parser.format_usage().split()[1:]) for parser in controls.values()]
    if "LAB" in catalogue.verbs:
        lines += ["Lab controls (not MQSC; they make a scenario happen; help LAB ACTION for one):"]
        for action in catalogue.verbs["LAB"].targets:
            head, *params = usage_lines(catalogue, "LAB", action)
            lines.append(f"  {head.strip()} " + " ".join(" ".join(line.split()) for line in params))
    lines += ["Shell commands:"]
    lines += [f"  {command.usage:<28}{command.description}" for command in SHELL_COMMANDS.values()]
    lines += [f"  {END_HELP[0]:<28}{END_HELP[1]}"]
    return lines


def value_text(spec: AttributeSpec) -> str:
    """What an attribute takes, in a few words."""
    if spec.type == "flag":
        return f"a flag (off: {spec.negative})" if spec.negative else "a flag"
    if spec.type == "keyword":
        taken = " | ".join(spec.values)
    elif spec.type == "integer":
        bounds = f"{spec.min if spec.min is not None else ''} to {spec.max if spec.max is not None else ''}"
        taken = "an integer" + (f", {bounds.strip()}" if spec.min is not None or spec.max is not None else "")
        if spec.values:
            taken += ", or " + " | ".join(spec.values)
    elif spec.type in ("date", "time"):
        taken = "a date (yyyy-mm-dd)" if spec.type == "date" else "a time (hh.mm.ss)"
    else:
        taken = f"a string of up to {spec.length} characters" if spec.length else "a string"
    return taken + (", a list (A,B,C)" if spec.list else "")


def _attribute_lines(catalogue: Catalogue, verb: VerbSpec, obj: ObjectSpec, name: str) -> list[str]:
    spec = catalogue.attribute(catalogue.canonical(name), obj, verb)
    if spec is None:
        return []
    also = f" (also written {name})" if name != spec.name else ""
    return [
        f"{verb.name} {obj.name} {spec.name}{also}: {spec.description or 'no description'}",
        f"  Takes {value_text(spec)}.",
    ]


def _object_lines(catalogue: Catalogue, verb: VerbSpec, obj: ObjectSpec) -> list[str]:
    heading = f"{verb.name} {obj.name}: {verb.description}" + (
        f" - {obj.description}" if obj.description else ""
    )
    lines = [heading, *usage_lines(catalogue, verb.name, obj.name)]
    names = attribute_names(catalogue, verb.name, obj, None)
    if names:
        lines.append("Attributes:")
        width = max(len(name) for name in names) + 2
        for name in names:
            spec = catalogue.attribute(name, obj, verb)
            if spec is not None:
                lines.append(f"  {name:<{width}}{spec.description or value_text(spec)}")
    return lines


def _verb_lines(catalogue: Catalogue, verb: VerbSpec) -> list[str]:
    lines = [f"{verb.name}: {verb.description}"]
    for target in verb.targets:
        obj = catalogue.objects[target]
        lines.append(f"  {verb.name} {target:<12}{obj.description}")
    return lines


def topic(
    catalogue: Catalogue, controls: dict[str, argparse.ArgumentParser], words: list[str]
) -> list[str] | None:
    """The help for words; None when they name nothing mqsh knows."""
    first = words[0]
    if first.lower() in controls:
        return controls[first.lower()].format_help().rstrip().splitlines()
    for command in SHELL_COMMANDS.values():
        if first.lower() in (command.name, *command.aliases):
            return [f"{command.usage}: {command.description}"]
    if len(words) == 1 and is_end(first):
        return [f"{END_HELP[0]}: {END_HELP[1]}"]
    verb = catalogue.verb(first)
    if verb is None:
        return None
    if len(words) == 1:
        return _verb_lines(catalogue, verb)
    obj = catalogue.object(words[1])
    if obj is None or obj.name not in verb.targets:
        return None
    if len(words) == 2:
        return _object_lines(catalogue, verb, obj)
    found = [line for word in words[2:] for line in _attribute_lines(catalogue, verb, obj, word.upper())]
    return found or None


def lines_for(
    catalogue: Catalogue, controls: dict[str, argparse.ArgumentParser], words: list[str]
) -> list[str]:
    """help's answer: the overview, the topic, or what was meant."""
    if not words:
        return overview(catalogue, controls)
    found = topic(catalogue, controls, words)
    if found is not None:
        return found
    known = [*catalogue.verb_words(), *controls, *(command.name for command in SHELL_COMMANDS.values())]
    if len(words) > 1 and catalogue.verb(words[0]) is not None:
        verb = catalogue.verb(words[0])
        known = [f"{verb.name} {target}" for target in verb.targets]
        obj = catalogue.object(words[1])
        if obj is not None and obj.name in verb.targets:
            known = [
                f"{verb.name} {obj.name} {name}" for name in attribute_names(catalogue, verb.name, obj, None)
            ]
    asked = " ".join(words)
    spelled = {word.upper(): word for word in known}
    close = [
        spelled[word] for word in difflib.get_close_matches(asked.upper(), list(spelled), n=3, cutoff=0.6)
    ]
    answer = [f"mqsh: no help for '{asked}'."]
    if close:
        answer.append("Did you mean: " + ", ".join(close) + "?")
    return answer + ["help alone lists everything."]


def _meant(word: str, candidates: list[str]) -> list[str]:
    spelled = {candidate.upper(): candidate for candidate in candidates}
    return [
        spelled[found] for found in difflib.get_close_matches(word.upper(), list(spelled), n=3, cutoff=0.6)
    ]


def syntax_hint(catalogue: Catalogue, error: MqscSyntaxError) -> str:
    """One line for an interactive syntax error: the word that was probably meant, and where the
    whole syntax is (the 40-line usage runmqsc prints is one help away)."""
    words = [word for word in error.segment.replace("(", " ").replace(")", " ").split() if word]
    last = words[-1] if words else ""
    if error.verb is None:
        close, where = _meant(last, catalogue.verb_words()), "help"
    elif error.target is None:
        verb = catalogue.verbs[error.verb]
        close = _meant(
            last, [word for target in verb.targets for word in (target, *catalogue.objects[target].synonyms)]
        )
        where = f"help {error.verb}"
    else:
        verb, obj = catalogue.verbs[error.verb], catalogue.objects[error.target]
        allowed = allowed_keywords(verb, obj, None)
        keyword = catalogue.canonical(words[-2]) if len(words) > 2 else ""
        valued = len(words) > 2 and re.search(
            rf"(?<![\w.]){re.escape(words[-2])}\s*\(\s*'?{re.escape(last)}", error.segment, re.IGNORECASE
        )
        spec = catalogue.attribute(keyword, obj, verb) if valued and keyword in allowed else None
        if spec is not None and catalogue.canonical(last) not in allowed:
            # The value of a keyword that is right: say what the keyword takes.
            close = _meant(last, list(spec.values)) if spec.type == "keyword" else []
            meant = f"Did you mean {' or '.join(close)}? " if close else ""
            return f"{meant}{spec.name} takes {value_text(spec)}. Type help {verb.name} {obj.name} {spec.name} for more."
        close = _meant(last, sorted(allowed))
        where = f"help {error.verb} {error.target}"
    meant = f"Did you mean {' or '.join(close)}? " if close and last.upper() not in close else ""
    return f"{meant}Type {where} for the full syntax."
