"""The literal words every match of a regular expression holds, read from its pattern.

:func:`required_words` reads a pattern such as ``(?<![a-z])bert(?![a-z])`` or
``\\d+\\s*(?:layers?|blocks)\\b`` and gives strings one of which every match holds (``{"bert"}``,
``{"layer", "block"}``), so a text holding none of them need not be searched: ``str.find`` is
many times faster than a search that tries the pattern at every character. Recognisers that try
many patterns on the same text (a model family's name, a role word) test the words first.

The reading is deliberately small and errs only one way: it follows literal characters,
groups (capturing or not), alternations, character classes, the common escapes and quantifiers;
a literal under an optional quantifier, in a lookaround or in a class is not required; anything
it does not follow (a flag, a backreference, a conditional, a numeric escape) makes the answer
None, "no word is known to be required", and the caller searches as before.

Written by hand because no maintained library answers this question: Python's own pattern
parser (``re._parser``) is private and has changed between releases, and the literal-prefilter
libraries (RE2's ``FilteredRE2``, Hyperscan) are native code this project does not depend on.
"""

from __future__ import annotations

import functools
import re

__all__ = ["required_words"]

_SPECIAL = frozenset("\\.^$*+?{}[]()|")
_SKIPPED_ESCAPES = frozenset("dDsSwWbBAZ")  # a class or a zero-width test, never a literal
_COUNTED = re.compile(r"\{(\d*)(?:,\d*)?\}")


class _Unknown(Exception):
    """The pattern uses something this reading does not follow."""


Words = frozenset[str] | None
"""Strings one of which every match holds; None when no such string is known."""


@functools.cache
def required_words(pattern: re.Pattern[str]) -> Words:
    """Strings one of which every match of ``pattern`` holds, each as long as the reading finds
    it, or None when none is known (see the module docstring)."""
    if pattern.flags & ~re.UNICODE:
        return None  # IGNORECASE, VERBOSE, ...: the literals are not the text's
    reader = _Reader(pattern.pattern)
    try:
        words = reader.alternation()
    except _Unknown:
        return None
    if reader.at != len(reader.text):
        return None  # an unbalanced ")"
    return words


def _better(one: Words, other: Words) -> Words:
    """The more telling of two requirements: the one whose shortest word is longer."""
    if one is None:
        return other
    if other is None:
        return one
    return one if min(map(len, one)) >= min(map(len, other)) else other


class _Reader:
    """Reads a pattern left to right; ``at`` is the next character to read."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def _peek(self) -> str:
        return self.text[self.at] if self.at < len(self.text) else ""

    def alternation(self) -> Words:
        """Branches up to a closing ")" or the end: one of each branch's words is held."""
        branches = [self.sequence()]
        while self._peek() == "|":
            self.at += 1
            branches.append(self.sequence())
        if any(branch is None for branch in branches):
            return None
        return frozenset().union(*(b for b in branches if b is not None))

    def sequence(self) -> Words:
        """Atoms up to "|", ")" or the end: the best requirement of any of them."""
        best: Words = None
        run = ""  # consecutive required literal characters
        while self.at < len(self.text) and self._peek() not in "|)":
            char = self._peek()
            literal = ""
            if char == "(":
                inner = self._group()
                if self._quantifier() != "optional":
                    best = _better(best, inner)
            elif char == "[":
                self._class()
                self._quantifier()
            elif char == "\\":
                escaped = self.text[self.at + 1 : self.at + 2]
                self.at += 2
                if escaped in _SKIPPED_ESCAPES:
                    self._quantifier()
                elif escaped and not escaped.isalnum():
                    literal = escaped  # "\.", "\-": the character itself
                else:
                    raise _Unknown  # a backreference, \x41, \n, ...: not followed
            elif char in ".^$":
                self.at += 1
                self._quantifier()
            elif char in _SPECIAL:
                raise _Unknown  # a quantifier with nothing before it, a stray "}"
            else:
                self.at += 1
                literal = char
            if literal:
                quantifier = self._quantifier()
                if quantifier != "optional":
                    run += literal
                    if quantifier == "once":
                        continue  # the run goes on
            # The run ends here: before an optional literal, after a repeated one, at any
            # other atom.
            best = _better(best, frozenset({run}) if run else None)
            run = ""
        return _better(best, frozenset({run}) if run else None)

    def _quantifier(self) -> str:
        """Skip a quantifier after an atom: "optional" when it allows the atom to be absent,
        "repeats" when it may repeat it (a literal after it need not follow the first copy),
        "once" when there is none."""
        char = self._peek()
        if char in ("?", "*"):
            self.at += 1
            kind = "optional"
        elif char == "+":
            self.at += 1
            kind = "repeats"
        elif char == "{":
            counted = _COUNTED.match(self.text, self.at)
            if counted is None:
                raise _Unknown  # a literal "{": not followed
            self.at = counted.end()
            kind = "optional" if counted.group(1) in ("", "0") else "repeats"
        else:
            return "once"
        if self._peek() in ("?", "+"):
            self.at += 1  # lazy or possessive
        return kind

    def _class(self) -> None:
        """Skip a character class ``[...]``."""
        self.at += 1
        if self._peek() == "^":
            self.at += 1
        if self._peek() == "]":
            self.at += 1
        while self.at < len(self.text) and self._peek() != "]":
            self.at += 2 if self._peek() == "\\" else 1
        if self.at >= len(self.text):
            raise _Unknown
        self.at += 1

    def _group(self) -> Words:
        """Read a group ``(...)``: its requirement, or None for a lookaround (zero-width)."""
        self.at += 1
        lookaround = False
        if self.text.startswith("?", self.at):
            if self.text.startswith(("?:",), self.at):
                self.at += 2
            elif self.text.startswith(("?=", "?!"), self.at):
                self.at += 2
                lookaround = True
            elif self.text.startswith(("?<=", "?<!"), self.at):
                self.at += 3
                lookaround = True
            elif self.text.startswith("?P<", self.at):
                close = self.text.find(">", self.at)
                if close < 0:
                    raise _Unknown
                self.at = close + 1
            else:
                raise _Unknown  # flags, comments, conditionals, backreferences
        inner = self.alternation()
        if self._peek() != ")":
            raise _Unknown
        self.at += 1
        return None if lookaround else inner
