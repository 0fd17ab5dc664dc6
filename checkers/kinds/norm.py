"""Kind ``norm``: LayerNorm and RMSNorm statistics and normalised vectors of one printed input.

YAML fields:

``norm``
    ``layer`` (default) or ``rms``.
``x``
    The input vector as printed.
``epsilon``
    ε, 0 unless the lesson uses one.
``eps_placement``
    Where ε goes: ``inside_sqrt`` (default; PyTorch: (x − mean)/√(variance + ε)) or
    ``added_to_std`` (some textbooks: (x − mean)/(std + ε)). RMSNorm: x/√(mean(x²) + ε) or
    x/(rms + ε).
``mean``, ``variance``, ``std``
    LayerNorm statistics as printed. The variance is the *population* variance (divide by d,
    as LayerNorm does); ``std`` is √variance, without ε. A sample variance (÷ (d − 1)) fails
    with a message saying so.
``rms``
    RMSNorm: √(mean of x²), without ε.
``normalized``
    The normalised vector as printed.
``gamma``, ``beta``, ``output``
    Optional scale and shift (a vector, or one number for every element) and the printed
    output γ·y + β.
``from_printed``
    True (default): later steps may also be recomputed from earlier *printed* steps.

Which values a step is compared with: every step is recomputed from ``x`` exactly. A lesson
usually continues with what it printed — it prints std ≈ 2.24 and then divides by 2.24 — and
3/2.24 and 3/2.2361 can round differently. So, with ``from_printed``, a step also passes when it
matches the recomputation from the printed earlier steps (std from the printed variance, the
normalised vector from the printed mean and std or rms, the output from the printed normalised
vector), provided those printed steps hold themselves; the verdict says which basis matched.
Corrections always use the exact values.

Example::

    - id: layernorm-2468
      kind: norm
      quote: "std = √5.0 ≈ 2.24"
      x: [2.0, 4.0, 6.0, 8.0]
      mean: 5.0
      variance: 5.0
      std: 2.24
      normalized: [-1.34, -0.45, 0.45, 1.34]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import Field, model_validator

from checkers.formulas import UndefinedError, layer_norm, rms_norm
from checkers.kinds.base import (
    Context,
    KindInput,
    Outcome,
    PrintedNumber,
    PrintedVector,
    error,
    severity_of,
)
from checkers.numbers import Comparison, Printed, compare

__all__ = ["Input", "check"]


class Input(KindInput):
    """Fields of a ``norm`` claim."""

    norm: Literal["layer", "rms"] = "layer"
    """LayerNorm or RMSNorm."""
    x: PrintedVector
    """The input vector as printed."""
    epsilon: float = Field(default=0.0, ge=0.0, le=1.0)
    """ε added for numerical safety."""
    eps_placement: Literal["inside_sqrt", "added_to_std"] = "inside_sqrt"
    """√(variance + ε) (PyTorch) or std + ε (the lesson's y = (x − mean)/(std + ε))."""
    mean: PrintedNumber | None = None
    """LayerNorm: the printed mean of x."""
    variance: PrintedNumber | None = None
    """LayerNorm: the printed population variance (÷ d)."""
    std: PrintedNumber | None = None
    """LayerNorm: the printed √variance."""
    rms: PrintedNumber | None = None
    """RMSNorm: the printed √(mean of x²)."""
    normalized: PrintedVector | None = None
    """The printed normalised vector."""
    gamma: PrintedNumber | PrintedVector | None = None
    """Learned scale γ (one number or one per element)."""
    beta: PrintedNumber | PrintedVector | None = None
    """Learned shift β (one number or one per element)."""
    output: PrintedVector | None = None
    """The printed γ·y + β."""
    from_printed: bool = True
    """Also accept later steps recomputed from the printed earlier steps."""

    @model_validator(mode="after")
    def _consistent(self) -> Input:
        d = len(self.x)
        if self.norm == "layer" and self.rms is not None:
            raise ValueError("rms belongs to norm: rms (RMSNorm), not LayerNorm")
        if self.norm == "rms" and any(v is not None for v in (self.mean, self.variance, self.std)):
            raise ValueError("RMSNorm has no mean, variance or std: claim rms instead")
        claimed = (self.mean, self.variance, self.std, self.rms, self.normalized, self.output)
        if all(v is None for v in claimed):
            raise ValueError("claim at least one of mean, variance, std, rms, normalized, output")
        for name, vector in (("normalized", self.normalized), ("output", self.output)):
            if vector is not None and len(vector) != d:
                raise ValueError(f"{name} has {len(vector)} values, but x has {d}")
        for name, value in (("gamma", self.gamma), ("beta", self.beta)):
            if isinstance(value, tuple) and len(value) != d:
                raise ValueError(f"{name} has {len(value)} values, but x has {d}")
        if self.output is not None and self.gamma is None and self.beta is None:
            raise ValueError("output is γ·y + β: give gamma and/or beta")
        if d < 1:
            raise ValueError("x needs at least one value")
        return self


@dataclass(frozen=True)
class _Step:
    """One checked quantity: its comparisons against the basis that decided the verdict."""

    name: str
    comparisons: tuple[Comparison, ...]
    vector: bool
    basis: str
    hint: str = ""

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.comparisons)

    def claimed(self) -> str:
        return _join([c.printed.text for c in self.comparisons], self.vector)

    def corrected(self) -> str:
        return _join([c.corrected for c in self.comparisons], self.vector)

    def full(self) -> str:
        return _join([_short(c.recomputed) for c in self.comparisons], self.vector)

    def message(self) -> str:
        if self.ok:
            via = f" (recomputed from {self.basis})" if "printed" in self.basis else ""
            return f"{self.name} = {self.claimed()}{via}"
        text = f"{self.name} is {self.full()} → {self.corrected()}, not {self.claimed()}"
        if self.vector:
            wrong = ", ".join(
                f"element {k + 1}: {c.printed.text} should be {c.corrected}"
                for k, c in enumerate(self.comparisons)
                if not c.ok
            )
            text += f" ({wrong})"
        return text + (f" — {self.hint}" if self.hint else "")

    def recomputed(self) -> float | tuple[float, ...]:
        values = tuple(c.recomputed for c in self.comparisons)
        return values if self.vector else values[0]


