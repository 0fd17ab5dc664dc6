"""Kind ``arithmetic``: an expression, or an equation chain, equals the printed value.

YAML fields:

``expression``
    Lesson arithmetic as printed: ``0.58×0.71 + 0.74×0.52``, ``0.9⁵⁰``, ``(1+2+3+4+5)``,
    ``exp(0.55)``, ``0.54×[0.8, 0.3] + 0.46×[0.6, 0.2]``. It may be a whole chain
    ``a = b = c``: every later side must agree with the first, a bare number at its printed
    precision, an expression of rounded terms (``0.156 + 0.273 + 0.221``) within the rounding of
    its own printed terms.
``claimed``
    The result as printed (``0.78``) or a vector (``[0.71, 0.25]``).
``where``
    Optional named inputs as printed, e.g. ``{d_k: 2}``, for expressions that use names.
``prefixes``
    ``decimal`` (default), ``binary`` or ``either``: how the byte units KB, MB, GB, TB read,
    in ``claimed`` and as names in the expression (``2 × 32 × 4096 × 2 / KB``).

``carried``
    Optional literals of the expression (as written, without sign) that the lesson printed
    earlier as a rounded result (``cos(4) = -0.654``, then ``-0.654 * 4 = -2.615``): each may
    stand for the unrounded value it was printed from.
``upstream``
    Optional, for literals of the expression that an earlier statement of the lesson printed
    as its result: literal → that statement's expression (``{"0.35": "1/3"}``). When that
    statement is wrong (1/3 is not 0.35), this one is reported as carrying its error: it holds
    as printed "but carries the error of 1/3 ≈ 0.35", or it fails as printed and holds from the
    true upstream value, which is the earlier statement's mistake, not a second one.
``stored_as``
    Optional floating-point types the lesson computes in (``[fp32]``): a literal outside a
    type's normal range is also read as the type stores it (``log(1e-45)`` in float32).

The name ``kilo`` in an expression is a count's ``k`` (``256k`` tokens → ``256*kilo``): it reads
as 1000, or as 1024 when only that makes the statement right (see :mod:`checkers.readings`).

The value is recomputed from the inputs *as printed*: a lesson that rounds 0.2687 to 0.27 and
continues with 0.27 is consistent.

Example::

    - id: score-cat-cat
      kind: arithmetic
      quote: "Q_猫 · K_猫 = 0.58×0.71 + 0.74×0.52 = 0.80"
      expression: 0.58×0.71 + 0.74×0.52
      claimed: 0.80
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Literal

from pydantic import Field, field_validator

from checkers.expr import (
    Binary,
    Call,
    ExprError,
    Node,
    Number,
    Unary,
    evaluate,
    parse,
    split_chain,
)
from checkers.intervals import printed_interval
from checkers.kinds.base import (
    Context,
    KindInput,
    Outcome,
    PrintedNumber,
    PrintedVector,
    check_variable_names,
    error,
    from_comparisons,
)
from checkers.numbers import (
    BYTE_PREFIXES,
    NumberError,
    Printed,
    compare,
    format_like,
    number_tokens,
    parse_printed,
    printed_tolerance,
    read_binary,
)
from checkers.readings import KILO, Reading, unit_readings

__all__ = ["Input", "chain_step_corrections", "check"]


class Input(KindInput):
    """Fields of an ``arithmetic`` claim."""

    expression: str = Field(min_length=1, max_length=2000)
    """The arithmetic (or equation chain) as printed in the lesson."""
    claimed: PrintedNumber | PrintedVector
    """The printed result: one number, or a vector compared element by element."""
    where: dict[str, PrintedNumber] = Field(default_factory=dict)
    """Named inputs as printed (``d_k: 2``)."""
    prefixes: Literal["decimal", "binary", "either"] = "decimal"
    """How KB/MB/GB/TB read: SI powers of 1000 (default), powers of 1024, or ``either`` when
    the lesson's own usage allows both (the verdict then says which reading matched)."""
    carried: tuple[str, ...] = ()
    """Literals of the expression (as written, without sign) that the lesson printed before as
    the rounded result of another statement (``cos(4) = -0.654``, then ``-0.654 * 4``): each
    may stand for the unrounded value, anywhere its digits round from."""
    stored_as: tuple[Literal["fp32", "fp16", "bf16"], ...] = ()
    """Floating-point types the lesson computes in: a literal outside a type's normal range is
    also read as that type stores it (``log(1e-45)`` in float32)."""
    upstream: dict[str, str] = Field(default_factory=dict)
    """Literals of the expression (as written, without sign) that an earlier statement printed
    as its result, each with that statement's expression (``{"0.35": "1/3"}``): an error of
    the earlier statement is reported as carried here, not as a second mistake."""

    @field_validator("upstream")
    @classmethod
    def _upstream_parses(cls, value: dict[str, str]) -> dict[str, str]:
        for literal, expression in value.items():
            if len(expression) > 2000:
                raise ValueError(f"upstream expression of {literal} is too long")
            parse(expression)  # an ExprError (a ValueError) names the column
        return value

    @field_validator("where")
    @classmethod
    def _names_are_free(cls, value: dict[str, Printed]) -> dict[str, Printed]:
        return check_variable_names(value)

    @property
    def expression_text(self) -> str:
        """The expression, as copied from the quote."""
        return self.expression

    def step_corrections(self, variables: Mapping[str, float]) -> dict[int, str]:
        """Printed later sides of the chain that ``variables`` (with ``where:``) change."""
        known = {name: printed.value for name, printed in self.where.items()}
        return chain_step_corrections(self.expression, {**known, **variables})


