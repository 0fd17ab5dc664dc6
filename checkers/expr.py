"""Safe parsing and evaluation of the arithmetic quoted in lesson text.

Lessons and claim files come from pull requests, so their formulas are untrusted: nothing here
uses ``eval``, ``exec``, ``compile`` or sympy's parsers.  Text goes through three stages:

1. :func:`normalize` rewrites Unicode notation to ASCII, remembering for every normalised
   character the column it came from, so errors point into the original text;
2. ``_tokenize`` splits it into numbers, names and punctuation;
3. ``_Parser`` (recursive descent) builds a tree of frozen dataclasses (:data:`Node`), which
   :func:`evaluate` (floats) and :func:`evaluate_exact` (fractions) walk.

Grammar, loosest binding first::

    sum      := term (("+" | "-") term)*         also "a + b + … + z", see below
    term     := signed (("*" | "/") signed)*
    signed   := ("+" | "-") signed | product      so -2^2 = -(2^2)
    product  := power power*                      implicit ×: after a number or ")"
    power    := "√" power | primary ["%"] ["^" exponent]     ^ is right-associative
    exponent := ("+" | "-") exponent | power
    primary  := number | name | function "(" sum ("," sum)* ")"
              | "(" sum ")" | "[" sum ("," sum)* "]"

It recognises:

* numbers ``12``, ``0.78``, ``.5``, ``1e-4``, ``1.5E3``; thousands separators ``4,096`` and
  ``1,234,567`` (a comma before exactly three digits, except inside ``[…]`` or a function's
  argument list, where commas separate items); postfix ``%``;
* ``+ - * / ^ **`` and ``− – — × · ⋅ ∗ ÷ ／``; superscript powers ``0.9⁵⁰``, ``x⁻¹``; prefix
  ``√`` (tighter than ×, so ``√2×3`` is (√2)·3); ``e^x`` and ``e^(…)`` mean exp;
* implicit multiplication before a name, ``(`` or ``√``: ``2d_k``, ``2(3)``, ``2√2``,
  ``(a)(b)``.  Textbooks read ``1/2d_k`` both as 1/(2d_k) and as (1/2)d_k, so an implicit
  product right after ``/`` is refused rather than guessed;
* vectors ``[0.8, 0.3]`` with element-wise ``+``/``-`` and scaling by a number;
* sums ``1 + 2 + … + 100`` (``…``, ``...`` or ``⋯``) of the arithmetic progression set by the
  two terms before the ellipsis and the one after it, computed in closed form;
* the functions in :data:`FUNCTIONS` and the constants ``pi π e inf ∞``; any other identifier
  (``d_k``, ``W_q``, ``α``) is a variable supplied to :func:`evaluate`.

Every failure raises :class:`ExprError` with a message and a 0-based column.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple, TypeAlias, TypeVar

from checkers import formulas

__all__ = [
    "FUNCTIONS", "MAX_ABS_EXPONENT", "MAX_DEPTH", "MAX_EXACT_DIGITS", "MAX_LENGTH",
    "MAX_SERIES_TERMS", "MAX_TOKENS", "MAX_VECTOR", "ArithmeticSeries", "Binary", "Call",
    "ExprError", "Name", "Node", "Number", "Unary", "Vector", "evaluate", "evaluate_exact",
    "evaluate_text", "names", "normalize", "parse", "split_chain",
]  # fmt: skip

# Limits: the input is hostile, so every loop, recursion and number is bounded.
MAX_LENGTH = 2000  # characters of input; lesson formulas are far shorter
MAX_DEPTH = 64  # nesting of brackets, calls, signs, √ and exponents; bounds recursion
MAX_TOKENS = 1000  # tokens per expression
MAX_VECTOR = 4096  # elements of a vector or arguments of a call
MAX_ABS_EXPONENT = 300  # float results must satisfy |x| <= 10**300
MAX_EXACT_DIGITS = 600  # exact numerators and denominators must be <= 10**600
MAX_SERIES_TERMS = 10**9  # terms of one ellipsis sum

_FLOAT_LIMIT = 10.0**MAX_ABS_EXPONENT
_EXACT_LIMIT = 10**MAX_EXACT_DIGITS
_INT_FLOAT_LIMIT = int(_FLOAT_LIMIT)
_TOO_LARGE = f"result is too large (magnitude above 1e{MAX_ABS_EXPONENT})"
_TOO_EXACT = f"exact value would need more than {MAX_EXACT_DIGITS} digits"


def _clip(text: str, limit: int = 24) -> str:
    """Shorten quoted input for a message: a 2000-digit literal would drown it."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ExprError(ValueError):
    """Any problem with an expression: syntax, a limit, or the arithmetic itself."""

    message: str
    column: int

    def __init__(self, message: str, column: int) -> None:
        super().__init__(f"{message} (column {column})")
        self.message = message
        self.column = column


# ------------------------------------------------------------------------------ tree nodes


@dataclass(frozen=True)
class Number:
    """A numeric literal, kept as a Fraction so exact evaluation stays exact."""

    value: Fraction  # value after thousands separators and exponent
    text: str  # the literal as written, after normalize(): "０．５" reads "0.5", "4,096" stays
    start: int  # column of its first character