Candidate = tuple[str, Sequence[float]]
"""A basis a step may be recomputed from: (description, values)."""


def _step(
    name: str,
    printed: Printed | Sequence[Printed],
    candidates: Sequence[Candidate],
    context: Context,
    hints: Sequence[Candidate] = (),
) -> _Step:
    """Compare against each basis in turn; the first that holds decides, else the exact one."""
    vector = not isinstance(printed, Printed)
    items: tuple[Printed, ...] = (printed,) if isinstance(printed, Printed) else tuple(printed)
    tried = []
    for basis, values in candidates:
        comparisons = tuple(
            compare(p, v, context.tolerance) for p, v in zip(items, values, strict=True)
        )
        if all(c.ok for c in comparisons):
            return _Step(name, comparisons, vector, basis)
        tried.append((basis, comparisons))
    basis, comparisons = tried[0]
    hint = ""
    for description, values in hints:
        if all(compare(p, v, context.tolerance).ok for p, v in zip(items, values, strict=True)):
            hint = description
            break
    return _Step(name, comparisons, vector, basis, hint)


def check(fields: Input, context: Context) -> Outcome:
    """Recompute the statistics and normalised vector from x and compare each printed step."""
    try:
        if fields.norm == "rms":
            steps, details = _rms_steps(fields, context)
            label = "RMSNorm"
        else:
            steps, details = _layer_steps(fields, context)
            label = "LayerNorm"
        steps += _output_steps(fields, context, steps)
    except UndefinedError as undefined:
        return error(str(undefined))
    x_text = _join([p.text for p in fields.x], True)
    eps = _epsilon_text(fields)
    what = f"{label} of x = {x_text}{eps}"
    claimed = "; ".join(f"{s.name} = {s.claimed()}" for s in steps)
    expected = "; ".join(f"{s.name} = {s.full()} → {s.corrected()}" for s in steps)
    tolerance = "; ".join(sorted({c.tolerance.reason for s in steps for c in s.comparisons}))
    value = steps[-1].recomputed()
    bases = tuple(f"{s.name}: compared with {s.basis}" for s in steps)
    failed = [s for s in steps if not s.ok]
    if not failed:
        holds = ", ".join(s.message() for s in steps)
        message = f"{what}: {holds} hold{'s' if len(steps) == 1 else ''} ({tolerance})"
    else:
        message = f"{what}: " + "; ".join(s.message() for s in failed)
    return Outcome(
        verdict="fail" if failed else "pass",
        claimed=claimed,
        expected=expected,
        tolerance=tolerance,
        message=message,
        corrections=tuple(
            (c.printed.text, c.corrected) for s in steps for c in s.comparisons if not c.ok
        ),
        details=(*bases, *details),
        value=value,
        severity=severity_of([c for s in steps for c in s.comparisons]),
    )