_KILO_NAME = re.compile(rf"(?<![A-Za-z0-9_]){KILO}(?![A-Za-z0-9_])")


def _variables(fields: Input, context: Context, reading: Reading) -> dict[str, float]:
    values = reading.units()
    values.update({name: printed.value for name, printed in fields.where.items()})
    values.update(context.variables)
    return values


def check(fields: Input, context: Context) -> Outcome:
    """Recompute the expression from its printed inputs and compare with ``claimed``, under
    each reading of its units (:func:`checkers.readings.unit_readings`) until one holds."""
    uses_kilo = _KILO_NAME.search(fields.expression) is not None and (
        KILO not in fields.where and KILO not in context.variables
    )
    readings = unit_readings(
        fields.prefixes,
        uses_bytes=_has_byte_prefix(fields),
        uses_kilo=uses_kilo,
        stored_as=fields.stored_as,
    )
    plain = _check_reading(fields, context, readings[0])
    if fields.upstream:
        carried_error = _carried_error(fields, context, readings[0], plain)
        if carried_error is not None:
            return carried_error
    if plain.ok or (len(readings) == 1 and not fields.carried):
        return plain
    tree = parse(split_chain(fields.expression)[0][1])
    slip: tuple[Reading, Outcome] | None = None  # the first other reading under which it slips
    for reading in readings[1:]:
        try:
            outcome = _check_reading(fields, context, reading)
        except ExprError:
            # Under this reading the statement has no value (fp16 flushes 1e-45 to 0, and
            # log(0) is undefined): it is not a reading that makes the number right.
            continue
        if slip is None and outcome.verdict == "fail" and outcome.severity == "slip":
            slip = (reading, outcome)
        if outcome.ok:
            baseline = (
                "as printed"
                if reading.differs_only_in_storage(readings[0])
                else f"with {readings[0].describe()}"
            )
            return dataclasses.replace(
                outcome,
                message=f"{outcome.message}, reading {reading.describe(tree)} "
                f"({baseline} it is {plain.expected.split(' → ')[-1]})",
                tolerance=f"{outcome.tolerance}; {reading.describe()}",
            )
    carried = _carried_unrounded(fields, context, tree, readings[0])
    if carried is not None:
        return dataclasses.replace(
            plain, verdict="pass", message=carried, corrections=(), details=()
        )
    if len(readings) == 1:
        return plain
    if plain.severity == "error" and slip is not None:
        # Wrong under every reading, but only a slip under one of them: a slip.
        reading, outcome = slip
        return dataclasses.replace(
            outcome,
            message=f"{outcome.message}, reading {reading.describe(tree)} "
            f"(with {readings[0].describe()} it is {plain.expected.split(' → ')[-1]})",
            tolerance=f"{outcome.tolerance}; {reading.describe()}",
        )
    tried = "; ".join(r.describe(tree) for r in readings[1:])
    return dataclasses.replace(plain, message=f"{plain.message} (nor with {tried})")


def _with_values(node: Node, values: Mapping[str, Fraction]) -> Node:
    """The tree with each literal whose text is a key of ``values`` replaced by that value."""
    if isinstance(node, Number):
        key = node.text.lstrip("-−+")
        return dataclasses.replace(node, value=values[key]) if key in values else node
    if isinstance(node, Binary):
        return dataclasses.replace(
            node, left=_with_values(node.left, values), right=_with_values(node.right, values)
        )
    if isinstance(node, Unary):
        return dataclasses.replace(node, operand=_with_values(node.operand, values))
    if isinstance(node, Call):
        return dataclasses.replace(node, args=tuple(_with_values(a, values) for a in node.args))
    return node