@dataclass(frozen=True)
class Name:
    """A constant (pi, π, e, inf, ∞) or a variable such as d_k."""

    name: str  # normalised spelling: full-width "ｄ_ｋ" becomes "d_k"
    start: int  # column of its first character


@dataclass(frozen=True)
class Vector:
    """A bracketed list of scalars such as [0.8, 0.3]."""

    items: tuple[Node, ...]  # element expressions, at least one
    start: int  # column of "["


@dataclass(frozen=True)
class Unary:
    """A prefix sign or a postfix percent."""

    op: str  # "-", "+" or "%"
    operand: Node  # what the operator applies to
    start: int  # column of the operator


@dataclass(frozen=True)
class Binary:
    """A binary operation; implicit multiplication is an ordinary "*"."""

    op: str  # "+", "-", "*", "/" or "^"
    left: Node  # left operand
    right: Node  # right operand
    start: int  # column of the operator (of the right operand when implicit)


@dataclass(frozen=True)
class Call:
    """A whitelisted function call; √x and e^x are parsed into sqrt and exp calls."""

    func: str  # a member of FUNCTIONS
    args: tuple[Node, ...]  # arguments, arity already checked by the parser
    start: int  # column of the function name, of "√" or of "e"


@dataclass(frozen=True)
class ArithmeticSeries:
    """first + second + … + last, summed in closed form."""

    first: Node  # first term
    second: Node  # second term; second - first is the step
    last: Node  # final term, which the step must reach exactly
    start: int  # column of the ellipsis


Node: TypeAlias = Number | Name | Vector | Unary | Binary | Call | ArithmeticSeries
Value: TypeAlias = float | tuple[float, ...]

# ------------------------------------------------------------------------------ normalisation

_SUPERSCRIPTS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁽⁾ⁿⁱ", "0123456789+-()ni", strict=True))
_REPLACEMENTS = {
    **dict.fromkeys("\u2212\u2012\u2013\u2014\u2010\ufe63", "-"),  # − ‒ – — ‐ ﹣
    **dict.fromkeys("\u00d7\u00b7\u22c5\u2217", "*"),  # × · ⋅ ∗
    **dict.fromkeys("\u00f7\uff0f\u2215\u2044", "/"),  # ÷ ／ ∕ ⁄
    **dict.fromkeys("\u2026\u22ef", "..."),  # … ⋯
    **dict.fromkeys("\u00a0\u2009\u202f\u3000", " "),  # no-break, thin and full-width spaces
}


def _normalize_mapped(text: str) -> tuple[str, list[int]]:
    """Normalise ``text``; also return, for each output character, its column in ``text``.

    Every output character is emitted from exactly one input character, so the offset map is
    built while emitting rather than recovered afterwards.  It has one extra entry,
    ``len(text)``, so that "end of input" has a column too.  NFKC is applied one character at
    a time, which loses cross-character composition that no arithmetic notation relies on.
    """
    if text.isascii():  # nothing to rewrite: NFKC and every replacement leave ASCII alone
        return text, list(range(len(text) + 1))
    out: list[str] = []
    where: list[int] = []

    def emit(chunk: str, column: int) -> None:
        out.extend(chunk)
        where.extend([column] * len(chunk))

    i = 0
    while i < len(text):
        ch = text[i]
        if ch in _SUPERSCRIPTS:
            # Before NFKC, which would flatten 0.9⁵⁰ into 0.950.
            end = i
            while end < len(text) and text[end] in _SUPERSCRIPTS:
                end += 1
            emit("^(", i)
            for k in range(i, end):
                emit(_SUPERSCRIPTS[text[k]], k)
            emit(")", end - 1)
            i = end
            continue
        chunk = _REPLACEMENTS.get(ch)
        if chunk is None:
            chunk = "".join(_REPLACEMENTS.get(c, c) for c in unicodedata.normalize("NFKC", ch))
            if len(chunk) > 1 and "/" in chunk:
                # A vulgar fraction (½ -> 1/2) must stay one operand; and "3½" would become
                # 3·(1/2) by implicit multiplication, so mixed numbers are refused.
                if "".join(out[-40:]).rstrip().endswith(tuple("0123456789")):
                    raise ExprError(f"mixed number with {ch!r} is ambiguous; write a decimal", i)
                chunk = f"({chunk})"
        emit(chunk, i)
        i += 1
    where.append(len(text))
    return "".join(out), where


def normalize(text: str) -> str:
    """Rewrite Unicode arithmetic notation (full-width, superscripts, ×, −, …) as ASCII."""
    return _normalize_mapped(text)[0]


# ------------------------------------------------------------------------------ tokenizer


class _Token(NamedTuple):
    """One lexical unit of the normalised text (a tuple: an expression makes dozens)."""

    kind: str  # "number", "name", "bad", "end", or the punctuation itself: "+", "...", "√"
    text: str  # normalised spelling
    source: str  # spelling in the original input, for messages
    column: int  # column of its first character in the original input
    value: Fraction = Fraction(0)  # value of a "number" token