def _layer_steps(fields: Input, context: Context) -> tuple[list[_Step], list[str]]:
    values = [p.value for p in fields.x]
    d = len(values)
    inside = fields.eps_placement == "inside_sqrt"
    # mean, variance and std do not depend on ε; only the normalised vector does. A constant
    # vector with ε = 0 has a std of 0 but undefined normalised values, so the statistics are
    # read with ε = 1 and the normalisation itself is computed (and may fail) separately.
    mean, variance, std, _ = layer_norm(values, 1.0)
    sample_variance = variance * d / (d - 1) if d > 1 else math.nan
    steps: list[_Step] = []
    details = [f"mean = {_short(mean)}, variance (÷ {d}) = {_short(variance)}, std = {_short(std)}"]
    printed_mean: float | None = None
    printed_std: float | None = None
    printed_variance: Printed | None = None
    if fields.mean is not None:
        step = _step("mean", fields.mean, [("the mean of x", [mean])], context)
        steps.append(step)
        printed_mean = fields.mean.value if step.ok else None
    if fields.variance is not None:
        sample_hint = (
            f"this is the sample variance (÷ d − 1 = {d - 1}); LayerNorm divides by d = {d}"
        )
        step = _step(
            "variance",
            fields.variance,
            [(f"the population variance (÷ d = {d})", [variance])],
            context,
            [(sample_hint, [sample_variance])] if d > 1 else [],
        )
        steps.append(step)
        printed_variance = fields.variance if step.ok else None
    if fields.std is not None:
        candidates: list[Candidate] = [("√variance", [std])]
        if fields.from_printed and printed_variance is not None:
            candidates.append(
                (
                    f"√ of the printed variance {printed_variance.text}",
                    [math.sqrt(printed_variance.value)],
                )
            )
        if inside and fields.epsilon > 0:
            candidates.append(("√(variance + ε)", [math.sqrt(variance + fields.epsilon)]))
        sample_hint = (
            f"this is the sample std (√ of variance ÷ {d - 1}); LayerNorm divides by d = {d}"
        )
        step = _step(
            "std",
            fields.std,
            candidates,
            context,
            [(sample_hint, [math.sqrt(sample_variance)])] if d > 1 else [],
        )
        steps.append(step)
        printed_std = fields.std.value if step.ok else None
    if fields.normalized is not None:
        candidates = [("the exact mean and std", _exact_normalized(fields))]
        if fields.from_printed and (printed_mean is not None or printed_std is not None):
            basis_mean = printed_mean if printed_mean is not None else mean
            basis_std = printed_std if printed_std is not None else std
            denominator = _denominator(basis_std, fields.epsilon, inside)
            if denominator > 0:
                used = ", ".join(
                    f"{name} {printed.text}"
                    for name, printed, value in (
                        ("mean", fields.mean, printed_mean),
                        ("std", fields.std, printed_std),
                    )
                    if printed is not None and value is not None
                )
                from_printed = [(v - basis_mean) / denominator for v in values]
                candidates.append((f"the printed {used}", from_printed))
                details.append(
                    f"normalised with the printed {used} (as the lesson divides by what it "
                    f"printed): {_join([_short(v) for v in from_printed], True)}"
                )
        sample_hints: list[Candidate] = []
        if d > 1:
            sample_std = math.sqrt(sample_variance)
            sample_denominator = _denominator(sample_std, fields.epsilon, inside)
            if sample_denominator > 0:
                sample_hints.append(
                    (
                        f"these divide by the sample std {_short(sample_std)} (÷ {d - 1}); "
                        f"LayerNorm divides by the population std {_short(std)} (÷ {d})",
                        [(v - mean) / sample_denominator for v in values],
                    )
                )
        steps.append(_step("normalised", fields.normalized, candidates, context, sample_hints))
    return steps, details