def _carried_error(
    fields: Input, context: Context, reading: Reading, plain: Outcome
) -> Outcome | None:
    """The outcome when a literal carries the error of the statement that printed it, or None.

    ``1/3 ≈ 0.35`` is wrong; ``3 × 0.35 = 1.05`` is right from the printed 0.35 and carries
    that error (it passes, and says so); ``3 × 0.35 = 1.00`` is wrong as printed but right from
    the true 1/3: the mistake is the earlier statement's, reported there, not here again."""
    if isinstance(fields.claimed, tuple) or plain.verdict == "error":
        return None
    variables = _variables(fields, context, reading)
    wrong: dict[str, tuple[str, float]] = {}  # literal → (upstream expression, its true value)
    for literal, expression in fields.upstream.items():
        try:
            true_value = evaluate(parse(expression), variables)
            printed = parse_printed(literal)
        except (ExprError, NumberError, ArithmeticError, ValueError):
            continue
        if isinstance(true_value, float) and not compare(printed, true_value).ok:
            wrong[literal] = (" ".join(expression.split()), true_value)
    if not wrong:
        return None
    tree = parse(split_chain(fields.expression)[0][1])
    try:
        value = evaluate(
            _with_values(tree, {k: Fraction(v) for k, (_, v) in wrong.items()}), variables
        )
    except (ExprError, ArithmeticError, ValueError):
        return None
    if isinstance(value, tuple):
        return None
    from_true = compare(fields.claimed, value, context.tolerance)
    upstream = "; ".join(
        f"{expression} is {true:.6g}, printed {literal}"
        for literal, (expression, true) in wrong.items()
    )
    what = " ".join(split_chain(fields.expression)[0][1].split())
    if plain.ok:
        return dataclasses.replace(
            plain,
            message=f"{plain.message}, but carries the error of an earlier step ({upstream}): "
            f"from the true value it would be {from_true.describe()}",
        )
    if from_true.ok:
        return dataclasses.replace(
            plain,
            verdict="pass",
            severity="error",
            corrections=(),
            details=(),
            message=f"{what} = {fields.claimed.text} holds from the true value of an earlier step "
            f"({upstream}), not from its printed value: that step's error is carried here, not "
            f"a second mistake (as printed it is {plain.expected})",
        )
    return None


def _carried_unrounded(fields: Input, context: Context, tree: Node, reading: Reading) -> str | None:
    """Why the claim holds once its carried literals stand for their unrounded values, or
    None. ``-0.654 * 4 = -2.615``: −0.654 printed from cos(4) = −0.65364, whose product with
    4 is −2.6146; any value −0.654 rounds from gives [−2.618, −2.614]."""
    if not fields.carried or isinstance(fields.claimed, tuple):
        return None
    carried = frozenset(fields.carried)
    try:
        low, high = printed_interval(tree, _variables(fields, context, reading), only=carried)
    except (ExprError, ArithmeticError, ValueError):
        return None
    tolerance = context.tolerance or printed_tolerance(fields.claimed)
    limit = max(tolerance.absolute, tolerance.relative * abs(fields.claimed.value))
    if not (low - limit <= fields.claimed.value <= high + limit):
        return None
    literals = ", ".join(sorted(carried))
    what = " ".join(split_chain(fields.expression)[0][1].split())
    return (
        f"{what} = {fields.claimed.text} holds with {literals} carried unrounded: the lesson "
        f"printed {literals} as a rounded result earlier, and from any value its digits round "
        f"from, {what} lies in [{low:.6g}, {high:.6g}] ({tolerance.reason})"
    )


def _has_byte_prefix(fields: Input) -> bool:
    printed = fields.claimed if isinstance(fields.claimed, tuple) else (fields.claimed,)
    in_claimed = any(p.unit is not None and p.unit.symbol in BYTE_PREFIXES for p in printed)
    return in_claimed or any(symbol in fields.expression for symbol in BYTE_PREFIXES)