# The fraction's "." must not start an ellipsis ("2+...+9"), and an exponent needs digits, so
# "2e" stays 2·e.  Thousands groups are exactly three digits not followed by a fourth.
_TAIL = r"(?:\.(?!\.\.)(?P<fraction>[0-9]*))?(?:[eE](?P<exponent>[+-]?[0-9]+))?"
_NUMBER = re.compile(r"(?P<whole>[0-9]*)" + _TAIL)
_GROUPED_NUMBER = re.compile(r"(?P<whole>[0-9]{1,3}(?:,[0-9]{3}(?![0-9]))+)" + _TAIL)
_PUNCTUATION = frozenset("+-*/^()[],√%")


def _is_name_start(ch: str) -> bool:
    return (ch.isascii() and (ch.isalpha() or ch == "_")) or ("Α" <= ch <= "ω" and ch.isalpha())


def _number_value(match: re.Match[str], source: str, column: int) -> Fraction:
    digits = match["whole"].replace(",", "") + (match["fraction"] or "")
    exponent = match["exponent"] or "0"
    source = _clip(source)
    if len(digits) > MAX_EXACT_DIGITS or len(exponent.lstrip("+-0")) > 4:
        raise ExprError(f"number {source} has too many digits or too large an exponent", column)
    power = int(exponent) - len(match["fraction"] or "")
    mantissa = int(digits or "0")
    numerator, denominator = (mantissa * 10**power, 1) if power >= 0 else (mantissa, 10**-power)
    # Bounds compared in integers, exactly as the Fraction would compare (and far faster).
    if numerator > _INT_FLOAT_LIMIT * denominator:
        raise ExprError(f"number {source} is too large (limit 1e{MAX_ABS_EXPONENT})", column)
    value = Fraction(numerator, denominator)
    if value.denominator > _EXACT_LIMIT:
        raise ExprError(f"number {source} is too small or too precise", column)
    return value


def _tokenize(norm: str, where: list[int], original: str) -> list[_Token]:
    """Split normalised text into tokens; unknown characters become "bad" tokens.

    The parser reports a bad character only when it reaches it, so errors come in reading
    order: ``open("x")`` is an unknown function before it is a stray quote.
    """
    tokens: list[_Token] = []
    # Kinds of the open brackets, innermost last.  A comma is a thousands separator only where
    # it cannot separate items: at top level or in grouping parentheses.
    brackets: list[str] = []
    i = 0
    while i < len(norm):
        ch = norm[i]
        if ch.isspace():
            i += 1
            continue
        if len(tokens) == MAX_TOKENS:
            raise ExprError(f"too many tokens (limit {MAX_TOKENS})", where[i])
        kind, end, value = "bad", i + 1, Fraction(0)
        if "0" <= ch <= "9" or (ch == "." and "0" <= norm[i + 1 : i + 2] <= "9"):
            grouped = not brackets or brackets[-1] == "group"
            match = (_GROUPED_NUMBER.match(norm, i) if grouped else None) or _NUMBER.match(norm, i)
            assert match is not None  # _NUMBER matches the empty string
            kind, end = "number", match.end()
            value = _number_value(match, original[where[i] : where[end - 1] + 1], where[i])
        elif _is_name_start(ch):
            kind = "name"
            while end < len(norm) and (_is_name_start(norm[end]) or "0" <= norm[end] <= "9"):
                end += 1
        elif ch == "∞":
            kind = "name"
        elif norm.startswith("...", i):
            kind, end = "...", i + 3
        elif norm.startswith("**", i):
            kind, end = "^", i + 2
        elif ch in _PUNCTUATION:
            kind = ch
            if ch in "([":
                after_name = bool(tokens) and tokens[-1].kind == "name"
                brackets.append("list" if ch == "[" else "call" if after_name else "group")
            elif ch in ")]" and brackets:
                brackets.pop()
        source = original[where[i] : where[end - 1] + 1]
        tokens.append(_Token(kind, norm[i:end], source, where[i], value))
        i = end
    tokens.append(_Token("end", "", "end of input", len(original)))
    return tokens


# ------------------------------------------------------------------------------ functions

_Scalar = Callable[[float, int], float]


def _exp(x: float, column: int) -> float:
    # Compare decimal exponents first: math.exp(1e9) would only say "math range error".
    if x * math.log10(math.e) > MAX_ABS_EXPONENT:
        raise ExprError(_TOO_LARGE, column)
    return math.exp(x)


def _log_of(log: Callable[[float], float]) -> _Scalar:
    def checked(x: float, column: int) -> float:
        if x <= 0:
            raise ExprError(f"logarithm of a non-positive number ({x:g})", column)
        return log(x)

    return checked


def _sqrt(x: float, column: int) -> float:
    if x < 0:
        raise ExprError(f"square root of a negative number ({x:g})", column)
    return math.sqrt(x)


def _formula(function: Callable[[float], float]) -> _Scalar:
    """A function of :mod:`checkers.formulas` as the evaluator calls it (with a column)."""
    return lambda x, _: function(x)


