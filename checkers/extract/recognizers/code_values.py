"""Recogniser ``code_values``: values that code blocks state for their own literal arithmetic.

Reads the lines of fenced (and indented) code blocks, never running them; the code blocks of one
section are read as one session (a name assigned in one is known in the next). Recognises:

* a comment that states the result of the arithmetic on its line: ``mem = 70e9 * 2  # 140 GB``,
  ``x = 4096 * 32 * 2   # = 262,144``, ``print(2 ** 10)  # 1024``, ``'total': a + b,  # 84GB``
  (``#`` after Python and shell, ``//`` after C, C++, JavaScript, Go, Rust…);
* a literal whose comment is the arithmetic it stands for: ``head_dim = 128  # 4096 / 32``;
* ``print(…)`` of such arithmetic with its printed output right below: the lines of the next
  block when it is an output block (a fence with info ``text``/``output``/``console``, one
  that starts with ``Output``/``输出``, or any fence after a paragraph of its own that names
  it: ``**Expected output:**``, ``This prints:``, ``运行结果：``), or the line after a ``>>> …``
  prompt, one printed line per
  ``print`` (f-strings are matched by their literal text; an f-string of several fields, each
  an element of an array, is matched field by field);
* a name a top-level statement assigned literal arithmetic, printed later (``mem = 7e9 * 2``
  then ``print(mem)  # 14 GB``, or ``print(f"{mem:.1f}")`` with the output below):
  the print shows that arithmetic's value, so it is checked as that arithmetic (a name assigned
  in a loop, a branch or a function body, rebound by ``for`` or changed by ``+=`` is not);
* a call, with literal arithmetic for arguments, of a function the lesson defines whose whole
  body returns arithmetic of its parameters (``def area(w, h): return w * h`` or ``sq =
  lambda x: x ** 2``, then ``print(area(3, 4))  # 12``): read as that arithmetic with the
  arguments bound, and the note says so (a body of more statements, a parameter with a
  default, a method, a call of a name rebound since, or of another function, is not read);
* elements of an array the code builds from an index range: ``i = torch.arange(d // 2)`` then
  ``theta = 10000 ** (-2 * i / d)`` makes ``theta[1]`` (or ``theta[1].item()``) the arithmetic
  with ``i = 1`` (``np.arange`` too, with start, stop and step), printed as above;
* a sentence of the section that says what such an output block printed for a label ("the loss
  printed above is 2.31", "as the output shows, the perplexity is 12.48") against the printed
  line ``loss: 2.3125`` (a label printed twice with different values is not read).

The arithmetic is read as numbers and operators only (``+ - * / **``, ``1e9``, ``1_000``,
``math.sqrt``/``math.log``/``math.exp``/``np.sin``/``np.cos``), with names resolved from
assignments of such arithmetic earlier in the block or in an earlier block of the section
(``d_model = 4096``; ``d, L = 4096, 32``; a function's default ``n=7e9``; the entries of a dict
literal ``{'adam': 56, …}`` read by ``d['adam']`` and ``sum(d.values())``).
A name that was not assigned that way, a call, a string, an index, ``//``, ``%`` or ``^`` means no
draft. A comment is a stated result only when it is the value alone (with ``=``/``≈``/``~``, a
unit, a parenthesis or a clause after punctuation), never a number that labels a factor
(``# 32 layers``, a comment equal to one of the operands).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from checkers.expr import ExprError, Name, Node, Number, Unary, evaluate, names, parse
from checkers.extract.document import Block, Document, Line
from checkers.extract.draft import Draft
from checkers.extract.recognizers.chains import _approximate, _claimed_text
from checkers.kinds.base import RESERVED_NAMES
from checkers.numbers import BYTE_PREFIXES, NumberError, parse_printed

__all__ = ["recognize"]

NAME = "code_values"
DEFERS = True
"""A printed line or a comment whose value a recogniser listed before already checks on that
line (the chain ``7 × 8 = 54`` that the code prints) is not drafted a second time."""

_HASH_LANGUAGES = frozenset(
    {"python", "py", "python3", "ipython", "pycon", "bash", "sh", "shell", "zsh", "console"}
    | {"yaml", "toml", "r", "ruby", "text", "txt", "output", "plaintext"}
)
_SLASH_LANGUAGES = frozenset(
    {"c", "cpp", "c++", "cc", "cuda", "cu", "js", "javascript", "ts", "typescript", "java"}
    | {"go", "rust", "rs", "swift", "kotlin", "scala"}
)
_MARKER: dict[tuple[str, ...], re.Pattern[str]] = {
    markers: re.compile("(?:^|(?<=[ \t]))(?:" + "|".join(re.escape(m) for m in markers) + ")")
    for markers in (("#",), ("//",), ("#", "//"))
}
"""Where a comment starts in a line without strings: a marker at the start or after a space."""
_OUTPUT_INFOS = frozenset({"text", "output", "console", "txt", "plaintext", "out"})
_OUTPUT_HEAD = re.compile(r"\s*(?:\*\*)?(?:Output|OUTPUT|输出)\s*[:：](?:\*\*)?")
"""A line that says what follows is printed output (its colon tells it from ``output = …``)."""
_OUTPUT_LABEL = re.compile(
    r"\s*(?:\*\*)?(?:(?:(?:Expected|Sample|Example)\s+)?(?:[Oo]utput|OUTPUT|OUT)|"
    r"(?:This|It|That)\s+prints|You\s+should\s+see|(?:运行|输出|打印)?结果|输出|运行输出)"
    r"\s*(?:\*\*)?\s*[:：]?\s*(?:\*\*)?\s*"
)
"""A paragraph of its own between a code block and its output block (``Output:``,
``**Expected output:**``, ``This prints:``, ``运行结果：``)."""
_MAX_JOINED = 12
"""Lines one statement may span (an open bracket continues it)."""
_MAX_BLOCK_LINES = 400
"""Code blocks longer than this are programs, not worked examples: not read."""

_NAME = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
_ASSIGNMENT = re.compile(
    r"^(?:(?:const|let|var|auto|int|long|float|double|size_t|final|static|constexpr)\s+)*"
    rf"(?P<name>{_NAME})(?:\[\s*(?P<q>['\"])(?P<key>[\w .+\-/]{{1,60}})(?P=q)\s*\])?"
    r"\s*(?::\s*[A-Za-z_][\w\[\], ]*)?\s*=(?!=)\s*(?P<value>.+?)\s*[;,]?\s*$"
)
"""``name = …``, or ``name['key'] = …`` (an entry of a dict)."""
_TUPLE_ASSIGNMENT = re.compile(
    r"^\(?(?P<names>[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)+)\s*,?\)?\s*=(?!=)\s*\(?(?P<values>[^()]*"
    r"(?:\([^()]*\)[^()]*)*?)\)?\s*;?$"
)
_DICT_OPEN = re.compile(rf"^(?P<name>{_NAME})\s*(?::\s*[\w\[\], ]+)?\s*=\s*(?:dict\()?\{{\s*$")
_NESTED_OPEN = re.compile(r"""^(?P<q>['"])[\w .+\-/]{1,60}(?P=q)\s*:\s*\{\s*$""")
"""An entry of a dict literal whose value is a dict of its own (``'fp16': {``)."""
_DICT_ENTRY = re.compile(
    r"""^(?P<q>['"])(?P<key>[\w .+\-/]{1,60})(?P=q)\s*:\s*(?P<value>.+?)\s*,?\s*$"""
)
_DEFAULTS = re.compile(r"^(?:async\s+)?def\s+\w+\s*\((?P<params>[^()]*)\)")
_DEFAULT = re.compile(r"(?P<name>[A-Za-z_]\w*)\s*(?::\s*\w+)?\s*=\s*(?P<value>[^,]+)")
_PRINT = re.compile(r"^(?:>>>\s*)?print\s*\((?P<value>.*)\)\s*;?\s*$")
_PROMPT = re.compile(r"^>>>\s*(?P<value>.+?)\s*$")
_FSTRING = re.compile(
    r"""^f(?P<q>['"])(?P<before>[^{}'"]*)\{(?P<value>[^{}]+)\}(?P<after>[^{}'"]*)(?P=q)$"""
)
_FORMAT_SPEC = re.compile(r"^(?P<value>.+?)(?::(?P<spec>[,_]?(?:\.\d+)?[fegd%]?))?$")

_POWER_OF_TEN = re.compile(r"(?<![\w.)])\d+(?:\.\d+)?\s*\*\s*10\s*\*\*\s*[-+]?\d+")
_DIGIT_SEPARATOR = re.compile(r"(?<=\d)_(?=\d)")
_DICT_SUM = re.compile(rf"\bsum\(\s*(?P<name>{_NAME})\.values\(\)\s*\)")
_DICT_GET = re.compile(rf"(?P<name>{_NAME})\[\s*(?P<q>['\"])(?P<key>[^'\"]+)(?P=q)\s*\]")
_MODULE_PREFIX = re.compile(r"\b(?:math|np|numpy|torch)\.(?=(?:sqrt|log|exp|sin|cos|tanh|pi|e)\b)")
_DOTTED = re.compile(_NAME)
_REFUSED = re.compile(r"//|%|\^|['\"\[\]{}:<>=!&|~@]|\blambda\b|\bif\b|\bfor\b|\band\b|\bor\b")
_LITERAL = re.compile(r"^[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$")

_STATED = re.compile(
    r"^\s*(?:(?:=|≈|~|≃|→|->|=>|≈\s*~|about|approx\.?|roughly|约|Output\s*:|输出\s*[:：]|prints?)\s*)?"
    r"~?\s*(?P<value>[-−]?\d[\d,_]*(?:\.\d+)?(?:[eE][-+]?\d+)?)"
    r"(?P<unit>\s*(?:GiB|MiB|KiB|TiB|GB|MB|KB|TB|PB|bytes?|B|params|parameters|"
    r"[KkMBGT](?![A-Za-z])|million|billion|thousand|%|[GTP]?FLOPs?)?)"
    r"(?P<rest>.*)$",
    re.IGNORECASE,
)
_APPROXIMATE = re.compile(r"^\s*(?:≈|~|≃|about|approx|roughly|约)", re.IGNORECASE)
# What may follow a stated value: nothing, a bracket, a clause after punctuation, or a
# preposition ("in fp16", "per layer"). A noun right after it labels a factor (# 32 layers).
_REST = re.compile(
    r"^\s*(?:$|[(（]|[!.,;:，。；：]\s|[!.,;:，。；：]?$|[-–—]\s+[^\d\s]|"
    r"(?:in|per|for|at|each|total|with|of|on)\b)",
    re.IGNORECASE,
)
_COMMENT_ARITHMETIC = re.compile(r"^\s*=?\s*(?P<value>[\d\s.+\-*/()eE_]+?)\s*$")


@dataclass
class _Scope:
    """What one code block has defined so far."""

    values: dict[str, float] = field(default_factory=dict)
    """Name → value of every name assigned literal arithmetic."""
    dicts: dict[str, dict[str, float]] = field(default_factory=dict)
    """Dict name → its literal entries."""
    open_dict: str | None = None
    """The dict literal whose entries the current lines are."""
    ranges: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    """Name → (start, stop, step) of every name assigned ``arange`` of literal arithmetic."""
    arrays: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Name → (its arithmetic, the range name it is built over): ``theta = 10000 ** (-2 * i /
    d)`` over ``i``."""
    nested: int = 0
    """How many dicts inside it are open (their entries are read for their comments only)."""
    definitions: dict[str, _Value] = field(default_factory=dict)
    """Name → the arithmetic a top-level statement assigned it (``mem = 7e9 * 2``), so that
    ``print(mem)`` or ``{mem:.1f}`` prints that arithmetic's value. Names assigned in a loop,
    a branch or a function body, rebound by ``for`` or changed in place (``+=``) are left out:
    their value at the print is not the one the statement computed."""
    origins: dict[str, _Origin] = field(default_factory=dict)
    """Name (or dict name) → the statement its value was read from, and through it those of
    the names that statement used."""
    functions: dict[str, _Function] = field(default_factory=dict)
    """Name → a function whose whole body returns arithmetic of its parameters
    (``def area(w, h): return w * h``, ``sq = lambda x: x ** 2``)."""
    opened_function: tuple[_Function, int] | None = None
    """A ``def`` whose body is being read, with its indentation: kept as a function only when
    the one statement of its body is ``return`` of arithmetic."""
    loops: list[int] = field(default_factory=list)
    """Indentations of the ``for``/``while`` headers whose bodies the current lines are in."""


@dataclass(frozen=True)
class _Origin:
    """Where a value was read: its statement's lines, and the origins of what it used (kept as
    links, so that an assignment costs one object however long the chain behind it; the lines
    are gathered only for a draft)."""

    lines: tuple[tuple[int, str], ...]
    """(line, code) of the statement."""
    parents: tuple[_Origin, ...] = ()
    """The origins of the names (dicts, functions) the statement used."""


def _gathered(origins: Sequence[_Origin]) -> set[tuple[int, str]]:
    """Every line of ``origins`` and of their parents, at most :data:`_MAX_INPUTS` origins."""
    lines: set[tuple[int, str]] = set()
    seen: set[int] = set()
    pending = list(origins)
    while pending and len(seen) < _MAX_INPUTS:
        origin = pending.pop()
        if id(origin) in seen:
            continue
        seen.add(id(origin))
        lines.update(origin.lines)
        pending.extend(origin.parents)
    return lines


@dataclass(frozen=True)
class _Function:
    """A function of the lesson's code that returns arithmetic of its parameters."""

    name: str
    """Its name."""
    parameters: tuple[str, ...]
    """Its parameters, in order (none has a default)."""
    body: str
    """The arithmetic it returns, in Python spelling."""
    lines: tuple[tuple[int, str], ...] = ()
    """(line, code) of its definition: the ``def`` and ``return`` lines, or the lambda's."""


@dataclass(frozen=True)
class _Value:
    """A piece of literal arithmetic, read."""

    expression: str
    """In the expression language (names made identifiers)."""
    value: float
    """What it evaluates to."""
    where: dict[str, float]
    """The names it uses and their values."""
    literals: frozenset[str]
    """The numbers written in it, as written."""
    computed: bool
    """True when it has an operator (not a bare literal or name)."""
    origins: tuple[_Origin, ...] = ()
    """Where the names (dicts, functions) it uses were assigned."""
    calls: tuple[str, ...] = ()
    """How each call of a lesson's function in it was read (``area(3, 4) with area(w, h) =
    w * h``), for the note of its draft."""


def _comment_marker(info: str) -> tuple[str, ...]:
    language = info.split()[0].lower() if info.split() else ""
    if language in _SLASH_LANGUAGES:
        return ("//",)
    if language in _HASH_LANGUAGES:
        return ("#",)
    return ("#", "//") if not language else ()


def _split_comment(text: str, markers: tuple[str, ...]) -> tuple[str, str | None]:
    """(code, comment) of a line; the marker must lie outside quotes (a quote after a
    backslash does not close its string). Strings are skipped with ``str.find``, and a
    marker is looked for only between them."""
    for marker in markers:
        if marker in text:
            break
    else:
        return text.rstrip(), None  # most lines of code have no comment
    pattern = _MARKER[markers]
    start = 0  # no string is open from here
    while True:
        opening = _next_quote(text, start)
        # A marker cannot hold a quote, so one starting before the quote ends before it.
        match = pattern.search(text, start, len(text) if opening < 0 else opening)
        if match is not None:
            return text[: match.start()].rstrip(), text[match.end() :].strip()
        if opening < 0:
            return text.rstrip(), None
        closing = text.find(text[opening], opening + 1)
        while closing > 0 and text[closing - 1] == "\\":
            closing = text.find(text[opening], closing + 1)
        if closing < 0:
            return text.rstrip(), None  # the string runs to the end of the line
        start = closing + 1


def _next_quote(text: str, start: int) -> int:
    """Where the next ``'`` or ``"`` at or after ``start`` is, or -1."""
    single, double = text.find("'", start), text.find('"', start)
    if single < 0 or double < 0:
        return max(single, double)
    return min(single, double)


def _top_level_items(text: str) -> list[str]:
    """The comma-separated items of ``text`` outside brackets."""
    items, depth, start = [], 0, 0
    for index, char in enumerate(text):
        depth += (char in "([{") - (char in ")]}")
        if char == "," and depth == 0:
            items.append(text[start:index].strip())
            start = index + 1
    items.append(text[start:].strip())
    return [item for item in items if item]


def _left_open(text: str) -> bool:
    """True when ``text`` opens more brackets than it closes: the statement goes on on the
    next line. Most lines open none, and their closing brackets are not counted."""
    opened = text.count("(") + text.count("[") + text.count("{")
    return opened > 0 and opened > text.count(")") + text.count("]") + text.count("}")


def _identifier(name: str) -> str:
    return name.replace(".", "_")


def _read(text: str, scope: _Scope) -> _Value | None:
    """Literal arithmetic in ``text`` (Python spelling), or None."""
    text = text.strip()
    if not text or len(text) > 400:
        return None
    defined = scope.definitions.get(text) if scope.definitions else None
    if defined is not None:  # print(mem): the value of the arithmetic mem was assigned
        origin = scope.origins.get(text)
        return dataclasses.replace(defined, origins=(origin,)) if origin else defined
    if _DIGIT.search(text) is None and not (scope.values or scope.dicts):
        return None
    if "[" not in text and not (scope.functions and "(" in text) and _REFUSED.search(text):
        # Refused as written: what is rewritten below (an entry d['k'] looked up, a call of a
        # lesson's function inlined) is not there, and the rest removes no refused character.
        return None
    literals = frozenset(_WRITTEN_NUMBER.findall(text))
    text = _DIGIT_SEPARATOR.sub("", text)
    inputs: list[_Origin] = []
    calls: list[str] = []
    if scope.functions and "(" in text:
        inlined = _inline_calls(text, scope, inputs, calls)
        if inlined is None:
            return None
        text = inlined

    def summed(match: re.Match[str]) -> str:
        entries = scope.dicts.get(match.group("name"))
        if not entries:
            return "\x00"  # refused below
        _link(inputs, scope, match.group("name"))
        return "(" + " + ".join(_number(v) for v in entries.values()) + ")"

    def looked_up(match: re.Match[str]) -> str:
        entries = scope.dicts.get(match.group("name"), {})
        value = entries.get(match.group("key"))
        _link(inputs, scope, match.group("name"))
        return "\x00" if value is None else _number(value)

    text = _DICT_GET.sub(looked_up, _DICT_SUM.sub(summed, text))
    text = _MODULE_PREFIX.sub("", text)
    if "\x00" in text or _REFUSED.search(text):
        return None
    where: dict[str, float] = {}

    def named(match: re.Match[str]) -> str:
        name = match.group()
        if name in scope.values:
            identifier = _identifier(name)
            where[identifier] = scope.values[name]
            _link(inputs, scope, name)
            return identifier
        return name

    expression = _DOTTED.sub(named, text)
    if expression.isascii() and any(
        word not in where and _free_name(word) for word in _WORD.findall(expression)
    ):
        return None  # a name that was not assigned: the parse below would refuse it
    try:
        tree: Node = parse(expression)
        if names(tree) - set(where) or set(where) & RESERVED_NAMES:
            return None
        value = evaluate(tree, where)
    except (ExprError, ArithmeticError, ValueError, RecursionError):
        return None
    if not isinstance(value, float) or value != value:
        return None
    if _ambiguous(expression, where, value):
        return None
    computed = _is_computed(tree) or bool(calls)
    return _Value(expression, value, where, literals, computed, tuple(inputs), tuple(calls))


_WRITTEN_NUMBER = re.compile(r"(?<![\w.])\d[\d_]*(?:\.\d+)?(?:[eE][-+]?\d+)?")
"""A number as the code writes it (``4096``, ``1_000``, ``7e9``), for :attr:`_Value.literals`."""
_WORD = re.compile(r"(?<![A-Za-z0-9_.])[A-Za-z_][A-Za-z0-9_]*")
"""A name as :func:`checkers.expr.parse` reads one in ASCII text (not the exponent of
``1e9``, nor an attribute after a dot)."""


@lru_cache(maxsize=4096)
def _free_name(word: str) -> bool:
    """True when ``word`` parses as a name of its own, not a function or a constant (``pi``,
    ``e``): arithmetic that uses it has no value unless the name is given one."""
    try:
        return names(parse(word)) == {word}
    except ExprError:
        return False


def _link(inputs: list[_Origin], scope: _Scope, name: str) -> None:
    origin = scope.origins.get(name)
    if origin is not None:
        inputs.append(origin)


def _inline_calls(text: str, scope: _Scope, inputs: list[_Origin], calls: list[str]) -> str | None:
    """``text`` with each call of a function of ``scope.functions`` replaced by the arithmetic
    it returns, its parameters bound to the call's arguments (``area(3, 4)`` → ``((3) *
    (4))``); None when a call's arguments do not match its parameters. One pass: a body that
    calls another function is left as it is, and refused later as an unknown name."""
    pieces: list[str] = []
    position = 0
    for match in _CALL.finditer(text):
        if match.start() < position:
            continue
        function = scope.functions.get(match.group("name"))
        if function is None:
            continue
        start = match.end()
        depth, end = 1, start
        while end < len(text) and depth:
            depth += (text[end] == "(") - (text[end] == ")")
            end += 1
        if depth:
            return None
        arguments = _top_level_items(text[start : end - 1])
        if len(arguments) != len(function.parameters) or any("=" in a for a in arguments):
            return None
        body = function.body
        for parameter, argument in zip(function.parameters, arguments, strict=True):
            bound = argument if _LITERAL.match(argument) and argument[0] != "-" else f"({argument})"
            body = re.sub(rf"(?<![\w.]){re.escape(parameter)}(?![\w])", bound, body)
        pieces += [text[position : match.start()], f"({body})"]
        position = end
        inputs.append(_Origin(function.lines))
        parameters = ", ".join(function.parameters)
        calls.append(
            f"{text[match.start() : end]} with {function.name}({parameters}) = {function.body}"
        )
    return "".join(pieces) + text[position:] if pieces else text


def _function(name: str, parameters: str, body: str, scope: _Scope) -> _Function | None:
    """A function of ``parameters`` returning ``body``, if that is literal arithmetic of them
    (read with each parameter standing for 1, and the names assigned before)."""
    names_ = tuple(p.strip() for p in parameters.split(",") if p.strip())
    if not all(re.fullmatch(r"[A-Za-z_]\w*", p) for p in names_) or len(names_) > 8:
        return None  # defaults, *args, annotations: not read
    probe = _Scope(values={**scope.values, **dict.fromkeys(names_, 1.0)})
    if _read(body, probe) is None:
        return None
    return _Function(name, names_, body.strip())


def _ambiguous(expression: str, where: dict[str, float], value: float) -> bool:
    """True when ``a*10**n`` after a division reads otherwise as one number (``1e12 /
    4*10**5``): Python binds it left to right, an author who writes a comment for it may mean
    4×10⁵. Which one the comment means is not stated, so neither is checked."""
    if "/" not in expression or _POWER_OF_TEN.search(expression) is None:
        return False
    try:
        grouped = evaluate(parse(_POWER_OF_TEN.sub(r"(\g<0>)", expression)), where)
    except (ExprError, ArithmeticError, ValueError, RecursionError):
        return True
    return grouped != value


def _is_computed(tree: Node) -> bool:
    """True for arithmetic, False for a bare (signed) literal or name."""
    while isinstance(tree, Unary):
        tree = tree.operand
    return not isinstance(tree, (Number, Name))


def _number(value: float) -> str:
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def _stated(comment: str, value: _Value) -> tuple[str, str] | None:
    """(claimed text, matched text) when the comment states ``value``'s result."""
    match = _STATED.match(comment)
    if match is None or not _REST.match(match.group("rest")):
        return None
    claimed = (match.group("value") + match.group("unit")).strip().replace("_", "")
    try:
        printed = parse_printed(claimed)
    except NumberError:
        return None
    if any(printed.value == float(literal.replace("_", "")) for literal in value.literals):
        return None  # the comment repeats an operand: it labels a factor, not the result
    text = _claimed_text(claimed, value.value)
    if _APPROXIMATE.match(comment):
        text = _approximate(text)
    return text, comment[: match.end("unit")]


def _draft(
    document: Document,
    value: _Value,
    claimed: str,
    line: int,
    quote: str,
    confidence: float,
    read: Sequence[tuple[int, str]] = (),
) -> Draft:
    fields: dict[str, object] = {"expression": value.expression, "claimed": claimed}
    if value.where:
        fields["where"] = {name: _number(v) for name, v in value.where.items()}
    if any(symbol in claimed or symbol in value.expression for symbol in BYTE_PREFIXES):
        fields["prefixes"] = document.byte_prefixes
    return Draft(
        kind="arithmetic",
        quote=quote,
        line=line,
        fields=fields,
        confidence=confidence,
        recognizer=NAME,
        slug="code-" + value.expression,
        note="; ".join(value.calls),
        inputs=tuple(sorted(_gathered(value.origins).union(read))),
    )


@dataclass(frozen=True)
class _Statement:
    """One statement of a code block: its code, the comment of its last line, where it is."""

    code: str
    comment: str | None
    rows: tuple[Line, ...]
    """Its source lines (one, or those an open bracket joins)."""

    @property
    def line(self) -> int:
        """1-based line of its last source line (where a comment's value stands)."""
        return self.rows[-1].number

    @property
    def source(self) -> str:
        """Its last source line as written."""
        return self.rows[-1].text

    @property
    def indent(self) -> int:
        """Columns of indentation of its first line (0 for a top-level statement)."""
        first = self.rows[0].text
        return len(first) - len(first.lstrip())

    @property
    def lines(self) -> tuple[tuple[int, str], ...]:
        """(line, code without its comment) of each of its source lines: where what reads the
        names it assigns takes its inputs from."""
        last = self.rows[-1]
        cut = last.text.rfind(self.comment) if self.comment else -1
        code = last.text[:cut].rstrip().rstrip("#/").strip() if cut > 0 else last.text.strip()
        earlier = [
            (row.number, _split_comment(row.text, ("#", "//"))[0].strip()) for row in self.rows[:-1]
        ]
        return tuple((n, t) for n, t in (*earlier, (last.number, code)) if t)


@dataclass(frozen=True)
class _Fields:
    """A ``print`` of an f-string whose fields are all array elements, read."""

    values: tuple[_Value, ...]
    """The fields' arithmetic, in order."""
    texts: tuple[str, ...]
    """The literal text around them: one more than the fields."""
    names: tuple[str, ...]
    """How each field was read (``theta = 10000 ** (-2 * i / d) at i = 1``), for the note."""


_ARANGE = re.compile(r"^(?:torch|np|numpy)\.arange\(\s*(?P<args>[^()]*(?:\([^()]*\)[^()]*)*)\)$")
_ELEMENT = re.compile(r"^(?P<name>[A-Za-z_]\w*)\[\s*(?P<index>\d{1,6})\s*\](?:\.item\(\))?$")
_FIELDS = re.compile(r"\{(?P<field>[^{}:]+)(?::(?P<spec>[^{}]*))?\}")
_CHANGED = re.compile(r"^(?P<name>[A-Za-z_]\w*)\s*(?:\[.*\]\s*=(?!=)|[-+*/@]=|\.\w+_\()")
"""A statement that changes an array in place: an item assigned, ``*=``, ``.mul_(…)``."""


def _arange(arguments: str, scope: _Scope) -> tuple[float, float, float] | None:
    """(start, stop, step) of ``arange(…)`` of literal arithmetic (``d // 2`` floors)."""
    values: list[float] = []
    for item in _top_level_items(arguments):
        floored = "//" in item
        value = _read(item.replace("//", "/"), scope)
        if value is None or "=" in item:
            return None
        values.append(float(int(value.value)) if floored else value.value)
    if len(values) == 1:
        values = [0.0, values[0], 1.0]
    elif len(values) == 2:
        values.append(1.0)
    if len(values) != 3 or values[2] <= 0 or (values[1] - values[0]) / values[2] > 1e6:
        return None
    return values[0], values[1], values[2]


def _element(text: str, scope: _Scope) -> tuple[_Value, str] | None:
    """``theta[1]`` of an array built over a range: its arithmetic at that index, and how it
    was read (``theta = 10000 ** (-2 * i / d) at i = 1``)."""
    match = _ELEMENT.match(text.strip())
    if match is None or match.group("name") not in scope.arrays:
        return None
    expression, over = scope.arrays[match.group("name")]
    start, stop, step = scope.ranges[over]
    position = start + int(match.group("index")) * step
    if position >= stop:
        return None
    literal = _number(position)
    value = _read(re.sub(rf"(?<![\w.]){re.escape(over)}(?![\w])", literal, expression), scope)
    if value is None:
        return None
    return value, f"{match.group('name')} = {expression} at {over} = {literal}"


def _fields(argument: str, scope: _Scope) -> _Fields | None:
    """An f-string of two or more fields that are all array elements, read."""
    if not (argument.startswith(("f'", 'f"')) and argument.endswith(argument[1])):
        return None
    body = argument[2:-1]
    found = list(_FIELDS.finditer(body))
    if not found or any("%" in (m.group("spec") or "") for m in found):
        return None
    elements = [_element(m.group("field"), scope) for m in found]
    read = [e for e in elements if e is not None]
    if len(read) != len(elements):
        return None
    texts = [body[: found[0].start()]]
    texts += [body[a.end() : b.start()] for a, b in itertools.pairwise(found)]
    texts.append(body[found[-1].end() :])
    return _Fields(tuple(v for v, _ in read), tuple(texts), tuple(how for _, how in read))


def _statements(block: Block) -> Iterator[_Statement]:
    markers = _comment_marker(block.info)
    pending: list[str] = []
    lines = block.lines
    first = 0
    for index, line in enumerate(lines):
        code, comment = _split_comment(line.text, markers) if markers else (line.text, None)
        stripped = code.strip()
        if not pending:
            first = index
            joined = stripped
        else:
            joined = " ".join(pending) + " " + stripped
        pending.append(stripped)
        # A dict literal's opening line stands alone: its entries are statements of their own.
        opens_dict = (
            len(pending) == 1
            and joined.endswith("{")
            and (_DICT_OPEN.match(joined) is not None or _NESTED_OPEN.match(joined) is not None)
        )
        if _left_open(joined) and len(pending) < _MAX_JOINED and not opens_dict:
            continue
        pending = []
        yield _Statement(joined, comment, lines[first : index + 1])


def _quote(source: str, stated: str) -> str:
    """The statement's last source line, up to the end of the stated value."""
    end = source.find(stated) if stated else -1
    return (source[: end + len(stated)] if end >= 0 else source).strip()


def _block_drafts(
    document: Document, block: Block, following: Block | None, scope: _Scope
) -> Iterator[Draft]:
    scope.open_dict, scope.nested = None, 0
    # (value, before, after, statement), or the fields of an f-string of array elements
    printed: list[tuple[_Value, str, str, _Statement] | _Fields] = []
    prints = 0
    prompt: tuple[_Value, _Statement] | None = None
    scope.loops = []
    for statement in _statements(block):
        code = statement.code
        if not code:  # a blank or comment line: nothing is assigned or printed, and a prompt's
            prompt = None  # answer would have been on it
            continue
        if scope.loops:
            indent = statement.indent
            while scope.loops and indent <= scope.loops[-1]:
                scope.loops.pop()  # the loop's body has ended
        keyword = _KEYWORD.match(code) if code[0] in "fwad" else None
        if keyword is not None and keyword.group() != "def":
            _rebound(code, scope)
            scope.loops.append(statement.indent)
            continue
        equals = code.find("=")
        if equals > 0 and code[equals - 1] in _OPERATORS:
            changed = _AUGMENTED.match(code)
            if changed is not None:  # total += x: no longer the value it was assigned
                _forget(changed.group("name"), scope)
        if scope.opened_function is not None:
            _function_body(statement, scope)
        if keyword is not None:
            _function_head(statement, scope)
        elif "lambda" in code:
            _lambda(statement, scope)
        if prompt is not None:  # the line after ">>> expr" is its output
            expected, asked_by = prompt
            prompt = None
            stated = _stated(code, expected) if not code.startswith(">>>") else None
            if stated is not None and expected.computed and statement.comment is None:
                quote = statement.source.strip()
                yield _draft(
                    document, expected, stated[0], statement.line, quote, 0.8, asked_by.lines
                )
        if scope.open_dict is not None:
            if code.startswith("}"):
                if scope.nested:
                    scope.nested -= 1
                else:
                    scope.open_dict = None
                continue
            if _NESTED_OPEN.match(code):
                # Its entries are not the outer dict's values: no sum of the outer dict is read.
                scope.nested += 1
                scope.dicts.pop(scope.open_dict, None)
                continue
            entry = _DICT_ENTRY.match(code)
            if entry is not None:
                value = _read(entry.group("value"), scope)
                if value is not None:
                    if not scope.nested and scope.open_dict in scope.dicts:
                        scope.dicts[scope.open_dict][entry.group("key")] = value.value
                        _record(scope, scope.open_dict, value, statement, add=True)
                    yield from _commented(document, value, entry.group("value"), statement)
            continue
        # Each pattern below is tried only when the statement holds what it cannot match
        # without ("=", "def", "print", ">>>"): most lines of code are none of these.
        assigns = "=" in code
        opened = _DICT_OPEN.match(code) if assigns and "{" in code else None
        if opened is not None:
            scope.open_dict = opened.group("name")
            scope.dicts[scope.open_dict] = {}
            scope.origins[scope.open_dict] = _Origin(statement.lines)
            continue
        defaults = _DEFAULTS.match(code) if "def" in code else None
        if defaults is not None:
            for default in _DEFAULT.finditer(defaults.group("params")):
                value = _read(default.group("value"), scope)
                if value is not None:
                    scope.values[default.group("name")] = value.value
                    _record(scope, default.group("name"), value, statement)
            continue
        call = _PRINT.match(code) if "print" in code else None
        if call is not None:
            prints += 1
            argument = call.group("value").strip()
            elements = _fields(argument, scope) if scope.arrays and "{" in argument else None
            if elements is not None:
                printed.append(elements)
                continue
            fstring = _FSTRING.match(argument)
            before, after = "", ""
            if fstring is not None:
                spec = _FORMAT_SPEC.match(fstring.group("value"))
                percent = spec is not None and (spec.group("spec") or "").endswith("%")
                # ``{x:.1%}`` prints 100·x: the printed number is not x itself.
                argument = spec.group("value") if spec is not None and not percent else ""
                before, after = fstring.group("before"), fstring.group("after")
            value = _read(argument, scope)
            if value is not None:
                yield from _commented(document, value, call.group("value"), statement)
                printed.append((value, before, after, statement))
            continue
        asked = _PROMPT.match(code) if code.startswith(">>>") else None
        if asked is not None:
            value = _read(asked.group("value"), scope)
            if value is not None:
                prompt = (value, statement)
            continue
        several = _TUPLE_ASSIGNMENT.match(code) if assigns and "," in code else None
        if several is not None:
            targets = [t.strip() for t in several.group("names").split(",")]
            values = _top_level_items(several.group("values"))
            for target, item in zip(targets, values, strict=False):
                value = _read(item, scope) if len(values) == len(targets) else None
                scope.definitions.pop(target, None)
                scope.functions.pop(target, None)
                if value is None or (scope.loops and value.where):
                    scope.values.pop(target, None)
                else:
                    scope.values[target] = value.value
                    _record(scope, target, value, statement)
            continue
        assignment = _ASSIGNMENT.match(code) if assigns else None
        if assignment is None:
            changed = _CHANGED.match(code) if scope.arrays or scope.ranges else None
            if changed is not None:  # theta[0] = 0, theta *= 2: no longer its definition
                scope.arrays.pop(changed.group("name"), None)
                scope.ranges.pop(changed.group("name"), None)
            continue
        name, key = assignment.group("name"), assignment.group("key")
        if key is None and not assignment.group("value").startswith("lambda"):
            scope.functions.pop(name, None)  # twice = model.forward: no longer the function
        value = _read(assignment.group("value"), scope)
        if key is not None:  # d['k'] = …: the dict's entries change with it
            if value is None or name not in scope.dicts:
                scope.dicts.pop(name, None)
            else:
                scope.dicts[name][key] = value.value
                _record(scope, name, value, statement, add=True)
            if value is None:
                continue
        else:
            scope.ranges.pop(name, None)
            scope.arrays.pop(name, None)
            scope.definitions.pop(name, None)
            if value is None or (scope.loops and value.where):
                # reassigned to something we cannot read, or in a loop from names it changes
                scope.values.pop(name, None)
                if value is None:
                    _array(name, assignment.group("value"), scope)
                continue
            scope.values[name] = value.value
            _record(scope, name, value, statement)
            if value.computed and statement.indent == 0:
                scope.definitions[name] = value
        yield from _commented(document, value, assignment.group("value"), statement)
    if scope.opened_function is not None:  # the block ends the function's body
        _function_body(None, scope)
    if printed and following is not None and prints == len(printed):
        yield from _outputs(document, printed, following)


def _function_head(statement: _Statement, scope: _Scope) -> None:
    """A ``def`` line: a function written on it (``def f(x): return 2 * x``), or one whose body
    the next statements are."""
    head = _FUNCTION_HEAD.match(statement.code)
    if head is None:
        return
    name = head.group("name")
    scope.functions.pop(name, None)
    opened = _Function(name, (head.group("params"),), "", statement.lines)
    scope.opened_function = (opened, statement.indent)
    returned = _RETURN.match(head.group("body").strip())
    if returned is not None:
        _function_returns(returned.group("value"), statement, scope)
    elif head.group("body").strip():
        scope.opened_function = None


def _function_body(statement: _Statement | None, scope: _Scope) -> None:
    """A statement after a ``def`` (None at the end of the block): its ``return``, a docstring,
    or anything else, which makes it a function that is not read; a statement back at the
    ``def``'s indentation ends the body."""
    assert scope.opened_function is not None
    function, indent = scope.opened_function
    if statement is None or statement.indent <= indent:
        scope.opened_function = None
        if function.body:
            scope.functions[function.name] = function
        return
    if not function.body and statement.code.startswith(('"', "'")):
        return  # its docstring
    returned = _RETURN.match(statement.code) if not function.body else None
    if returned is None:
        scope.opened_function = None  # a body of more than one return: not read
        return
    _function_returns(returned.group("value"), statement, scope)


def _function_returns(value: str, statement: _Statement, scope: _Scope) -> None:
    assert scope.opened_function is not None
    opened, indent = scope.opened_function
    function = _function(opened.name, opened.parameters[0], value, scope)
    if function is None:
        scope.opened_function = None
        return
    lines = tuple(dict.fromkeys(opened.lines + statement.lines))
    scope.opened_function = (dataclasses.replace(function, lines=lines), indent)


def _lambda(statement: _Statement, scope: _Scope) -> None:
    """``name = lambda x: …`` of arithmetic, a function of its own."""
    found = _LAMBDA.match(statement.code)
    if found is None:
        return
    function = _function(found.group("name"), found.group("params"), found.group("body"), scope)
    scope.functions.pop(found.group("name"), None)
    if function is not None and statement.indent == 0:
        scope.functions[function.name] = dataclasses.replace(function, lines=statement.lines)


def _record(
    scope: _Scope, name: str, value: _Value, statement: _Statement, *, add: bool = False
) -> None:
    """Keep where ``name``'s value was read from: ``statement`` and what ``value`` read (added
    to what it had, for the entries of a dict)."""
    known = scope.origins.get(name) if add else None
    parents = value.origins if known is None else (known, *value.origins)
    scope.origins[name] = _Origin(statement.lines, parents)


_CALL = re.compile(r"(?<![\w.])(?P<name>[A-Za-z_]\w*)\(")
_FUNCTION_HEAD = re.compile(
    r"^def\s+(?P<name>[A-Za-z_]\w*)\s*\((?P<params>[^()]*)\)\s*(?:->\s*\w+\s*)?:\s*(?P<body>.*)$"
)
_RETURN = re.compile(r"^return\s+(?P<value>.+)$")
_LAMBDA = re.compile(r"^(?P<name>[A-Za-z_]\w*)\s*=\s*lambda\s+(?P<params>[^:]*):\s*(?P<body>.+)$")
_OPERATORS = frozenset("+-*/%@&|^<>")
_KEYWORD = re.compile(r"(?:for|while|async\s+for|def)(?=\s)")
"""A loop's header, or a function's."""
_MAX_INPUTS = 48
"""Statements a draft gathers as its inputs, at most: a program whose every line builds on the
one before stays linear (the count is the only thing that is then short)."""
_AUGMENTED = re.compile(rf"^(?P<name>{_NAME})\s*(?:\*\*|//|>>|<<|[-+*/%@&|^])=")
"""``total += x``, ``n //= 2``: a name changed in place."""
_LOOP_TARGETS = re.compile(r"^(?:async\s+)?for\s+(?P<targets>.+?)\s+in\b")


def _forget(name: str, scope: _Scope) -> None:
    for known in (scope.values, scope.definitions, scope.arrays, scope.ranges, scope.functions):
        known.pop(name, None)


def _rebound(header: str, scope: _Scope) -> None:
    """Forget the names a ``for`` header rebinds (``for i, x in …``)."""
    targets = _LOOP_TARGETS.match(header)
    if targets is not None:
        for name in re.findall(r"[A-Za-z_]\w*", targets.group("targets")):
            _forget(name, scope)


def _array(name: str, text: str, scope: _Scope) -> None:
    """Record ``name`` as a range (``arange`` of literal arithmetic) or as an array of literal
    arithmetic over one range (``10000 ** (-2 * i / d)``), if it is either."""
    text = text.strip()
    arange = _ARANGE.match(text) if "arange" in text else None
    if arange is not None:
        bounds = _arange(arange.group("args"), scope)
        if bounds is not None:
            scope.ranges[name] = bounds
        return
    over = [r for r in scope.ranges if re.search(rf"(?<![\w.]){re.escape(r)}(?![\w])", text)]
    if len(over) != 1:
        return
    probe = re.sub(rf"(?<![\w.]){re.escape(over[0])}(?![\w])", "1", text)
    if _read(probe, scope) is not None:
        scope.arrays[name] = (text, over[0])


def _commented(
    document: Document, value: _Value, code_part: str, statement: _Statement
) -> Iterator[Draft]:
    """Drafts for what the statement's comment states about ``value``."""
    comment = statement.comment
    if comment is None or not any(c.isdigit() for c in comment):
        return
    if value.computed:
        stated = _stated(comment, value)
        if stated is not None:
            quote = _quote(statement.source, stated[1])
            yield _draft(document, value, stated[0], statement.line, quote, 0.8)
        return
    # A bare literal explained by its comment: head_dim = 128  # 4096 / 32
    arithmetic = _COMMENT_ARITHMETIC.match(comment)
    if arithmetic is None or not _LITERAL.match(code_part.strip().rstrip(",;")):
        return
    formula = _read(arithmetic.group("value"), _Scope())
    if formula is None or not formula.computed:
        return
    literal = code_part.strip().rstrip(",;").replace("_", "")
    try:
        parse_printed(literal)
    except NumberError:
        return
    quote = _quote(statement.source, comment)
    yield _draft(document, formula, literal, statement.line, quote, 0.7)


def _outputs(
    document: Document,
    printed: list[tuple[_Value, str, str, _Statement] | _Fields],
    following: Block,
) -> Iterator[Draft]:
    """Printed values against the output block right after the code, line by line."""
    lines = list(following.lines)
    if (
        lines
        and _OUTPUT_HEAD.match(lines[0].text)
        and not _OUTPUT_HEAD.sub("", lines[0].text).strip()
    ):
        lines = lines[1:]  # a heading line "Output:" of its own
    if len(lines) != len(printed):
        return
    for entry, output in zip(printed, lines, strict=True):
        if isinstance(entry, _Fields):
            yield from _field_outputs(document, entry, output.text, output.number)
            continue
        value, before, after, statement = entry
        text = _OUTPUT_HEAD.sub("", output.text).strip() if output is lines[0] else output.text
        text = text.strip()
        if before and not text.startswith(before.strip()):
            continue
        inner = text[len(before.strip()) :] if before else text
        if after.strip():
            if not inner.rstrip().endswith(after.strip()):
                continue
            inner = inner.rstrip()[: -len(after.strip())]
        if not value.computed:
            continue
        stated = _stated(inner.strip(), value)
        if stated is None or stated[1].strip() != inner.strip():
            continue
        quote = output.text.strip()
        yield _draft(document, value, stated[0], output.number, quote, 0.7, statement.lines)


def _is_output(block: Block, previous: Block | None) -> bool:
    if block.kind != "fence" or previous is None or previous.kind != "fence":
        return False
    info = block.info.split()[0].lower() if block.info.split() else ""
    return info in _OUTPUT_INFOS or bool(block.lines and _OUTPUT_HEAD.match(block.lines[0].text))


def recognize(document: Document) -> Iterator[Draft]:
    """Draft ``arithmetic`` claims for the values code blocks state for their arithmetic."""
    blocks = document.blocks
    scope, section = _Scope(), -1
    paragraphs: dict[int, list[Block]] | None = None  # built when an output block is found
    read = [
        index
        for index, block in enumerate(blocks)
        if block.kind == "fence" and len(block.lines) <= _MAX_BLOCK_LINES
    ]
    worth = {index for index in read if _worth_reading(blocks[index])}
    if not worth:
        return  # no block states anything, and none is read only for the names it assigns
    # The index of the last block of each section worth reading: the names a block assigns
    # matter only to the blocks read after it in its section, so a block after that last one
    # that states nothing itself is not read at all (most of a lesson's code states nothing).
    last_worth = {blocks[index].section: index for index in read if index in worth}
    for index in read:
        block = blocks[index]
        if block.section != section:  # the code blocks of a section run as one session
            scope, section = _Scope(), block.section
        if index not in worth:
            if index > last_worth.get(block.section, -1):
                continue  # no block after it reads the names it assigns
            if _DIGIT.search("\n".join(line.text for line in block.lines)):
                for _draft_made in _block_drafts(document, block, None, scope):
                    pass  # nothing is stated here, but names are assigned for the next block
            continue
        output = _output_after(blocks, index)
        yield from _block_drafts(document, block, output, scope)
        if output is not None:
            if paragraphs is None:
                paragraphs = _paragraphs_by_section(document)
            yield from _quoted_outputs(paragraphs.get(output.section, ()), output)


def _paragraphs_by_section(document: Document) -> dict[int, list[Block]]:
    found: dict[int, list[Block]] = {}
    for block in document.blocks:
        if block.kind == "paragraph":
            found.setdefault(block.section, []).append(block)
    return found


_OUTPUT_VALUE = re.compile(
    r"^\s*(?P<label>[A-Za-z\u4e00-\u9fff][\w \-/()\u4e00-\u9fff]{0,40}?)\s*[:=：]\s*"
    r"(?P<value>[-−]?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*(?P<unit>%|[A-Za-z]{1,3})?\s*$"
)
"""A printed line ``label: value [unit]`` (``loss: 2.3125``, ``Memory = 26.0 GB``)."""
_REFERS_TO_OUTPUT = re.compile(
    r"\bprint(?:s|ed)?\b|\boutput\b|\bshows?\b|\bshown\b|输出|打印|显示|结果", re.IGNORECASE
)
_QUOTED_VALUE = (
    r"\s*(?:is|was|of|=|:|：|为|是|约为|约|comes? (?:out )?(?:to|at)|reads?)?\s*(?:about|~|≈)?\s*"
)
_PROSE_NUMBER = re.compile(r"[-−]?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?\s*(?:%|[A-Za-z]{1,3}\b)?")


_MAX_LABELS = 40
"""Most labelled lines an output block may print for sentences to be read against it."""
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|[。！？；]")


def _field_outputs(document: Document, fields: _Fields, text: str, line: int) -> Iterator[Draft]:
    """Each field of a printed f-string against its stretch of the output line."""
    pattern = "".join(
        (r"\s+" if piece and not piece.strip() else re.escape(piece.strip()))
        + (r"\s*(\S+?)\s*" if index < len(fields.values) else "")
        for index, piece in enumerate(fields.texts)
    )
    match = re.fullmatch(r"\s*" + pattern + r"\s*", text)
    if match is None:
        return
    for index, value in enumerate(fields.values):
        printed = match.group(index + 1)
        stated = _stated(printed, value)
        if stated is None or stated[1].strip() != printed or not value.computed:
            continue
        draft = _draft(document, value, stated[0], line, printed, 0.7)
        yield dataclasses.replace(
            draft, note=f"{fields.names[index]} (the code above), printed on line {line}"
        )


def _quoted_outputs(paragraphs: Sequence[Block], output: Block) -> Iterator[Draft]:
    """A sentence of the section that says what the output block printed for a label (``the
    loss printed above is 2.31``), against the printed value. The label must name one printed
    line only, and the value follow it directly."""
    printed: dict[str, tuple[str, str, int] | None] = {}
    for line in output.lines:
        match = _OUTPUT_VALUE.match(line.text)
        if match is None:
            continue
        label = " ".join(match.group("label").lower().split())
        entry = (match.group("value"), match.group("unit") or "", line.number)
        known = printed.get(label, entry)
        printed[label] = entry if known is not None and known[:2] == entry[:2] else None
    labels = {label: entry for label, entry in printed.items() if entry is not None}
    if not labels or len(labels) > _MAX_LABELS:
        return  # none, or a log too long to be what one sentence quotes
    for block in paragraphs:
        text = " ".join(line.text for line in block.lines)
        if not _REFERS_TO_OUTPUT.search(text):
            continue
        for sentence in _SENTENCE_END.split(text):
            if not _REFERS_TO_OUTPUT.search(sentence):
                continue
            for label, (value, unit, number) in labels.items():
                pattern = re.compile(
                    rf"(?<![\w]){re.escape(label)}(?![\w])(?:\s+\w+){{0,3}}?{_QUOTED_VALUE}"
                    rf"(?P<claimed>{_PROSE_NUMBER.pattern})",
                    re.IGNORECASE,
                )
                found = pattern.search(sentence)  # the label's first mention in the sentence
                if found is None:
                    continue
                claimed = found.group("claimed").strip()
                draft = _against_output(block, found, claimed, value, unit, number)
                if draft is not None:
                    yield draft


def _against_output(
    block: Block,
    found: re.Match[str],
    claimed: str,
    value: str,
    unit: str,
    number: int,
) -> Draft | None:
    try:
        stated, shown = parse_printed(claimed), parse_printed(f"{value} {unit}".strip())
    except NumberError:
        return None
    same_unit = (stated.unit is None and shown.unit is None) or (
        stated.unit is not None
        and shown.unit is not None
        and stated.unit.symbol == shown.unit.symbol
    )
    if not same_unit or stated.decimals > shown.decimals:
        return None  # another unit, or more digits than were printed: nothing to compare
    name = f"output_line_{number}"
    mantissa = value.replace(",", "").replace("−", "-")
    line = next((ln.number for ln in block.lines if claimed in ln.text), block.lines[0].number)
    return Draft(
        kind="arithmetic",
        quote=found.group(0).strip(),
        line=line,
        fields={
            "expression": name,
            "claimed": claimed.removesuffix(unit).strip() if unit else claimed,
            "where": {name: mantissa},
        },
        confidence=0.6,
        recognizer=NAME,
        slug=f"output-{number}",
        inputs=((number, f"{value}"),),
    )


_DIGIT = re.compile(r"\d")
_STATED_COMMENT = re.compile(r"(?:#|//)[^\n]*\d")
_PRINT_CALL = re.compile(r"print\s*\(")
_PROMPT_LINE = re.compile(r"^\s*>>>", re.MULTILINE)
"""What a block needs for anything to be stated in it: a comment with a digit, a print or a
prompt (assignments alone state nothing)."""


def _worth_reading(block: Block) -> bool:
    text = "\n".join(line.text for line in block.lines)
    if _DIGIT.search(text) is None:
        return False
    # Each pattern after the literal it cannot match without (one pattern of the three, with
    # its line-start alternative, would be tried at every character of every block).
    return (
        (("#" in text or "//" in text) and _STATED_COMMENT.search(text) is not None)
        or ("print" in text and _PRINT_CALL.search(text) is not None)
        or (">>>" in text and _PROMPT_LINE.search(text) is not None)
    )


def _output_after(blocks: tuple[Block, ...], index: int) -> Block | None:
    """The output block printed by the code block ``blocks[index]``, if one follows it (after
    a line "Output:" of its own, perhaps), in the same section."""
    block = blocks[index]
    following = blocks[index + 1] if index + 1 < len(blocks) else None
    if (
        following is not None
        and following.kind == "paragraph"
        and len(following.lines) == 1
        and _OUTPUT_LABEL.fullmatch(following.lines[0].text.strip())
        and index + 2 < len(blocks)
        and blocks[index + 2].kind == "fence"
    ):
        following = blocks[index + 2]
        return following if following.section == block.section else None
    if following is None or not _is_output(following, block):
        return None
    return following if following.section == block.section else None