def _check_reading(fields: Input, context: Context, reading: Reading) -> Outcome:
    """The check with the units read one way."""
    variables = _variables(fields, context, reading)
    claimed: Printed | tuple[Printed, ...] = fields.claimed
    if reading.bytes == "binary":
        claimed = (
            tuple(read_binary(p) for p in claimed)
            if isinstance(claimed, tuple)
            else read_binary(claimed)
        )
    sides = split_chain(fields.expression)
    first_text = sides[0][1]
    value = evaluate(reading.literals(parse(first_text)), variables)
    details: list[str] = []
    last_step: tuple[str, float] | None = None
    for _relation, side, _column in sides[1:]:
        problem = _check_side(side, value, variables)
        if problem is not None:
            details.append(problem)
        elif not isinstance(value, tuple) and not _is_bare_number(side):
            step = evaluate(parse(side), variables)
            if not isinstance(step, tuple):
                last_step = (side, step)
    what = " ".join(first_text.split())
    if isinstance(value, tuple):
        if not isinstance(claimed, tuple):
            return error(f"{what} is a vector of {len(value)}, but a single number is claimed")
        if len(value) != len(claimed):
            return error(f"{what} has {len(value)} elements, but {len(claimed)} are claimed")
        comparisons = [
            compare(p, v, context.tolerance) for p, v in zip(claimed, value, strict=True)
        ]
        outcome = from_comparisons(comparisons, what=what, vector=True, details=details)
    else:
        if isinstance(claimed, tuple):
            return error(f"{what} is a single number, but a vector is claimed")
        comparisons = [compare(claimed, value, context.tolerance)]
        outcome = from_comparisons(comparisons, what=what, details=details)
        if not outcome.ok and last_step is not None and not details:
            # A chain that rounds its terms and carries on with them is consistent: the result
            # only has to be a rounding of the last printed step (0.920 + 0.081 = 1.001).
            step_text, step_value = last_step
            from_step = compare(claimed, step_value, context.tolerance)
            if from_step.ok:
                exact = outcome.expected
                return Outcome(
                    verdict="pass",
                    claimed=outcome.claimed,
                    expected=from_step.describe(),
                    tolerance=outcome.tolerance,
                    message=f"{' '.join(step_text.split())} = {claimed.text} holds from the "
                    f"printed step ({from_step.tolerance.reason}); from the exact {what} it is "
                    f"{exact}",
                    corrections=(),
                    details=tuple(details),
                    value=step_value,
                )
    if details and outcome.verdict == "pass":
        # The result is right, but an intermediate step printed in the chain is not.
        return Outcome(
            verdict="fail",
            claimed=outcome.claimed,
            expected=outcome.expected,
            tolerance=outcome.tolerance,
            message=f"{what}: the result holds but an intermediate step does not: {details[0]}",
            corrections=(),
            details=tuple(details),
            value=outcome.value,
        )
    return outcome


def _check_side(
    side: str, value: float | tuple[float, ...], variables: dict[str, float]
) -> str | None:
    """Why a later side of the chain disagrees with the first, or None when it agrees."""
    if isinstance(value, tuple):
        return None if _vector_side_agrees(side, value) else f"step {side.strip()!r} does not match"
    try:
        printed: Printed | None = parse_printed(side)
    except NumberError:
        printed = None
    if printed is not None:
        comparison = compare(printed, value)
        if comparison.ok:
            return None
        return f"step {side.strip()} should be {comparison.describe()}"
    low, high = printed_interval(parse(side), variables)
    slack = 1e-9 * max(1.0, abs(value))
    if low - slack <= value <= high + slack:
        return None
    return (
        f"step {side.strip()} = {(low + high) / 2:.6g} cannot be a rounding of {value:.6g} "
        f"(its printed terms allow [{low:.6g}, {high:.6g}])"
    )


def _is_bare_number(side: str) -> bool:
    try:
        parse_printed(side)
    except NumberError:
        return False
    return True


def _vector_side_agrees(side: str, value: tuple[float, ...]) -> bool:
    from checkers.numbers import parse_printed_vector

    try:
        printed = parse_printed_vector(side)
    except NumberError:
        return True  # an intermediate vector expression: checked through the final value
    return len(printed) == len(value) and all(
        compare(p, v).ok for p, v in zip(printed, value, strict=True)
    )


def _spine(node: Any) -> list[tuple[str, Any]]:
    """Top-level terms of a sum: [("+", a), ("-", b), ...] (the first term's sign is "+")."""
    if isinstance(node, Binary) and node.op in "+-":
        return [*_spine(node.left), (node.op, node.right)]
    return [("+", node)]


def chain_step_corrections(expression: str, variables: dict[str, float]) -> dict[int, str]:
    """Printed steps of ``a = b = c`` that are no longer roundings of the first side (what
    ``fix`` rewrites in a worked example once an input changed).

    A later side that is one printed number is the rounding of the whole first side; a later
    side that is a sum of printed numbers, term for term like the first side, is the rounding of
    each term (``0.31×0.52 + … = 0.161 + …``). Returns {expression number token: new text}.
    """
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