_SCALAR_FUNCTIONS: dict[str, _Scalar] = {
    "exp": _exp, "log": _log_of(math.log), "ln": _log_of(math.log),
    "log2": _log_of(math.log2), "log10": _log_of(math.log10), "sqrt": _sqrt,
    "sin": lambda x, _: math.sin(x), "cos": lambda x, _: math.cos(x),
    "tan": lambda x, _: math.tan(x), "tanh": lambda x, _: math.tanh(x),
    "relu": _formula(formulas.relu), "abs": lambda x, _: abs(x),
    "sigmoid": _formula(formulas.sigmoid), "gelu": _formula(formulas.gelu),
    "gelu_tanh": _formula(formulas.gelu_tanh), "silu": _formula(formulas.silu),
}  # fmt: skip
_AGGREGATES = frozenset({"max", "min", "sum", "mean", "softmax"})  # a vector or several numbers
FUNCTIONS = frozenset(_SCALAR_FUNCTIONS) | _AGGREGATES
"""Every function name the grammar accepts; any other call is refused."""

_CONSTANTS = {"pi": math.pi, "π": math.pi, "e": math.e, "inf": math.inf, "∞": math.inf}

# ------------------------------------------------------------------------------ parser


def _describe(token: _Token) -> str:
    kind = f"{token.kind} " if token.kind in ("number", "name") else ""
    return "end of input" if token.kind == "end" else f"{kind}'{_clip(token.source)}'"


class _Parser:
    """Recursive descent over the tokens, one method per grammar rule."""

    def __init__(self, tokens: list[_Token]) -> None:
        self._tokens = tokens
        self._pos = 0
        self._depth = 0
        # Set by _product: whether the operand it just returned was an implicit product, so
        # that _term can refuse the ambiguous 1/2d_k.
        self._implicit = False

    def parse(self) -> Node:
        node = self._sum()
        if self._peek().kind != "end":
            raise self._unexpected(self._peek())
        return node

    def _peek(self) -> _Token:
        return self._tokens[self._pos]

    def _advance(self) -> _Token:
        token = self._tokens[self._pos]
        self._pos += token.kind != "end"
        return token

    def _enter(self, token: _Token) -> None:
        """Go one nesting level deeper (callers step back out); this bounds the recursion."""
        self._depth += 1
        if self._depth > MAX_DEPTH:
            message = f"expression is nested too deeply (limit {MAX_DEPTH} levels)"
            raise ExprError(message, token.column)

    def _unexpected(self, token: _Token) -> ExprError:
        if token.kind == "bad":
            message = f"unexpected character {token.source!r}"
        elif token.kind in (")", "]"):
            message = f"unmatched '{token.source}'"
        elif token.kind == "...":
            message = "an ellipsis is only allowed in a sum like 1 + 2 + … + n"
        elif token.kind == ",":
            message = "unexpected ',' (a thousands separator needs exactly three digits after it)"
        else:
            message = f"unexpected {_describe(token)}"
        return ExprError(message, token.column)

    def _close(self, opener: _Token, closer: str) -> None:
        token = self._advance()
        if token.kind == "end":
            raise ExprError(f"unclosed '{opener.source}'", opener.column)
        if token.kind == "bad":
            raise self._unexpected(token)
        if token.kind != closer:
            raise ExprError(f"expected '{closer}' but found {_describe(token)}", token.column)

    def _sum(self) -> Node:
        # Collect (operator, column, term) first, because an ellipsis reaches back two terms.
        terms: list[tuple[str, int, Node]] = [("+", -1, self._term())]
        while self._peek().kind in ("+", "-"):
            op = self._advance()
            if op.kind == "+" and self._peek().kind == "...":
                dots = self._advance()
                if (
                    len(terms) < 2
                    or terms[-1][0] != "+"
                    or terms[-2][0] != "+"
                    or any(isinstance(term, ArithmeticSeries) for _, _, term in terms[-2:])
                ):
                    message = "an ellipsis needs two added terms before it, as in 1 + 2 + … + n"
                    raise ExprError(message, dots.column)
                if self._peek().kind != "+":
                    raise ExprError("expected '+' after the ellipsis", self._peek().column)
                self._advance()
                series = ArithmeticSeries(terms[-2][2], terms[-1][2], self._term(), dots.column)
                terms[-2:] = [("+", terms[-2][1], series)]
            else:
                terms.append((op.kind, op.column, self._term()))
        node = terms[0][2]
        for kind, column, term in terms[1:]:
            node = Binary(kind, node, term, column)
        return node

    def _term(self) -> Node:
        node = self._signed(self._product)
        while self._peek().kind in ("*", "/"):
            op = self._advance()
            right = self._signed(self._product)
            if op.kind == "/" and self._implicit:
                message = "implicit multiplication after '/' is ambiguous; write a/(b*c) or (a/b)*c"
                raise ExprError(message, op.column)
            node = Binary(op.kind, node, right, op.column)
        return node

    def _signed(self, rule: Callable[[], Node]) -> Node:
        """Leading signs, then ``rule``: _product in a term, _power in an exponent."""
        sign = self._peek()
        if sign.kind not in ("+", "-"):
            return rule()
        self._advance()
        self._enter(sign)
        operand = self._signed(rule)
        self._depth -= 1
        return Unary(sign.kind, operand, sign.column)

    def _product(self) -> Node:
        node = self._power()
        self._implicit = False
        # Juxtaposition is × only after a number or ")" and before a name, "(" or "√";
        # anything else ("x y", "2 3") stays a syntax error.
        while self._tokens[self._pos - 1].kind in ("number", ")") and self._peek().kind in (
            "name", "(", "√",
        ):  # fmt: skip
            column = self._peek().column
            node = Binary("*", node, self._power(), column)
            self._implicit = True
        return node

    def _power(self) -> Node:
        token = self._peek()
        if token.kind == "√":
            self._advance()
            self._enter(token)
            operand = self._power()
            self._depth -= 1
            return Call("sqrt", (operand,), token.column)
        base = self._primary()
        if self._peek().kind == "%":
            base = Unary("%", base, self._advance().column)
        if self._peek().kind != "^":
            return base
        caret = self._advance()
        self._enter(caret)
        exponent = self._signed(self._power)
        self._depth -= 1
        if isinstance(base, Name) and base.name == "e":
            return Call("exp", (exponent,), base.start)
        return Binary("^", base, exponent, caret.column)

    def _primary(self) -> Node:
        token = self._advance()
        if token.kind == "number":
            return Number(token.value, token.text, token.column)
        if token.kind == "name" and self._peek().kind == "(":
            return self._call(token)
        if token.kind == "name":
            if token.text in FUNCTIONS:
                message = f"function '{token.text}' must be called with parentheses"
                raise ExprError(message, token.column)
            return Name(token.text, token.column)
        if token.kind == "(":
            self._enter(token)
            node = self._sum()
            self._close(token, ")")
            self._depth -= 1
            return node
        if token.kind == "[":
            items = self._items(token, "]")
            for item in items:
                if isinstance(item, Vector):
                    raise ExprError("vectors cannot be nested", item.start)
            return Vector(items, token.column)
        if token.kind in (")", "]", "end"):
            raise ExprError(f"expected a value but found {_describe(token)}", token.column)
        raise self._unexpected(token)

    def _call(self, name: _Token) -> Node:
        if name.text not in FUNCTIONS:
            allowed = ", ".join(sorted(FUNCTIONS))
            message = f"unknown function '{_clip(name.text)}'; allowed: {allowed}"
            raise ExprError(message, name.column)
        args = self._items(self._advance(), ")")
        if name.text in _SCALAR_FUNCTIONS and len(args) != 1:
            raise ExprError(f"{name.text} takes one argument, not {len(args)}", name.column)
        return Call(name.text, args, name.column)

    def _items(self, opener: _Token, closer: str) -> tuple[Node, ...]:
        """At least one comma-separated expression, then ``closer``; one level deeper."""
        if self._peek().kind == closer:
            raise ExprError("empty vector" if closer == "]" else "missing argument", opener.column)
        self._enter(opener)
        items = [self._sum()]
        while self._peek().kind == ",":
            comma = self._advance()
            if len(items) == MAX_VECTOR:
                raise ExprError(f"too many items (limit {MAX_VECTOR})", comma.column)
            items.append(self._sum())
        self._close(opener, closer)
        self._depth -= 1
        return tuple(items)