def _rms_steps(fields: Input, context: Context) -> tuple[list[_Step], list[str]]:
    values = [p.value for p in fields.x]
    inside = fields.eps_placement == "inside_sqrt"
    try:
        rms, _ = rms_norm(values, 0.0)
    except UndefinedError:
        rms = 0.0  # an all-zero x: its rms is 0; only the normalised vector is undefined
    steps: list[_Step] = []
    details = [f"mean of x² = {_short(rms**2)}, rms = {_short(rms)}"]
    printed_rms = None
    if fields.rms is not None:
        candidates: list[Candidate] = [("√(mean of x²)", [rms])]
        if inside and fields.epsilon > 0:
            candidates.append(("√(mean of x² + ε)", [math.sqrt(rms**2 + fields.epsilon)]))
        step = _step("rms", fields.rms, candidates, context)
        steps.append(step)
        printed_rms = fields.rms.value if step.ok else None
    if fields.normalized is not None:
        candidates = [("the exact rms", _exact_normalized(fields))]
        if fields.from_printed and printed_rms is not None and fields.rms is not None:
            denominator = _denominator(printed_rms, fields.epsilon, inside)
            if denominator > 0:
                from_printed = [v / denominator for v in values]
                candidates.append((f"the printed rms {fields.rms.text}", from_printed))
                details.append(
                    f"normalised with the printed rms {fields.rms.text}: "
                    f"{_join([_short(v) for v in from_printed], True)}"
                )
        steps.append(_step("normalised", fields.normalized, candidates, context))
    return steps, details


def _output_steps(fields: Input, context: Context, steps: Sequence[_Step]) -> list[_Step]:
    if fields.output is None:
        return []
    d = len(fields.x)
    gamma = _broadcast(fields.gamma, 1.0, d)
    beta = _broadcast(fields.beta, 0.0, d)
    exact_y = _exact_normalized(fields)
    scaled = [g * y + b for g, y, b in zip(gamma, exact_y, beta, strict=True)]
    candidates: list[Candidate] = [("γ·y + β with the exact y", scaled)]
    normalised = next((s for s in steps if s.name == "normalised"), None)
    if fields.from_printed and normalised is not None and normalised.ok:
        assert fields.normalized is not None
        printed_y = [p.value for p in fields.normalized]
        candidates.append(
            (
                "γ·y + β with the printed normalised y",
                [g * y + b for g, y, b in zip(gamma, printed_y, beta, strict=True)],
            )
        )
    return [_step("output γ·y + β", fields.output, candidates, context)]


def _exact_normalized(fields: Input) -> list[float]:
    """y recomputed from x alone, with ε where the claim puts it (raises when undefined)."""
    values = [p.value for p in fields.x]
    inside = fields.eps_placement == "inside_sqrt"
    if fields.norm == "layer":
        return [float(v) for v in layer_norm(values, fields.epsilon, eps_inside_sqrt=inside)[3]]
    if inside:
        return [float(v) for v in rms_norm(values, fields.epsilon)[1]]
    try:
        rms = rms_norm(values, 0.0)[0]
    except UndefinedError:
        rms = 0.0
    if rms + fields.epsilon == 0:
        raise UndefinedError("RMSNorm of a zero vector with ε = 0 divides by zero")
    return [v / (rms + fields.epsilon) for v in values]


def _broadcast(value: Printed | tuple[Printed, ...] | None, default: float, d: int) -> list[float]:
    if value is None:
        return [default] * d
    if isinstance(value, Printed):
        return [value.value] * d
    return [p.value for p in value]


def _denominator(spread: float, epsilon: float, inside: bool) -> float:
    """What the centred values are divided by, given a std (or rms) and where ε goes."""
    return math.sqrt(spread**2 + epsilon) if inside else spread + epsilon


def _epsilon_text(fields: Input) -> str:
    if fields.epsilon == 0:
        return ""
    where = "inside the √" if fields.eps_placement == "inside_sqrt" else "added to the std"
    return f" with ε = {fields.epsilon:g} {where}"


def _join(parts: Sequence[str], vector: bool) -> str:
    return "[" + ", ".join(parts) + "]" if vector else ", ".join(parts)


def _short(value: float) -> str:
    """4 significant digits, no trailing zeros: enough to see why a rounding differs."""
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else str(value)
    text = f"{value:.4g}"
    return text if "e" not in text else f"{value:.3e}"
