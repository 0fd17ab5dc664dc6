"""What range of values an expression of *printed, rounded* numbers can stand for.

A worked example often rewrites a sum with rounded terms: ``0.30×0.52 + 0.35×0.78 + 0.35×0.63
= 0.156 + 0.273 + 0.221``. The second side is not exactly the first (0.2205 was printed as
0.221), yet it is a faithful step. Reading each decimal literal as the interval its digits allow
(``0.221`` → [0.2205, 0.2215]) and evaluating with interval arithmetic tells a faithful step from
a wrong one. Integer literals (``2``, ``/ 4``) are exact.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from checkers import formulas
from checkers.expr import Binary, Call, Name, Node, Number, Unary, evaluate

__all__ = ["literal_half_width", "printed_interval"]

Interval = tuple[float, float]

_MONOTONE_UP: dict[str, Callable[[float], float]] = {
    "exp": math.exp,
    "log": math.log,
    "ln": math.log,
    "log2": math.log2,
    "log10": math.log10,
    "sqrt": math.sqrt,
    "tanh": math.tanh,
    "sigmoid": formulas.sigmoid,
    "relu": formulas.relu,
}


def literal_half_width(number: Number) -> float:
    """Half of the last printed digit's place of a literal; 0 for integers (exact)."""
    text = number.text.lower().replace(",", "")
    mantissa, _, exponent = text.partition("e")
    if "." not in mantissa:
        return 0.0
    decimals = len(mantissa.split(".", 1)[1])
    scale = 10.0 ** int(exponent) if exponent.lstrip("+-").isdigit() else 1.0
    return 0.5 * 10.0 ** (-decimals) * scale


def printed_interval(
    node: Node,
    variables: Mapping[str, float] | None = None,
    *,
    only: frozenset[str] | None = None,
) -> Interval:
    """The smallest and largest value ``node`` takes when each decimal literal varies within its
    printed rounding (with ``only``, just the literals written so; the others are exact).
    Falls back to the point value for constructs without interval rules."""
    values = dict(variables or {})
    return _interval(node, values, only)


def _point(node: Node, variables: Mapping[str, float]) -> Interval:
    value = evaluate(node, variables)
    if isinstance(value, tuple):
        raise ValueError("interval arithmetic applies to numbers, not vectors")
    return value, value


def _interval(
    node: Node, variables: Mapping[str, float], only: frozenset[str] | None = None
) -> Interval:
    if isinstance(node, Number):
        half = literal_half_width(node) if only is None or node.text in only else 0.0
        value = float(node.value)
        return value - half, value + half
    if isinstance(node, Name):
        return _point(node, variables)
    if isinstance(node, Unary):
        low, high = _interval(node.operand, variables, only)
        if node.op == "-":
            return -high, -low
        if node.op == "%":
            return low / 100, high / 100
        return low, high
    if isinstance(node, Binary):
        a = _interval(node.left, variables, only)
        b = _interval(node.right, variables, only)
        return _binary(node.op, a, b)
    if isinstance(node, Call) and len(node.args) == 1 and node.func in _MONOTONE_UP:
        low, high = _interval(node.args[0], variables, only)
        function = _MONOTONE_UP[node.func]
        try:
            return function(low), function(high)
        except (ValueError, OverflowError):
            return _point(node, variables)
    return _point(node, variables)


def _binary(op: str, a: Interval, b: Interval) -> Interval:
    if op == "+":
        return a[0] + b[0], a[1] + b[1]
    if op == "-":
        return a[0] - b[1], a[1] - b[0]
    if op == "*":
        products = [x * y for x in a for y in b]
        return min(products), max(products)
    if op == "/":
        if b[0] <= 0 <= b[1]:
            return -math.inf, math.inf
        quotients = [x / y for x in a for y in b]
        return min(quotients), max(quotients)
    if op == "^":
        try:
            powers = [x**y for x in a for y in b if x > 0 or float(y).is_integer()]
        except (OverflowError, ZeroDivisionError):
            return -math.inf, math.inf
        real = [p for p in powers if isinstance(p, float) and math.isfinite(p)]
        if not real:
            return -math.inf, math.inf
        return min(real), max(real)
    raise ValueError(f"no interval rule for {op!r}")