def parse(text: str) -> Node:
    """Parse one expression (no relation signs: see :func:`split_chain`) into a tree."""
    parsed = _parse_or_refusal(text)
    if isinstance(parsed, tuple):  # a fresh error each time: a raised one keeps its frames
        raise ExprError(*parsed)
    return parsed


@lru_cache(maxsize=16384)
def _parse_or_refusal(text: str) -> Node | tuple[str, int]:
    # Cached, the refusals too, as (message, column) rather than the error itself, whose
    # traceback would keep the frames of its first raise alive: ``scan`` parses every
    # expression once to draft a claim and again to check it, and the recognisers try the same
    # text that does not parse again (2,621 of 8,987 failed parses on the 826 real lessons
    # were repeats). The size (8,217 distinct texts on those lessons) bounds the memory, as
    # MAX_LENGTH bounds each entry.
    try:
        return _parse(text)
    except ExprError as error:
        return (error.message, error.column)


def _parse(text: str) -> Node:
    if len(text) > MAX_LENGTH:
        message = f"expression is too long ({len(text)} characters, limit {MAX_LENGTH})"
        raise ExprError(message, MAX_LENGTH)
    norm, where = _normalize_mapped(text)
    tokens = _tokenize(norm, where, text)
    if tokens[0].kind == "end":
        raise ExprError("empty expression", 0)
    try:
        return _Parser(tokens).parse()
    except RecursionError:  # pragma: no cover - MAX_DEPTH keeps the stack well short of this
        raise ExprError("expression is nested too deeply", 0) from None


# ------------------------------------------------------------------------------ float evaluation


