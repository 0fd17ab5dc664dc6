"""``lessoncheck fix``: rewrite the wrong numbers of a lesson, and its claims with it.

For every failing claim whose checker suggests a fix (the quote with the corrected numbers at
their printed precision), the quote is located in the lesson the way claims are anchored
(whitespace and full-width tolerant, :mod:`checkers.lesson`) and only the numbers that change
are replaced inside that span, so the lesson keeps its formatting. The claim file is updated to
match: the ``quote:`` text and the ``claimed:`` value, edited in place at the character positions
the safe YAML composer reports, so comments, quoting and layout survive byte for byte (a
ruamel.yaml round trip would keep comments too, but may re-wrap or re-quote other lines).

Worked examples chain: ``score = 0.78`` feeds ``0.78 / 1.41 = 0.55`` (``uses:``). Correcting
the first number changes the input of the next step, so ``fix`` carries the change along: where
a dependent claim's quote prints the upstream value (found by lining its ``expression`` up with
its quote, or as the only such number), that number is rewritten too, the dependent is checked
again and fixed in turn, and printed intermediate steps of an arithmetic chain
(``= 0.156 + 0.273 + 0.221``) are recomputed term by term. A worked example is rewritten as a
whole or not at all.

Nothing is written that has not been verified: every plan is run through the checks in a scratch
copy first, and a fix is dropped (with the reason reported) when its claim would still fail,
when it would make another claim fail or go stale, when the quote is not unique or not found,
or when the suggested fix changes more than numbers. ``--diff`` (the default) prints a unified
diff; ``--write`` writes lessons, then claim files, each atomically.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from checkers.claims import Claim, ClaimsFile, load_claims_file
from checkers.files import write_atomic
from checkers.finding import Finding, summary_line
from checkers.lesson import AnchorError, Lesson, fold
from checkers.runner import iter_claim_files, run_file

__all__ = [
    "FixPlan",
    "NotFixed",
    "Rewrite",
    "describe",
    "number_changes",
    "number_tokens",
    "plan_fix",
]

MAX_ROUNDS = 60
"""Rounds of check-and-fix in one attempt (one round per step of the longest worked example)."""
MAX_EDITS_PER_CLAIM = 4
"""A claim fixed this often without settling is left alone (the fix does not converge)."""

# ---------------------------------------------------------------------------------------------
# Numbers in text


@dataclass(frozen=True)
class Token:
    """A printed number inside a text: ``text[start:end]``."""

    start: int
    end: int
    text: str

    @property
    def norm(self) -> str:
        """The number as compared: full-width folded, unicode minus as ``-``."""
        return _norm(self.text)


_DIGIT = "0-9０-９"
_NUMBER = re.compile(
    rf"(?<![{_DIGIT}A-Za-z_.．])"  # not inside another number or a name such as w1
    rf"(?:(?<![{_DIGIT}A-Za-z_)\]）］])[-−])?"  # a sign, unless it is a binary minus
    rf"[{_DIGIT}]+(?:[.．][{_DIGIT}]+)?"
)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _norm(text: str) -> str:
    return fold(text)[0]


def number_tokens(text: str) -> list[Token]:
    """The printed numbers of ``text`` in order (``x1``, ``W₂`` and ``10⁻⁵``'s exponent are not)."""
    return [Token(m.start(), m.end(), m.group()) for m in _NUMBER.finditer(text)]


def _skeleton(text: str, tokens: Sequence[Token]) -> str:
    pieces: list[str] = []
    cursor = 0
    for token in tokens:
        pieces.append(text[cursor : token.start])
        pieces.append("\x00")
        cursor = token.end
    pieces.append(text[cursor:])
    return "".join(pieces)


def number_changes(quote: str, fix: str) -> dict[int, str] | None:
    """Which numbers of ``quote`` the suggested ``fix`` changes: {token index: new text}.

    None when the fix changes anything besides numbers (then it is not a number replacement).
    """
    old, new = number_tokens(quote), number_tokens(fix)
    if len(old) != len(new) or _skeleton(quote, old) != _skeleton(fix, new):
        return None
    return {i: b.text for i, (a, b) in enumerate(zip(old, new, strict=True)) if a.text != b.text}


def _replace_numbers(text: str, changes: dict[int, str]) -> str:
    """``text`` with its numbers ``changes`` (by index) replaced."""
    for index, token in reversed(list(enumerate(number_tokens(text)))):
        if index in changes:
            text = text[: token.start] + changes[index] + text[token.end :]
    return text


def _styled(new: str, original: str) -> str:
    """``new`` written the way ``original`` was: full-width digits, unicode minus."""
    if any("０" <= c <= "９" for c in original):
        new = "".join(
            chr(ord(c) - ord("0") + ord("０")) if c.isdigit() else ("．" if c == "." else c)
            for c in new
        )
    if "−" in original:
        new = new.replace("-", "−")
    elif "-" in original:
        new = new.replace("−", "-")
    return new


# ---------------------------------------------------------------------------------------------
# Results


class FixProblem(Exception):
    """Why a claim cannot be rewritten; the message is shown to the author."""


@dataclass(frozen=True)
class Rewrite:
    """One number rewritten in a lesson."""

    lesson: str
    """The lesson, as displayed (relative to the working folder when inside it)."""
    line: int
    """Lesson line of the number (before rewriting)."""
    old: str
    """The number as it was printed."""
    new: str
    """The number as it is now printed."""
    claim: str
    """``claims/x.yaml::id`` of the claim whose quote holds it."""


@dataclass(frozen=True)
class NotFixed:
    """A failing claim that ``fix`` leaves alone, and why."""

    claim: str
    """``claims/x.yaml::id``."""
    where: str
    """``content/x.md:12``."""
    kind: str
    """The claim kind."""
    reason: str
    """Why it was not rewritten."""


@dataclass
class FixPlan:
    """What ``fix`` would change (``--diff``) or changed (``--write``)."""

    originals: dict[Path, str]
    """Text of every file read, as read (BOM removed)."""
    texts: dict[Path, str]
    """New text of every file that changes."""
    boms: set[Path]
    """Files that started with a UTF-8 byte-order mark (kept when writing)."""
    fixed: list[str]
    """Claims that failed and hold after the rewrite."""
    carried: list[str]
    """Claims rewritten because an input they print changed (they hold after the rewrite)."""
    rewrites: list[Rewrite]
    """Every number rewritten in a lesson."""
    not_fixed: list[NotFixed]
    """Failing claims left alone, with the reason."""
    hints: list[str]
    """Numbers that changed and are still printed near by, outside every claim."""
    before: list[Finding]
    """Findings before the rewrite."""
    after: list[Finding]
    """Findings after the rewrite (what ``lessoncheck check`` will report)."""

    def changed_files(self) -> list[Path]:
        """Files that change: lessons first, then claim files, each sorted."""
        return sorted(self.texts, key=lambda p: (p.suffix in (".yaml", ".yml"), str(p)))

    def diff(self) -> str:
        """A unified diff (``a/`` and ``b/`` paths relative to the working folder)."""
        chunks: list[str] = []
        for path in self.changed_files():
            name = _display(path)
            lines = difflib.unified_diff(
                _lines(self.originals[path]),
                _lines(self.texts[path]),
                fromfile=f"a/{name}",
                tofile=f"b/{name}",
            )
            for line in lines:
                chunks.append(
                    line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                )
        return "".join(chunks)

    def write(self) -> None:
        """Write the lessons, then the claim files, each atomically."""

        for path in self.changed_files():
            write_atomic(path, ("\ufeff" if path in self.boms else "") + self.texts[path])


def _lines(text: str) -> list[str]:
    """Lines ending at ``\n`` only, as ``patch`` and ``git apply`` count them."""
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def _display(path: Path) -> str:
    try:
        return path.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


# ---------------------------------------------------------------------------------------------
# Claim files: edits in place, located with ruamel.yaml's composer


@lru_cache(maxsize=64)
def _compose(text: str) -> yaml.Node:
    """The claim file's node tree (PyYAML's safe composer, as :mod:`checkers.safeyaml` uses:
    nothing is constructed), with the character offsets of every value."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        node = yaml.compose(text, Loader=loader)
    except yaml.YAMLError as error:
        raise FixProblem(f"the claim file cannot be edited ({type(error).__name__})") from None
    if node is None:
        raise FixProblem("the claim file is empty")
    return node


def _claim_node(root: yaml.Node, claim_id: str) -> yaml.MappingNode:
    if not isinstance(root, yaml.MappingNode):
        raise FixProblem("the claim file is not a mapping")
    claims = [v for k, v in root.value if isinstance(k, yaml.ScalarNode) and k.value == "claims"]
    if len(claims) != 1 or not isinstance(claims[0], yaml.SequenceNode):
        raise FixProblem("the claim file has no list of claims")
    found = [
        item
        for item in claims[0].value
        if isinstance(item, yaml.MappingNode)
        and any(
            isinstance(k, yaml.ScalarNode)
            and k.value == "id"
            and isinstance(v, yaml.ScalarNode)
            and v.value == claim_id
            for k, v in item.value
        )
    ]
    if len(found) != 1:
        raise FixProblem(f"claim id {claim_id!r} is not unique in its file")
    return found[0]


def _field_node(claim: yaml.MappingNode, name: str) -> yaml.Node | None:
    for key, value in claim.value:
        if isinstance(key, yaml.ScalarNode) and key.value == name and isinstance(value, yaml.Node):
            return value
    return None


def _leaves(node: yaml.Node) -> list[yaml.ScalarNode]:
    """Scalar nodes under ``node`` in document order."""
    if isinstance(node, yaml.ScalarNode):
        return [node]
    if isinstance(node, yaml.SequenceNode):
        return [leaf for item in node.value for leaf in _leaves(item)]
    if isinstance(node, yaml.MappingNode):
        return [leaf for _, item in node.value for leaf in _leaves(item)]
    return []


def _source_tokens(text: str, node: yaml.Node) -> list[Token]:
    """Numbers printed in the source of ``node``'s scalars, with positions in the file."""
    tokens: list[Token] = []
    for leaf in _leaves(node):
        start, end = leaf.start_mark.index, leaf.end_mark.index
        tokens.extend(
            Token(t.start + start, t.end + start, t.text) for t in number_tokens(text[start:end])
        )
    return tokens


def _claimed_source(text: str, claim_id: str) -> list[Token]:
    node = _field_node(_claim_node(_compose(text), claim_id), "claimed")
    return [] if node is None else _source_tokens(text, node)


def _edit_claim_file(
    text: str,
    changes: dict[str, dict[str, dict[int, str]]],
    values: dict[str, dict[str, str]],
) -> str:
    """``text`` with numbers rewritten: {claim id: {field: {number index: new text}}}.

    For fields in ``values`` (their parsed value), the numbers in the source must be the numbers
    of the value, one for one, or the edit is refused. Only those characters change: comments,
    quoting and layout stay exactly as they were.
    """
    root = _compose(text)
    replacements: list[tuple[int, int, str]] = []
    for claim_id, fields in changes.items():
        claim = _claim_node(root, claim_id)
        for name, by_index in fields.items():
            if not by_index:
                continue
            node = _field_node(claim, name)
            if node is None:
                raise FixProblem(f"the claim has no `{name}:` field to update")
            tokens = _source_tokens(text, node)
            expected = values.get(claim_id, {}).get(name)
            if expected is not None and [t.norm for t in tokens] != [
                t.norm for t in number_tokens(expected)
            ]:
                raise FixProblem(f"the `{name}:` text in the claim file is escaped or folded oddly")
            for index, new in by_index.items():
                if index >= len(tokens):
                    raise FixProblem(f"the `{name}:` field does not print number {index + 1}")
                token = tokens[index]
                replacements.append((token.start, token.end, _styled(new, token.text)))
    for start, end, new in sorted(set(replacements), reverse=True):
        text = text[:start] + new + text[end:]
    return text


# ---------------------------------------------------------------------------------------------
# Lining texts up: a quote in its lesson, an expression in its quote


def _quote_span(lesson: Lesson, quote: str, occurrence: int | None, *, explain: bool = True) -> int:
    """Folded offset in the lesson where ``quote`` starts (unique, or the occurrence asked).

    Raises :class:`FixProblem` when the quote is gone or ambiguous, with the anchoring message
    when ``explain`` (finding the closest line takes a while).
    """
    needle = fold(quote)[0]
    found: list[int] = []
    start = lesson.folded.find(needle) if needle else -1
    while start != -1:
        found.append(start)
        start = lesson.folded.find(needle, start + 1)
    index = occurrence or 1
    if found and (occurrence is not None or len(found) == 1) and index <= len(found):
        return found[index - 1]
    if explain:
        try:
            lesson.anchor(quote, occurrence)
        except AnchorError as error:
            raise FixProblem(error.message) from None
    raise FixProblem("the quote is not found once in the lesson")


def _folded_range(text: str, token: Token) -> tuple[int, int]:
    _, offsets = fold(text)
    inside = [i for i, offset in enumerate(offsets) if token.start <= offset < token.end]
    if not inside or inside != list(range(inside[0], inside[-1] + 1)):
        raise FixProblem(f"cannot place the number {token.text}")
    return inside[0], inside[-1] + 1


def _is_number_edge(text: str, start: int, end: int) -> bool:
    before = text[start - 1 : start]
    after = text[end : end + 1]
    after_two = text[end : end + 2]
    if before and (before.isdigit() or before in ".．"):
        return False
    if after and after.isdigit():
        return False
    return not (after in (".", "．") and len(after_two) == 2 and after_two[1].isdigit())


@dataclass(frozen=True)
class _Replacement:
    start: int
    end: int
    new: str


def _lesson_ranges(lesson: Lesson, start: int, quote: str, indexes: Iterable[int]) -> list[Token]:
    """Where the quote's numbers ``indexes`` sit in the lesson text (as Tokens of the lesson)."""
    tokens = number_tokens(quote)
    placed: list[Token] = []
    for index in indexes:
        low, high = _folded_range(quote, tokens[index])
        first = lesson.offsets[start + low]
        last = lesson.offsets[start + high - 1] + 1
        raw = lesson.text[first:last]
        if _norm(raw) != tokens[index].norm or not _is_number_edge(lesson.text, first, last):
            raise FixProblem(
                f"the number {tokens[index].text} of the quote is part of a longer number "
                "in the lesson"
            )
        placed.append(Token(first, last, raw))
    return placed


def _substituted(expression: str, values: dict[str, str]) -> tuple[str, list[int], list[int]]:
    """The expression with the ``uses:`` names written as their printed values.

    Returns the text, the position in it of each character of ``expression`` (-1 for names
    replaced) and, per replaced name occurrence, the start of its value.
    """
    pieces: list[str] = []
    where: list[int] = []
    starts: list[int] = []
    cursor = 0
    length = 0
    for match in _IDENTIFIER.finditer(expression):
        if match.group() not in values:
            continue
        literal = expression[cursor : match.start()]
        where.extend(range(length, length + len(literal)))
        pieces.append(literal)
        length += len(literal)
        where.extend([-1] * (match.end() - match.start()))
        starts.append(length)
        value = values[match.group()]
        pieces.append(value)
        length += len(value)
        cursor = match.end()
    literal = expression[cursor:]
    where.extend(range(length, length + len(literal)))
    pieces.append(literal)
    return "".join(pieces), where, starts


@dataclass(frozen=True)
class _Alignment:
    """An expression lined up with the quote it was copied from."""

    literal: dict[int, int]
    """Number token of the expression → number token of the quote."""
    names: list[tuple[str, list[int]]]
    """Each replaced name occurrence: (name, the quote's number tokens inside its value)."""


def _align(expression: str, quote: str, values: dict[str, str]) -> _Alignment | None:
    """Line ``expression`` (names written as ``values``) up with ``quote``; None if not found."""
    text, where, starts = _substituted(expression, values)
    needle, needle_offsets = fold(text)
    haystack, quote_offsets = fold(quote)
    if not needle or haystack.count(needle) != 1:
        return None
    base = haystack.find(needle)
    quote_tokens = number_tokens(quote)
    by_start = {t.start: i for i, t in enumerate(quote_tokens)}

    def quote_token(position: int) -> int | None:
        """The quote token starting at substituted-text character ``position``."""
        folded = [i for i, offset in enumerate(needle_offsets) if offset == position]
        if not folded:
            return None
        return by_start.get(quote_offsets[base + folded[0]])

    literal: dict[int, int] = {}
    for index, token in enumerate(number_tokens(expression)):
        position = where[token.start]
        found = quote_token(position) if position >= 0 else None
        if found is not None and quote_tokens[found].norm == token.norm:
            literal[index] = found
    names: list[tuple[str, list[int]]] = []
    occurrences = [m for m in _IDENTIFIER.finditer(expression) if m.group() in values]
    for match, start in zip(occurrences, starts, strict=True):
        value = values[match.group()]
        inside = [
            found
            for token in number_tokens(value)
            if (found := quote_token(start + token.start)) is not None
        ]
        names.append((match.group(), inside))
    return _Alignment(literal, names)


# ---------------------------------------------------------------------------------------------
# Arithmetic chains: printed intermediate steps recomputed term by term


def _spine(node: Any) -> list[tuple[str, Any]]:
    """Top-level terms of a sum: [("+", a), ("-", b), ...] (the first term's sign is "+")."""
    from checkers.expr import Binary

    if isinstance(node, Binary) and node.op in "+-":
        return [*_spine(node.left), (node.op, node.right)]
    return [("+", node)]


def _chain_changes(expression: str, variables: dict[str, float]) -> dict[int, str]:
    """Printed steps of ``a = b = c`` that are no longer roundings of the first side.

    A later side that is one printed number is the rounding of the whole first side; a later
    side that is a sum of printed numbers, term for term like the first side, is the rounding of
    each term (``0.31×0.52 + … = 0.161 + …``). Returns {expression number token: new text}.
    """
    from checkers.expr import ExprError, Number, evaluate, parse, split_chain
    from checkers.numbers import NumberError, compare, format_like, parse_printed

    try:
        sides = split_chain(expression)
        if len(sides) < 2:
            return {}
        first = parse(sides[0][1])
        first_terms = _spine(first)
        total = evaluate(first, variables)
        term_values = [evaluate(term, variables) for _, term in first_terms]
    except (ExprError, ArithmeticError, ValueError, KeyError, TypeError, RecursionError):
        return {}
    if not isinstance(total, float):
        return {}
    tokens = number_tokens(expression)
    changes: dict[int, str] = {}
    for _relation, side, column in sides[1:]:
        in_side = [i for i, t in enumerate(tokens) if column <= t.start < column + len(side)]
        try:
            node = parse(side)
        except ExprError:
            continue
        if isinstance(node, Number):
            targets: list[Any] = [(node, total)]
        else:
            terms = _spine(node)
            same_shape = len(terms) == len(first_terms) and all(
                isinstance(term, Number) and op == first_op
                for (op, term), (first_op, _) in zip(terms, first_terms, strict=True)
            )
            if not same_shape:
                continue
            targets = [(term, value) for (_, term), value in zip(terms, term_values, strict=True)]
        if len(in_side) != len(targets):
            continue
        for index, (number, value) in zip(in_side, targets, strict=True):
            if not isinstance(value, float):
                break
            try:
                printed = parse_printed(number.text)
            except NumberError:
                break
            if not compare(printed, value).ok:
                changes[index] = format_like(printed, value)
    return changes


# ---------------------------------------------------------------------------------------------
# The workspace: the files involved, checked in scratch copies


Key = tuple[Path, str]
"""(claim file, claim id)."""


@dataclass
class _Snapshot:
    """One checked state of the files."""

    files: dict[Path, ClaimsFile]
    claims: dict[Key, Claim]
    findings: dict[Key, Finding]
    order: list[Key]


class _Workspace:
    """The claim files named and their lessons: original texts, checked in scratch copies."""

    def __init__(self, paths: Sequence[Path]) -> None:
        self.claim_files: list[Path] = []
        self.lesson_of: dict[Path, Path] = {}
        self.original: dict[Path, str] = {}
        self.boms: set[Path] = set()
        roots: list[Path] = []
        for path in (p.resolve() for p in iter_claim_files(list(paths))):
            loaded = load_claims_file(path)
            lesson = loaded.lesson_path.resolve() if loaded.lesson_path else None
            texts = [self._read(file) for file in (path, lesson) if file is not None]
            if None in texts:
                continue  # unreadable: `lessoncheck check` reports it; nothing to rewrite
            self.claim_files.append(path)
            roots.append(loaded.root.resolve())
            if lesson is not None:
                self.lesson_of[path] = lesson
        files = [*self.claim_files, *self.lesson_of.values()] or [Path.cwd()]
        self.root = Path(
            os.path.commonpath([str(p.parent) for p in files] + [str(r) for r in roots])
        )
        self._memo: dict[tuple[Path, str, str], tuple[ClaimsFile, list[Finding]]] = {}

    def _read(self, path: Path) -> str | None:
        if path not in self.original:
            try:
                data = path.read_bytes()
                self.original[path] = data.decode("utf-8-sig")
            except (OSError, UnicodeDecodeError):
                return None
            if data.startswith(b"\xef\xbb\xbf"):
                self.boms.add(path)
        return self.original[path]

    def label(self, key: Key) -> str:
        return f"{_display(key[0])}::{key[1]}"

    def check(self, texts: dict[Path, str]) -> _Snapshot:
        """Run every claim file on ``texts`` (original text where absent) in a scratch copy.

        A claim file's findings depend only on its text and its lesson's, so files whose texts
        were checked before are not run again.
        """
        snapshot = _Snapshot({}, {}, {}, [])
        scratch: Path | None = None
        try:
            for path in self.claim_files:
                lesson = self.lesson_of.get(path)
                claims_text = texts.get(path, self.original[path])
                lesson_text = texts.get(lesson, self.original[lesson]) if lesson else ""
                memo_key = (path, claims_text, lesson_text)
                if memo_key not in self._memo:
                    if scratch is None:
                        scratch = Path(tempfile.mkdtemp(prefix="lessoncheck-fix-"))
                    self._memo[memo_key] = self._run(scratch, path, texts)
                claims_file, findings = self._memo[memo_key]
                snapshot.files[path] = claims_file
                for claim in claims_file.claims:
                    snapshot.claims[(path, claim.id)] = claim
                for finding in findings:
                    key = (path, finding.id)
                    snapshot.findings[key] = finding
                    snapshot.order.append(key)
            return snapshot
        finally:
            if scratch is not None:
                shutil.rmtree(scratch, ignore_errors=True)

    def _run(
        self, scratch: Path, path: Path, texts: dict[Path, str]
    ) -> tuple[ClaimsFile, list[Finding]]:
        # A fresh folder per run: lessons are cached on path, size and modification time.
        folder = Path(tempfile.mkdtemp(dir=scratch))
        for file in (path, self.lesson_of.get(path)):
            if file is None:
                continue
            target = folder / file.relative_to(self.root)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(texts.get(file, self.original[file]).encode("utf-8"))
        claims_file = load_claims_file(folder / path.relative_to(self.root))
        return claims_file, run_file(claims_file)


class _Groups:
    """Union-find over claims: a worked example is fixed as a whole or not at all."""

    def __init__(self) -> None:
        self.parent: dict[Key, Key] = {}
        self.roots: dict[Key, set[Key]] = {}

    def find(self, key: Key) -> Key:
        self.parent.setdefault(key, key)
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def union(self, a: Key, b: Key) -> Key:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra
            self.roots.setdefault(ra, set()).update(self.roots.pop(rb, set()))
        return ra

    def start(self, key: Key) -> None:
        self.roots.setdefault(self.find(key), set()).add(key)


# ---------------------------------------------------------------------------------------------
# Planning


@dataclass
class _Edit:
    """Everything one claim's fix rewrites."""

    lesson: Path
    replacements: dict[tuple[int, int], str] = field(default_factory=dict)
    fields: dict[Key, dict[str, dict[int, str]]] = field(default_factory=dict)
    values: dict[Key, dict[str, str]] = field(default_factory=dict)
    rewrites: list[Rewrite] = field(default_factory=list)
    touched: list[Key] = field(default_factory=list)


class _Planner:
    def __init__(self, workspace: _Workspace, blocked: dict[Key, str]) -> None:
        self.ws = workspace
        self.blocked = dict(blocked)
        self.texts: dict[Path, str] = {}
        self.groups = _Groups()
        self.touched: set[Key] = set()
        self.edits: dict[Key, int] = {}
        self.rewrites: list[Rewrite] = []
        self.problems: dict[Key, str] = {}

    def text(self, path: Path) -> str:
        return self.texts.get(path, self.ws.original[path])

    # -- one round -----------------------------------------------------------------------------

    def run(self) -> _Snapshot:
        snapshot = self.ws.check(self.texts)
        for _ in range(MAX_ROUNDS):
            if not self._round(snapshot):
                break
            snapshot = self.ws.check(self.texts)
        return snapshot

    def _pending(self, snapshot: _Snapshot, key: Key) -> bool:
        finding = snapshot.findings.get(key)
        return (
            finding is not None
            and finding.verdict == "fail"
            and key not in self.blocked
            and key not in self.problems
        )

    def _round(self, snapshot: _Snapshot) -> bool:
        progressed = False
        this_round: set[Key] = set()
        for key in snapshot.order:
            if not self._pending(snapshot, key) or key in this_round:
                continue
            claim = snapshot.claims.get(key)
            if claim is None:
                continue
            upstream = [(key[0], u) for u in claim.header.uses.values()]
            if any(self._pending(snapshot, u) and u != key for u in upstream):
                continue  # the upstream step is fixed first; this one follows next round
            if self.edits.get(key, 0) >= MAX_EDITS_PER_CLAIM:
                self._refuse(key, "repeated rewriting did not make the claim hold")
                continue
            users = [
                k
                for k, c in snapshot.claims.items()
                if k[0] == key[0] and key[1] in c.header.uses.values()
            ]
            if any(k in this_round for k in users):
                continue  # a claim it feeds changed this round: wait for the next check
            try:
                edit = self._edit(snapshot, key, claim)
                if any(k in this_round for k in edit.touched):
                    continue  # overlaps an edit of this round: wait for the next check
                self._apply(edit)
            except FixProblem as problem:
                if not this_round:
                    self._refuse(key, str(problem))
                # else: the texts moved on since the check; try again after the next one
                continue
            self.edits[key] = self.edits.get(key, 0) + 1
            if key not in self.touched:
                self.groups.start(key)
            for other in edit.touched:
                self.groups.union(key, other)
            self.touched.update(edit.touched)
            this_round.update(edit.touched)
            progressed = True
        return progressed

    def _refuse(self, key: Key, reason: str) -> None:
        self.problems[key] = reason

    # -- building one edit ---------------------------------------------------------------------

    def _edit(self, snapshot: _Snapshot, key: Key, claim: Claim) -> _Edit:
        finding = snapshot.findings[key]
        quote = claim.header.quote
        changes: dict[int, str] = {}
        if finding.fix:
            found = number_changes(quote, finding.fix)
            if found is None:
                raise FixProblem(
                    f"the suggested fix changes more than numbers ({finding.fix!r}); "
                    "edit the lesson by hand"
                )
            changes.update(found)
        expression_changes: dict[int, str] = {}
        expression = getattr(claim.input, "expression", None)
        if isinstance(expression, str):
            expression_changes = _chain_changes(expression, self._variables(snapshot, key, claim))
            if expression_changes:
                values = self._upstream_texts(snapshot, key, claim)
                alignment = _align(expression, quote, values)
                if alignment is None or any(i not in alignment.literal for i in expression_changes):
                    raise FixProblem(
                        "an intermediate step must be recomputed, but the expression cannot be "
                        "lined up with the quote"
                    )
                for index, new in expression_changes.items():
                    changes[alignment.literal[index]] = new
        if not changes:
            if finding.fix is None:
                raise FixProblem("the checker suggests no fix (not a number in the quote)")
            raise FixProblem("the suggested fix changes no number")
        lesson_path = self.ws.lesson_of.get(key[0])
        if lesson_path is None:
            raise FixProblem("the lesson of the claim file was not found")
        edit = _Edit(lesson_path)
        lesson = Lesson.from_text(lesson_path, self.text(lesson_path))
        self._rewrite_claim(edit, snapshot, lesson, key, claim, changes)
        if expression_changes:
            edit.fields[key]["expression"] = expression_changes
            edit.values[key]["expression"] = str(expression)
        self._carry(edit, snapshot, lesson, key, claim)
        self._overlaps(edit, snapshot, lesson)
        self._occurrences(edit, snapshot, lesson)
        return edit

    def _variables(self, snapshot: _Snapshot, key: Key, claim: Claim) -> dict[str, float]:
        from checkers.numbers import Printed

        values: dict[str, float] = {}
        where = getattr(claim.input, "where", None)
        if isinstance(where, dict):
            values.update({k: v.value for k, v in where.items() if isinstance(v, Printed)})
        for name, upstream_id in claim.header.uses.items():
            upstream = snapshot.claims.get((key[0], upstream_id))
            claimed = getattr(upstream.input, "claimed", None) if upstream else None
            if isinstance(claimed, Printed):
                values[name] = claimed.value
        return values

    def _upstream_texts(self, snapshot: _Snapshot, key: Key, claim: Claim) -> dict[str, str]:
        from checkers.numbers import Printed

        values: dict[str, str] = {}
        for name, upstream_id in claim.header.uses.items():
            upstream = snapshot.claims.get((key[0], upstream_id))
            claimed = getattr(upstream.input, "claimed", None) if upstream else None
            if isinstance(claimed, Printed):
                values[name] = claimed.text
        return values

    def _rewrite_claim(
        self,
        edit: _Edit,
        snapshot: _Snapshot,
        lesson: Lesson,
        key: Key,
        claim: Claim,
        changes: dict[int, str],
    ) -> None:
        """Add the lesson replacements and claim-file updates for ``changes`` to the quote."""
        quote = claim.header.quote
        start = _quote_span(lesson, quote, claim.header.occurrence)
        indexes = sorted(changes)
        tokens = number_tokens(quote)
        placed = _lesson_ranges(lesson, start, quote, indexes)
        for index, token in zip(indexes, placed, strict=True):
            new = _styled(changes[index], token.text)
            span = (token.start, token.end)
            if edit.replacements.get(span, new) != new:
                raise FixProblem(f"two fixes disagree about the number {token.text}")
            edit.replacements[span] = new
            line = lesson.position(token.start)[0]
            edit.rewrites.append(
                Rewrite(_display(edit.lesson), line, token.text, new, self.ws.label(key))
            )
        fields = edit.fields.setdefault(key, {})
        values = edit.values.setdefault(key, {})
        fields.setdefault("quote", {}).update(changes)
        values["quote"] = quote
        claimed = self._claimed_changes(key, tokens, changes)
        if claimed:
            fields["claimed"] = claimed
        if key not in edit.touched:
            edit.touched.append(key)

    def _claimed_changes(
        self, key: Key, quote_tokens: list[Token], changes: dict[int, str]
    ) -> dict[int, str]:
        """The ``claimed:`` numbers that print the changed quote numbers (matched from the end,
        where a claimed value usually stands)."""
        claimed = _claimed_source(self.text(key[0]), key[1])
        if not claimed:
            return {}
        matched: dict[int, int] = {}
        position = len(quote_tokens)
        for index in range(len(claimed) - 1, -1, -1):
            position -= 1
            while position >= 0 and quote_tokens[position].norm != claimed[index].norm:
                position -= 1
            if position < 0:
                return {}  # the claimed value is not printed in the quote as such
            matched[index] = position
        return {i: changes[q] for i, q in matched.items() if q in changes}

    def _carry(
        self, edit: _Edit, snapshot: _Snapshot, lesson: Lesson, key: Key, claim: Claim
    ) -> None:
        """Rewrite the upstream value where the claims that use this one print it."""
        claimed_changes = edit.fields.get(key, {}).get("claimed", {})
        if not claimed_changes:
            return
        tokens = _claimed_source(self.text(key[0]), key[1])
        if len(tokens) != 1:
            return  # only single printed values are used by other claims
        old, new = tokens[0].text, claimed_changes[0]
        for other_key, other in snapshot.claims.items():
            if other_key[0] != key[0] or other_key == key:
                continue
            names = [n for n, upstream in other.header.uses.items() if upstream == key[1]]
            if not names:
                continue
            quote = other.header.quote
            quote_tokens = number_tokens(quote)
            indexes: list[int] = []
            expression = getattr(other.input, "expression", None)
            alignment = (
                _align(expression, quote, self._upstream_texts(snapshot, other_key, other))
                if isinstance(expression, str)
                else None
            )
            if alignment is not None:
                for name, inside in alignment.names:
                    if name in names:
                        indexes.extend(i for i in inside if quote_tokens[i].norm == _norm(old))
            else:
                same = [i for i, t in enumerate(quote_tokens) if t.norm == _norm(old)]
                if len(same) > 1:
                    raise FixProblem(
                        f"{self.ws.label(other_key)} uses this value and prints {old} "
                        f"{len(same)} times; cannot tell which one to rewrite"
                    )
                indexes = same
            if indexes:
                self._rewrite_claim(
                    edit, snapshot, lesson, other_key, other, dict.fromkeys(indexes, new)
                )
            elif other_key not in edit.touched:
                edit.touched.append(other_key)  # its result changes, though no text does

    def _overlaps(self, edit: _Edit, snapshot: _Snapshot, lesson: Lesson) -> None:
        """Other claims whose quotes contain a rewritten number get the same rewrite."""
        for other_key, other in snapshot.claims.items():
            if other_key in edit.touched or self.ws.lesson_of.get(other_key[0]) != edit.lesson:
                continue
            if other.anchor is None:
                continue
            quote = other.header.quote
            try:
                start = _quote_span(lesson, quote, other.header.occurrence, explain=False)
            except FixProblem:
                continue
            end_offset = lesson.offsets[start + len(fold(quote)[0]) - 1] + 1
            begin_offset = lesson.offsets[start]
            hits = [
                (span, new)
                for span, new in edit.replacements.items()
                if span[0] < end_offset and span[1] > begin_offset
            ]
            if not hits:
                continue
            quote_tokens = number_tokens(quote)
            changes: dict[int, str] = {}
            for index in range(len(quote_tokens)):
                placed = _lesson_ranges(lesson, start, quote, [index])[0]
                for span, new in hits:
                    if (placed.start, placed.end) == span:
                        changes[index] = new
            if len(changes) != len(hits):
                raise FixProblem(
                    f"the rewrite cuts through a number of {self.ws.label(other_key)}'s quote"
                )
            self._rewrite_claim(edit, snapshot, lesson, other_key, other, changes)

    def _occurrences(self, edit: _Edit, snapshot: _Snapshot, lesson: Lesson) -> None:
        """Keep ``occurrence: N`` pointing at the same place: a rewritten quote may now occur
        more or fewer times before it."""
        text = lesson.text
        for (start, end), new in sorted(edit.replacements.items(), reverse=True):
            text = text[:start] + new + text[end:]
        rewritten = Lesson.from_text(edit.lesson, text)

        def moved(offset: int) -> int:
            return offset + sum(
                len(new) - (end - start)
                for (start, end), new in edit.replacements.items()
                if end <= offset
            )

        for key, claim in snapshot.claims.items():
            if claim.header.occurrence is None or self.ws.lesson_of.get(key[0]) != edit.lesson:
                continue
            try:
                start = _quote_span(lesson, claim.header.quote, claim.header.occurrence)
            except FixProblem:
                continue
            quote = _replace_numbers(claim.header.quote, edit.fields.get(key, {}).get("quote", {}))
            needle = fold(quote)[0]
            starts: list[int] = []
            found = rewritten.folded.find(needle)
            while found != -1:
                starts.append(rewritten.offsets[found])
                found = rewritten.folded.find(needle, found + 1)
            target = moved(lesson.offsets[start])
            if target not in starts:
                raise FixProblem(f"cannot keep the occurrence of {self.ws.label(key)}")
            index = starts.index(target) + 1
            if index != claim.header.occurrence:
                edit.fields.setdefault(key, {})["occurrence"] = {0: str(index)}
                if key not in edit.touched:
                    edit.touched.append(key)

    # -- applying ------------------------------------------------------------------------------

    def _apply(self, edit: _Edit) -> None:
        text = self.text(edit.lesson)
        for (start, end), new in sorted(edit.replacements.items(), reverse=True):
            text = text[:start] + new + text[end:]
        by_file: dict[Path, dict[str, dict[str, dict[int, str]]]] = {}
        for (path, claim_id), fields in edit.fields.items():
            by_file.setdefault(path, {})[claim_id] = fields
        claim_texts = {
            path: _edit_claim_file(
                self.text(path),
                changes,
                {claim_id: edit.values.get((path, claim_id), {}) for claim_id in changes},
            )
            for path, changes in by_file.items()
        }
        self.texts[edit.lesson] = text
        self.texts.update(claim_texts)
        self.rewrites.extend(edit.rewrites)


def plan_fix(paths: Sequence[Path]) -> FixPlan:
    """Work out (and verify in scratch copies) what ``fix`` rewrites; change nothing."""
    workspace = _Workspace(paths)
    before = workspace.check({})
    blocked: dict[Key, str] = {}
    # Each attempt drops at least one more failing claim (a root of a broken group is never
    # edited again), so this ends; the bound only guards against a bug.
    failing = sum(f.verdict == "fail" for f in before.findings.values())
    for _ in range(failing + 1):
        planner = _Planner(workspace, blocked)
        after = planner.run()
        broken = _broken_groups(planner, before, after)
        if not broken:
            return _result(workspace, planner, before, after, blocked)
        blocked.update(broken)
    for key in before.order:  # pragma: no cover - unreachable unless the bound is wrong
        blocked.setdefault(key, "fix did not settle; nothing was rewritten")
    planner = _Planner(workspace, blocked)
    return _result(workspace, planner, before, planner.run(), blocked)


def _broken_groups(planner: _Planner, before: _Snapshot, after: _Snapshot) -> dict[Key, str]:
    """Roots of the rewrites to drop, with the reason: a claim they touched (or any claim that
    held before) does not hold afterwards."""
    broken: dict[Key, str] = {}
    for key in after.order:
        finding = after.findings[key]
        if finding.verdict == "pass":
            continue
        was = before.findings.get(key)
        if key in planner.touched:
            groups = [planner.groups.find(key)]
        elif was is not None and was.verdict == "pass":
            groups = list({planner.groups.find(k) for k in planner.touched})
        else:
            continue
        label = planner.ws.label(key)
        for group in groups:
            reason = (
                f"after rewriting, {label} would still be {finding.verdict}: {finding.message}"
                if key in planner.groups.roots.get(group, set())
                else f"rewriting it would leave {label} {finding.verdict}: {finding.message}"
            )
            for root in planner.groups.roots.get(group, set()):
                broken.setdefault(root, reason)
    return broken


def _result(
    workspace: _Workspace,
    planner: _Planner,
    before: _Snapshot,
    after: _Snapshot,
    blocked: dict[Key, str],
) -> FixPlan:
    failing_before = {k for k in before.order if before.findings[k].verdict != "pass"}
    fixed = [
        workspace.label(k)
        for k in before.order
        if k in failing_before and k in planner.touched and after.findings[k].verdict == "pass"
    ]
    rewritten = {r.claim for r in planner.rewrites}
    carried = [
        workspace.label(k)
        for k in before.order
        if k not in failing_before and workspace.label(k) in rewritten
    ]
    not_fixed: list[NotFixed] = []
    for key in after.order:
        finding = after.findings[key]
        if finding.verdict == "pass":
            continue
        if finding.verdict == "fail":
            reason = planner.problems.get(key) or blocked.get(key) or "left as it is"
        else:
            reason = f"{finding.verdict}: {finding.message}"
        not_fixed.append(NotFixed(workspace.label(key), finding.where, finding.kind, reason))
    changed = {p: t for p, t in planner.texts.items() if t != workspace.original[p]}
    return FixPlan(
        originals=dict(workspace.original),
        texts=changed,
        boms=set(workspace.boms),
        fixed=fixed,
        carried=carried,
        rewrites=list(planner.rewrites),
        not_fixed=not_fixed,
        hints=_hints(workspace, planner, after),
        before=[before.findings[k] for k in before.order],
        after=[after.findings[k] for k in after.order],
    )


_SECTION = re.compile(r"^#{1,2}\s")
MIN_HINT_LENGTH = 3
"""Numbers shorter than this (``1``, ``16``) are too common to hint about."""


def _hints(workspace: _Workspace, planner: _Planner, after: _Snapshot) -> list[str]:
    """What the rewrite could not know about: old numbers still printed further down the same
    chapter of the lesson (outside the claims rewritten), and claims that hold with their own
    copy of numbers the rewrite changed (a restated worked example)."""
    rewritten = {r.claim for r in planner.rewrites}
    old_values = {_norm(r.old): r for r in planner.rewrites if len(r.old) >= MIN_HINT_LENGTH}
    hints: list[str] = []
    for path, text in planner.texts.items():
        if path.suffix in (".yaml", ".yml"):
            continue
        rewrites = [r for r in planner.rewrites if r.lesson == _display(path) and r.old != r.new]
        lesson = Lesson.from_text(path, text)
        covered: list[tuple[int, int]] = []
        for key, claim in after.claims.items():
            if workspace.lesson_of.get(key[0]) != path or workspace.label(key) not in rewritten:
                continue
            try:
                start = _quote_span(
                    lesson, claim.header.quote, claim.header.occurrence, explain=False
                )
            except FixProblem:
                continue
            end = start + len(fold(claim.header.quote)[0]) - 1
            covered.append((lesson.offsets[start], lesson.offsets[end] + 1))
        lines = text.split("\n")
        # A worked example spans subsections: look down to the next chapter heading (# or ##).
        headings = [i + 1 for i, line in enumerate(lines) if _SECTION.match(line)]
        seen: set[int] = set()
        tokens = number_tokens(text)
        for rewrite in rewrites:
            if len(rewrite.old) < MIN_HINT_LENGTH:
                continue
            section_end = min([h for h in headings if h > rewrite.line], default=len(lines) + 1)
            for token in tokens:
                if token.norm != _norm(rewrite.old) or token.start in seen:
                    continue
                if any(a <= token.start < b for a, b in covered):
                    continue
                line = lesson.position(token.start)[0]
                if rewrite.line <= line < section_end:
                    seen.add(token.start)
                    hints.append(
                        f"{_display(path)}:{line} still prints {rewrite.old} "
                        f"({rewrite.claim} now prints {rewrite.new}): check it by hand"
                    )
    for key in after.order:
        label = workspace.label(key)
        if label in rewritten or key[0] not in {k[0] for k in planner.touched}:
            continue
        if after.findings[key].verdict != "pass":
            continue  # already reported as failing
        try:
            node = _claim_node(_compose(planner.text(key[0])), key[1])
        except FixProblem:
            continue
        recorded = {
            t.norm
            for name_node, value in node.value
            if getattr(name_node, "value", None) not in ("quote", "note", "id")
            for t in _source_tokens(planner.text(key[0]), value)
        }
        stale = sorted(recorded & set(old_values), key=lambda v: old_values[v].line)
        if len(stale) >= 2:
            shown = ", ".join(f"{old_values[v].old} → {old_values[v].new}" for v in stale[:6])
            hints.append(
                f"{label} still holds with its own copy of numbers the rewrite changed "
                f"({shown}{', …' if len(stale) > 6 else ''}): update it and its quote by hand"
            )
    return list(dict.fromkeys(hints))


# ---------------------------------------------------------------------------------------------
# What to tell the author


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def describe(plan: FixPlan, *, written: bool) -> list[str]:
    """Lines for the terminal: what was (or would be) rewritten, what was not and why."""

    verb = "rewrote" if written else "would rewrite"
    lines: list[str] = []
    if plan.texts:
        lessons = len({r.lesson for r in plan.rewrites})
        lines.append(
            f"{verb} {_count(len(plan.rewrites), 'number')} in {_count(lessons, 'lesson')}: "
            f"{_count(len(plan.fixed), 'failing claim')} fixed, {len(plan.carried)} carried along"
        )
    lines.extend(f"  fixed      {label}" for label in plan.fixed)
    lines.extend(f"  carried    {label} (a number it prints changed)" for label in plan.carried)
    lines.extend(
        f"  not fixed  {item.where}  {item.claim} ({item.kind}): {item.reason}"
        for item in plan.not_fixed
    )
    lines.extend(f"  hint       {hint}" for hint in plan.hints)
    prefix = "after the rewrite: " if plan.texts else "nothing to rewrite: "
    lines.append(prefix + summary_line(plan.after))
    return lines