def _checked(result: float, column: int, *operands: float) -> float:
    """Refuse NaN, and overflow unless an operand was already infinite (masks use -∞)."""
    if math.isnan(result):
        raise ExprError("the result is undefined (not a number)", column)
    if math.isinf(result) and all(math.isfinite(x) for x in operands):
        raise ExprError(_TOO_LARGE, column)
    if math.isfinite(result) and abs(result) > _FLOAT_LIMIT:
        raise ExprError(_TOO_LARGE, column)
    return result


def _float_power(a: float, b: float, column: int) -> float:
    if not (math.isfinite(a) and math.isfinite(b)):
        try:
            return _checked(math.pow(a, b), column, a, b)
        except (OverflowError, ValueError):
            raise ExprError(f"{a:g}^{b:g} is undefined", column) from None
    if a == 0:
        if b < 0:
            raise ExprError("division by zero (zero to a negative power)", column)
        return 1.0 if b == 0 else 0.0
    if a < 0 and not b.is_integer():
        raise ExprError("a negative number to a fractional power is not real", column)
    # Estimate the decimal exponent before computing, so that 9^99999999 or a tower of powers
    # is refused at once instead of being attempted.
    magnitude = b * math.log10(abs(a))
    if magnitude > MAX_ABS_EXPONENT:
        raise ExprError(_TOO_LARGE, column)
    return 0.0 if magnitude < -2 * MAX_ABS_EXPONENT else _checked(math.pow(a, b), column, a, b)


def _scalar_op(op: str, a: float, b: float, column: int) -> float:
    if op == "/" and b == 0:
        raise ExprError("division by zero", column)
    if op == "^":
        return _float_power(a, b, column)
    result = a + b if op == "+" else a - b if op == "-" else a * b if op == "*" else a / b
    return _checked(result, column, a, b)


def _vector_op(op: str, a: Value, b: Value, column: int) -> Value:
    if isinstance(a, tuple) and isinstance(b, tuple):
        if op == "*":
            raise ExprError("cannot multiply two vectors (dot products are not implicit)", column)
        if op not in ("+", "-"):
            raise ExprError(f"cannot apply '{op}' to two vectors", column)
        if len(a) != len(b):
            raise ExprError(f"vectors have different lengths ({len(a)} and {len(b)})", column)
        return tuple(_scalar_op(op, x, y, column) for x, y in zip(a, b, strict=True))
    if isinstance(a, tuple) and op in ("*", "/"):
        assert not isinstance(b, tuple)
        return tuple(_scalar_op(op, x, b, column) for x in a)
    if isinstance(b, tuple) and op == "*":
        assert not isinstance(a, tuple)
        return tuple(_scalar_op(op, a, y, column) for y in b)
    raise ExprError(f"cannot apply '{op}' to a vector and a number", column)


def _softmax(items: list[float], column: int) -> tuple[float, ...]:
    try:
        return tuple(formulas.softmax_values(items))
    except formulas.UndefinedError as error:
        raise ExprError(str(error), column) from None


_Real = TypeVar("_Real", Fraction, float)


def _series_count(first: _Real, second: _Real, last: _Real, column: int, slack: float) -> int:
    """How many terms first, second, …, last has; ``slack`` absorbs float rounding."""
    if first == second:
        raise ExprError("the two terms before the ellipsis are equal, so there is no step", column)
    steps = (last - first) / (second - first)  # may be ±inf for floats, so bound it first
    if not steps < MAX_SERIES_TERMS:
        raise ExprError(f"too many terms in the ellipsis sum (limit {MAX_SERIES_TERMS})", column)
    if steps < 1.5:
        raise ExprError("the last term must come after the second term", column)
    whole = round(steps)
    if abs(steps - whole) > slack * whole:
        step, end = float(second - first), float(last)
        raise ExprError(f"the last term {end:g} is not reached in steps of {step:g}", column)
    return whole + 1


def _left_spine(node: Binary) -> tuple[Node, list[Binary]]:
    """Split a left-deep chain such as 1+2+…+500 (written out) into its leftmost operand and
    its operations, innermost first, so that evaluators can loop over long sums instead of
    recursing once per term."""
    spine: list[Binary] = []
    current: Node = node
    while isinstance(current, Binary):
        spine.append(current)
        current = current.left
    spine.reverse()
    return current, spine


class _Evaluator:
    """Float evaluation; the recursion depth follows the nesting that the parser bounded."""

    def __init__(self, variables: Mapping[str, float]) -> None:
        self._variables = variables

    def value(self, node: Node) -> Value:
        if isinstance(node, Binary):
            leftmost, spine = _left_spine(node)
            acc = self.value(leftmost)
            for step in spine:
                right = self.value(step.right)
                if isinstance(acc, tuple) or isinstance(right, tuple):
                    acc = _vector_op(step.op, acc, right, step.start)
                else:
                    acc = _scalar_op(step.op, acc, right, step.start)
            return acc
        if isinstance(node, Number):
            value = node.value
            # Only a hand-built Number can exceed it (compared in integers: exact, and fast).
            if value.numerator > _INT_FLOAT_LIMIT * value.denominator:
                raise ExprError(_TOO_LARGE, node.start)
            return float(value)
        if isinstance(node, Name):
            return self._name(node)
        if isinstance(node, Unary):
            operand = self.value(node.operand)
            if isinstance(operand, tuple):
                return tuple(self._unary(node.op, x) for x in operand)
            return self._unary(node.op, operand)
        if isinstance(node, Vector):
            return tuple(self._scalar(item, "a vector element") for item in node.items)
        if isinstance(node, Call):
            args = [self.value(arg) for arg in node.args]
            if node.func in _AGGREGATES:
                return self._aggregate(node.func, args, node.start)
            if isinstance(args[0], tuple):
                return tuple(self._apply(node.func, x, node.start) for x in args[0])
            return self._apply(node.func, args[0], node.start)
        terms = [self._scalar(n, "an ellipsis sum") for n in (node.first, node.second, node.last)]
        if not all(math.isfinite(x) for x in terms):
            raise ExprError("an ellipsis sum needs finite terms", node.start)
        first, second, last = terms
        count = _series_count(first, second, last, node.start, slack=1e-9)
        return _checked(count * (first + last) / 2, node.start)

    def _scalar(self, node: Node, what: str) -> float:
        result = self.value(node)
        if isinstance(result, tuple):
            raise ExprError(f"{what} must be a number, not a vector", node.start)
        return result

    def _name(self, node: Name) -> float:
        if node.name in _CONSTANTS:
            return _CONSTANTS[node.name]
        if node.name not in self._variables:
            raise ExprError(f"unknown name '{_clip(node.name)}'", node.start)
        try:
            result = float(self._variables[node.name])
        except (TypeError, ValueError, OverflowError):
            result = math.nan
        if not (math.isfinite(result) and abs(result) <= _FLOAT_LIMIT):
            raise ExprError(f"variable '{_clip(node.name)}' is not a finite number", node.start)
        return result

    @staticmethod
    def _unary(op: str, x: float) -> float:
        return -x if op == "-" else x / 100 if op == "%" else x

    @staticmethod
    def _apply(func: str, x: float, column: int) -> float:
        try:
            result = _SCALAR_FUNCTIONS[func](x, column)
        except ExprError:
            raise
        except (ValueError, OverflowError):  # e.g. sin(∞)
            raise ExprError(f"{func}({x:g}) is undefined", column) from None
        return _checked(result, column, x)

    @staticmethod
    def _aggregate(func: str, args: list[Value], column: int) -> Value:
        items: list[float] = []
        for arg in args:
            if isinstance(arg, tuple) and len(args) > 1:
                raise ExprError(f"{func} takes one vector or several numbers, not both", column)
            items.extend(arg if isinstance(arg, tuple) else (arg,))
        if func == "softmax":
            return _softmax(items, column)
        if func in ("max", "min"):
            return max(items) if func == "max" else min(items)
        try:
            total = math.fsum(items)
        except (ValueError, OverflowError):  # ∞ - ∞, or an intermediate overflow
            raise ExprError(f"{func} is undefined for these values", column) from None
        return _checked(total if func == "sum" else total / len(items), column, *items)


def evaluate(node: Node, variables: Mapping[str, float] | None = None) -> Value:
    """Evaluate a parsed tree to a float, or to a tuple of floats for a vector."""
    try:
        result = _Evaluator(variables or {}).value(node)
    except RecursionError:  # pragma: no cover - only for deep trees built by hand
        raise ExprError("expression is nested too deeply", node.start) from None
    if not all(math.isfinite(x) for x in (result if isinstance(result, tuple) else (result,))):
        raise ExprError("the result is not a finite number", node.start)
    return result


def evaluate_text(text: str, variables: Mapping[str, float] | None = None) -> Value:
    """Parse and evaluate ``text``."""
    return evaluate(parse(text), variables)


# ------------------------------------------------------------------------------ exact evaluation


def _exact_checked(value: Fraction, column: int) -> Fraction:
    if abs(value.numerator) > _EXACT_LIMIT or value.denominator > _EXACT_LIMIT:
        raise ExprError(_TOO_EXACT, column)
    return value


def _exact_power(base: Fraction, exponent: Fraction, column: int) -> Fraction | None:
    if exponent.denominator != 1:
        return None  # a root: irrational in general
    n = exponent.numerator
    if base == 0 and n < 0:
        raise ExprError("division by zero (zero to a negative power)", column)
    if base == 0 or abs(base) == 1:
        return base**n
    # With |base| not 0 or 1, its numerator or denominator has `bits` >= 2 bits, so the power
    # has at least |n|·(bits-1)·log10(2) digits: refuse before computing, in integers.
    bits = max(abs(base.numerator).bit_length(), base.denominator.bit_length())
    if abs(n) * (bits - 1) * 30103 > MAX_EXACT_DIGITS * 100000:
        raise ExprError(_TOO_EXACT, column)
    return _exact_checked(base**n, column)


class _ExactEvaluator:
    """Fraction evaluation that gives up (None) at anything but rational arithmetic."""

    def __init__(self, variables: Mapping[str, Fraction]) -> None:
        self._variables = variables

    def value(self, node: Node) -> Fraction | None:
        if isinstance(node, Binary):
            leftmost, spine = _left_spine(node)
            acc = self.value(leftmost)
            for step in spine:
                right = self.value(step.right)
                if acc is None or right is None:
                    return None
                acc = self._binary(step.op, acc, right, step.start)
            return acc
        if isinstance(node, Number):
            return node.value
        if isinstance(node, Name):
            return self._name(node)
        if isinstance(node, Unary):
            operand = self.value(node.operand)
            if operand is None or node.op == "+":
                return operand
            return -operand if node.op == "-" else operand / 100
        if isinstance(node, ArithmeticSeries):
            first, second, last = (self.value(n) for n in (node.first, node.second, node.last))
            if first is None or second is None or last is None:
                return None
            count = _series_count(first, second, last, node.start, slack=0.0)
            return _exact_checked(count * (first + last) / 2, node.start)
        return None  # vectors and function calls

    def _name(self, node: Name) -> Fraction | None:
        if node.name in _CONSTANTS:
            return None  # pi, e and ∞ are not rational
        if node.name not in self._variables:
            raise ExprError(f"unknown name '{_clip(node.name)}'", node.start)
        try:
            return _exact_checked(Fraction(self._variables[node.name]), node.start)
        except (TypeError, ValueError, OverflowError):
            message = f"variable '{_clip(node.name)}' is not a finite number"
            raise ExprError(message, node.start) from None

    @staticmethod
    def _binary(op: str, a: Fraction, b: Fraction, column: int) -> Fraction | None:
        if op == "^":
            return _exact_power(a, b, column)
        if op == "/" and b == 0:
            raise ExprError("division by zero", column)
        result = a + b if op == "+" else a - b if op == "-" else a * b if op == "*" else a / b
        return _exact_checked(result, column)


def evaluate_exact(node: Node, variables: Mapping[str, Fraction] | None = None) -> Fraction | None:
    """The exact value when the tree is rational arithmetic (+ - × / %, integer powers,
    ellipsis sums of rationals), else None."""
    try:
        return _ExactEvaluator(variables or {}).value(node)
    except RecursionError:  # pragma: no cover - only for deep trees built by hand
        raise ExprError("expression is nested too deeply", node.start) from None


# ------------------------------------------------------------------------------ for callers


def names(node: Node) -> frozenset[str]:
    """Free variable names in the tree (constants and function names excluded)."""
    found: set[str] = set()
    stack: list[Node] = [node]
    while stack:  # a loop, not recursion: long sums make deep left spines
        current = stack.pop()
        if isinstance(current, Name) and current.name not in _CONSTANTS:
            found.add(current.name)
        elif isinstance(current, Unary):
            stack.append(current.operand)
        elif isinstance(current, Binary):
            stack += (current.left, current.right)
        elif isinstance(current, Vector):
            stack += current.items
        elif isinstance(current, Call):
            stack += current.args
        elif isinstance(current, ArithmeticSeries):
            stack += (current.first, current.second, current.last)
    return frozenset(found)


# Longest first, so that "约为" wins over "约".  "＝" is the full-width "=".
_RELATIONS = ("约等于", "约为", "约", "==", "=", "＝", "≈", "≃", "≅", "~")


def split_chain(text: str) -> list[tuple[str, str, int]]:
    """Split "a = b ≈ c" into [("", "a", 0), ("=", "b", 4), ("≈", "c", 8)].

    Each side is stripped and its column is that of its first character.  Relation signs
    inside () or [] do not split, and "~" splits only between spaces.
    """
    if len(text) > MAX_LENGTH:
        message = f"text is too long ({len(text)} characters, limit {MAX_LENGTH})"
        raise ExprError(message, MAX_LENGTH)
    cuts: list[tuple[str, int, int]] = [("", 0, 0)]  # (relation, start, end) of each sign
    depth = 0
    i = 0
    while i < len(text):
        if text[i] in "([（［":
            depth += 1
        elif text[i] in ")]）］":
            depth = max(0, depth - 1)
        relation = "" if depth else next((r for r in _RELATIONS if text.startswith(r, i)), "")
        if relation == "~" and not (text[i - 1 : i].isspace() and text[i + 1 : i + 2].isspace()):
            relation = ""  # a bare ~ is more likely prose than "approximately"
        if relation == "==" or (relation == "=" and i > 0 and text[i - 1] in "<>!"):
            sign = "==" if relation == "==" else text[i - 1] + "="
            raise ExprError(f"'{sign}' is not a supported relation; use '=' or '≈'", i)
        if relation:
            cuts.append((relation, i, i + len(relation)))
        i += len(relation) or 1
    cuts.append(("", len(text), len(text)))
    sides: list[tuple[str, str, int]] = []
    for (relation, _, side_start), (next_relation, side_end, _) in pairwise(cuts):
        side = text[side_start:side_end]
        if not side.strip():
            where = f"before '{next_relation}'" if next_relation else f"after '{relation}'"
            raise ExprError(f"missing expression {where}", side_start)
        sides.append((relation, side.strip(), side_start + len(side) - len(side.lstrip())))
    return sides
