"""Kind ``counting``: discrete counts that LLM lessons work out by hand.

Every claim names a ``scenario``; each scenario reads its own fields and refuses the others.
Counts are recomputed in exact integer or rational arithmetic (:class:`fractions.Fraction`) and
only the final comparison with the printed value is rounding-aware (:mod:`checkers.numbers`).

``scenario: kv_cache`` — K/V projections while generating ``steps`` tokens one at a time.
    Without a cache, step *i* re-projects every token it sees; with a cache, only the new ones.

    ``steps``
        Decoding steps *n* (tokens generated), a whole number ≥ 1.
    ``prompt``
        Tokens fed at the first step (default 1, e.g. just ``[BOS]``). Step *i* sees
        ``prompt + i − 1`` tokens, so without a cache the count is ``n·prompt + n(n−1)/2``
        (``1 + 2 + … + n = n(n+1)/2`` for a one-token prompt) and with a cache it is
        ``prompt + n − 1`` (``n``).
    ``without_cache``, ``with_cache``
        Printed projection counts (``15``, ``5``).
    ``saving``
        Printed fraction of projections the cache saves, ``1 − with/without``: ``67%`` or
        ``0.67`` (for a one-token prompt, ``1 − 2/(n+1)``).
    ``speedup``
        Printed ratio ``without/with`` (``3×``; for a one-token prompt ``(n+1)/2``).

    At least one of the four printed counts is required.

``scenario: mlm`` — positions a masked language model (BERT) is trained on per sequence.
    ``tokens`` (*N*), ``mask_rate`` (``15%`` or ``0.15``) and ``claimed`` (``6``): N × rate.

``scenario: causal_lm`` — positions a causal language model (GPT) predicts per sequence.
    ``tokens`` (*N*) and ``claimed`` (``39``): every position but the first, N − 1.

``scenario: gradient_decay`` — a gradient multiplied by ``factor`` at each of ``steps`` steps.
    ``factor`` (``0.9``), ``steps`` (``50``), ``claimed`` (``0.005`` or ``0.5%``) and optional
    ``measure``: ``remaining`` (default, factorⁿ) or ``lost`` (1 − factorⁿ).

``scenario: head_split`` — splitting ``d_model`` evenly across ``heads`` attention heads.
    ``d_model`` (``512``), ``heads`` (``8``), and ``claimed`` (dimensions per head, ``64``)
    and/or ``concat`` (dimensions after concatenating the heads back, ``512``).

Example::

    kind: counting
    scenario: kv_cache
    steps: 5
    without_cache: "15"
    with_cache: "5"
    saving: "67%"

The claim's ``value`` (for chaining) is the recomputed value of the printed field, or a tuple of
them in the order listed above when several are printed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import Field, model_validator

from checkers.kinds.base import (
    Context,
    KindInput,
    Outcome,
    PrintedNumber,
    error,
    from_comparisons,
)
from checkers.numbers import Comparison, Printed, compare

__all__ = ["Input", "check"]

Scenario = Literal["kv_cache", "mlm", "causal_lm", "gradient_decay", "head_split"]

MAX_COUNT = 10**12
"""Upper bound on steps, tokens and dimensions: far above any lesson, and keeps sums small."""
MAX_EXACT_POWER_STEPS = 10_000
"""Up to this many steps factorⁿ is an exact fraction; beyond, a 50-digit decimal power."""

WholeNumber = Annotated[int, Field(ge=1, le=MAX_COUNT)]

# Per scenario: fields it requires, fields it may also read, and the printed values of which at
# least one must be given.
_REQUIRED: dict[str, frozenset[str]] = {
    "kv_cache": frozenset({"steps"}),
    "mlm": frozenset({"tokens", "mask_rate", "claimed"}),
    "causal_lm": frozenset({"tokens", "claimed"}),
    "gradient_decay": frozenset({"factor", "steps", "claimed"}),
    "head_split": frozenset({"d_model", "heads"}),
}
_OPTIONAL: dict[str, frozenset[str]] = {
    "kv_cache": frozenset({"prompt", "without_cache", "with_cache", "saving", "speedup"}),
    "mlm": frozenset(),
    "causal_lm": frozenset(),
    "gradient_decay": frozenset({"measure"}),
    "head_split": frozenset({"claimed", "concat"}),
}
_ONE_OF: dict[str, tuple[str, ...]] = {
    "kv_cache": ("without_cache", "with_cache", "saving", "speedup"),
    "head_split": ("claimed", "concat"),
}


class Input(KindInput):
    """Fields of a ``counting`` claim; which ones apply depends on ``scenario``."""

    scenario: Scenario
    """What is counted: kv_cache, mlm, causal_lm, gradient_decay or head_split."""
    steps: WholeNumber | None = None
    """kv_cache: decoding steps; gradient_decay: steps the gradient travels back."""
    prompt: WholeNumber | None = None
    """kv_cache: tokens fed at the first step (default 1)."""
    without_cache: PrintedNumber | None = None
    """kv_cache: printed count of K/V projections without a cache."""
    with_cache: PrintedNumber | None = None
    """kv_cache: printed count of K/V projections with a cache."""
    saving: PrintedNumber | None = None
    """kv_cache: printed fraction saved by the cache (67% or 0.67)."""
    speedup: PrintedNumber | None = None
    """kv_cache: printed ratio of projections without to with the cache (3×)."""
    tokens: WholeNumber | None = None
    """mlm, causal_lm: tokens in the sequence."""
    mask_rate: PrintedNumber | None = None
    """mlm: fraction of tokens masked (15% or 0.15)."""
    factor: PrintedNumber | None = None
    """gradient_decay: the factor the gradient is multiplied by at each step."""
    measure: Literal["remaining", "lost"] = "remaining"
    """gradient_decay: whether ``claimed`` is what remains (factorⁿ) or what is lost."""
    d_model: WholeNumber | None = None
    """head_split: model width to split across the heads."""
    heads: WholeNumber | None = None
    """head_split: number of attention heads."""
    concat: PrintedNumber | None = None
    """head_split: printed width after concatenating the heads back."""
    claimed: PrintedNumber | None = None
    """The printed result: positions (mlm, causal_lm), factorⁿ, or dimensions per head."""

    @model_validator(mode="after")
    def _fields_fit_scenario(self) -> Input:
        given = self.model_fields_set - {"scenario"}
        required = _REQUIRED[self.scenario]
        missing = sorted(required - given)
        if missing:
            raise ValueError(f"scenario {self.scenario} needs {', '.join(missing)}")
        unused = sorted(given - required - _OPTIONAL[self.scenario])
        if unused:
            raise ValueError(f"scenario {self.scenario} does not read {', '.join(unused)}")
        one_of = _ONE_OF.get(self.scenario, ())
        if one_of and not given & set(one_of):
            raise ValueError(f"scenario {self.scenario} needs at least one of {', '.join(one_of)}")
        for name in ("saving", "mask_rate"):
            printed = getattr(self, name)
            if printed is not None and not 0 <= printed.value <= 1:
                raise ValueError(
                    f"{name} is a fraction between 0 and 1, printed as a percent (67%) or a "
                    f"decimal (0.67); got {printed.text}"
                )
        return self


def check(fields: Input, context: Context) -> Outcome:
    """Recompute the scenario's count exactly and compare it with the printed values."""
    if fields.scenario == "kv_cache":
        return _kv_cache(fields, context)
    if fields.scenario == "mlm":
        return _masked_lm(fields, context)
    if fields.scenario == "causal_lm":
        return _causal_lm(fields, context)
    if fields.scenario == "gradient_decay":
        return _gradient_decay(fields, context)
    return _head_split(fields, context)


# ------------------------------------------------------------------------------ scenarios


def _kv_cache(fields: Input, context: Context) -> Outcome:
    assert fields.steps is not None  # the validator requires it
    steps = fields.steps
    prompt = fields.prompt or 1
    # Step i (1-based) sees prompt + i − 1 tokens; without a cache all of them are projected.
    without = steps * prompt + steps * (steps - 1) // 2
    # With a cache the prompt is projected once, then one new token per later step.
    with_cache = prompt + steps - 1
    saving = 1 - Fraction(with_cache, without)
    speedup = Fraction(without, with_cache)
    if prompt == 1:
        sum_text = f"1+2+…+{steps}" if steps > 2 else "+".join(map(str, range(1, steps + 1)))
        without_text = f"{sum_text} = {steps}·{steps + 1}/2 = {without}"
    else:
        without_text = (
            f"{prompt}+{prompt + 1}+…+{prompt + steps - 1} = "
            f"{steps}·{prompt} + {steps}·{steps - 1}/2 = {without}"
        )
    seen = "i tokens" if prompt == 1 else f"{prompt} + i − 1 tokens"
    details = [
        f"without a cache, step i re-projects all {seen} it sees: {without_text}",
        f"with a cache, the {prompt}-token prompt is projected once and each later step adds "
        f"one new token: {with_cache}",
        f"saving 1 − {with_cache}/{without} = {_fraction_text(saving)} = {float(saving):.2%}; "
        f"ratio {without}/{with_cache} = {_fraction_text(speedup)}",
        "this counts K/V projections only: attention scores still compare the new token with "
        "every earlier one at each step",
    ]
    over = f"over {steps} step{'s' if steps != 1 else ''}"
    named: list[tuple[str, Printed | None, Fraction]] = [
        (f"K/V projections without a cache {over}", fields.without_cache, Fraction(without)),
        (f"K/V projections with a cache {over}", fields.with_cache, Fraction(with_cache)),
        (f"the KV cache's saving {over}", fields.saving, saving),
        (f"projections without/with the cache {over}", fields.speedup, speedup),
    ]
    if fields.without_cache is not None and prompt == 1:
        details += _kv_hints(fields.without_cache, steps)
    return _outcome(named, context, details)


def _kv_hints(printed: Printed, steps: int) -> list[str]:
    """Common miscounts of the cacheless total, named when the printed count matches one."""
    hints = {
        steps * steps: f"{steps}² = {steps * steps} projects every token at every step, but "
        f"step i has only i tokens",
        steps * (steps - 1) // 2: f"{steps * (steps - 1) // 2} = 0+1+…+{steps - 1} leaves out "
        f"the newest token at each step",
    }
    return [text for count, text in hints.items() if printed.value == count and count > 0]


def _masked_lm(fields: Input, context: Context) -> Outcome:
    assert fields.tokens is not None and fields.mask_rate is not None and fields.claimed is not None
    rate = _exact(fields.mask_rate)
    positions = fields.tokens * rate
    # google-research/bert create_pretraining_data.py: max(1, int(round(len(tokens) * prob))),
    # capped by max_predictions_per_seq; Python 3's round() breaks ties to even.
    reference = max(1, round(positions))
    details = [
        f"{fields.tokens} tokens × {fields.mask_rate.text} masked = {_fraction_text(positions)} "
        "positions (BERT predicts only the masked tokens; Devlin et al. 2018 mask 15%)",
        f"BERT's create_pretraining_data.py masks max(1, round({fields.tokens} × "
        f"{fields.mask_rate.text})) = {reference} positions per sequence, before its "
        "max_predictions_per_seq cap",
    ]
    if positions.denominator != 1:
        details.append(
            f"{_fraction_text(positions)} is not a whole number of positions: it is the "
            "expected count, a printed whole number is judged as its rounding"
        )
    what = f"masked positions, {fields.tokens} × {fields.mask_rate.text}"
    return _outcome([(what, fields.claimed, positions)], context, details)


def _causal_lm(fields: Input, context: Context) -> Outcome:
    assert fields.tokens is not None and fields.claimed is not None
    positions = fields.tokens - 1
    details = [
        f"each of positions 2…{fields.tokens} is predicted from the tokens before it; position 1 "
        f"has no context, so {fields.tokens} − 1 = {positions} positions are supervised",
    ]
    what = f"predicted positions, {fields.tokens} − 1"
    return _outcome([(what, fields.claimed, Fraction(positions))], context, details)


def _gradient_decay(fields: Input, context: Context) -> Outcome:
    assert fields.factor is not None and fields.steps is not None and fields.claimed is not None
    factor_text = fields.factor.text
    steps = fields.steps
    if steps <= MAX_EXACT_POWER_STEPS:
        remaining = float(_exact(fields.factor) ** steps)
        exact_note = "exact rational power"
    else:
        # A huge exact power is pointless for a comparison at a few printed digits.
        with localcontext() as decimal_context:
            decimal_context.prec = 50
            remaining = float(Decimal(_exact_text(fields.factor)) ** steps)
        exact_note = "50-digit decimal power"
    lost = fields.measure == "lost"
    value = 1 - remaining if lost else remaining
    power = f"{factor_text}^{steps}"
    details = [f"{power} = {remaining:.10g} ({exact_note})"]
    if lost:
        details.append(f"lost: 1 − {power} = {value:.10g}")
    comparison = compare(fields.claimed, value, context.tolerance)
    if not comparison.ok:
        details += _off_by_one(fields, steps, lost, context)
    what = f"1 − {power}" if lost else power
    outcome = _outcome([(what, fields.claimed, None)], context, details, [comparison])
    return outcome


def _off_by_one(fields: Input, steps: int, lost: bool, context: Context) -> list[str]:
    """Name a neighbouring step count that the printed value would fit."""
    assert fields.factor is not None and fields.claimed is not None
    hints = []
    for other in (steps - 1, steps + 1):
        if other < 0 or other > MAX_EXACT_POWER_STEPS:
            continue
        remaining = float(_exact(fields.factor) ** other)
        value = 1 - remaining if lost else remaining
        if compare(fields.claimed, value, context.tolerance).ok:
            hints.append(
                f"{fields.claimed.text} fits {fields.factor.text}^{other}: is the step count "
                f"off by one?"
            )
    return hints


def _head_split(fields: Input, context: Context) -> Outcome:
    assert fields.d_model is not None and fields.heads is not None
    d_model, heads = fields.d_model, fields.heads
    if d_model % heads:
        return error(
            f"d_model = {d_model} does not split evenly into {heads} heads "
            f"({d_model}/{heads} = {d_model / heads:.4g}); multi-head attention needs d_model "
            "divisible by the number of heads (PyTorch's nn.MultiheadAttention refuses otherwise)",
            fields.claimed.text if fields.claimed else "",
        )
    head_dim = d_model // heads
    details = [
        f"{d_model}/{heads} = {head_dim} dimensions per head",
        f"concatenating {heads} heads of {head_dim} gives {heads}×{head_dim} = {heads * head_dim}",
    ]
    named: list[tuple[str, Printed | None, Fraction]] = [
        (f"dimensions per head, {d_model}/{heads}", fields.claimed, Fraction(head_dim)),
        (f"concatenated width, {heads}×{head_dim}", fields.concat, Fraction(heads * head_dim)),
    ]
    return _outcome(named, context, details)


# ------------------------------------------------------------------------------ helpers


def _outcome(
    named: Sequence[tuple[str, Printed | None, Fraction | None]],
    context: Context,
    details: Sequence[str],
    comparisons: Sequence[Comparison] | None = None,
) -> Outcome:
    """One Outcome for the printed fields that are present, naming each one in the message.

    ``comparisons`` may be given ready-made (in the order of ``named``); otherwise each printed
    value is compared with its exact recomputation.
    """
    present = [(what, printed, exact) for what, printed, exact in named if printed is not None]
    if comparisons is None:
        comparisons = [
            compare(printed, float(exact), context.tolerance)
            for _, printed, exact in present
            if printed is not None and exact is not None
        ]
    names = [what for what, _, _ in present]
    outcome = from_comparisons(comparisons, what=names[0], details=details)
    if len(comparisons) == 1:
        return outcome
    if outcome.ok:
        pairs = zip(names, comparisons, strict=True)
        held = "; ".join(f"{what} = {c.printed.text}" for what, c in pairs)
        message = f"{held} hold ({outcome.tolerance})"
    else:
        message = "; ".join(
            f"{what} is {c.describe()}, not {c.printed.text}"
            for what, c in zip(names, comparisons, strict=True)
            if not c.ok
        )
    value = tuple(c.recomputed for c in comparisons)
    return replace(outcome, message=message, value=value)


def _exact_text(printed: Printed) -> str:
    # 15 significant digits undo the binary rounding of value = mantissa × scale (0.15 for
    # "15%") while keeping every digit a lesson prints.
    return f"{printed.value:.15g}"


def _exact(printed: Printed) -> Fraction:
    """The printed number as an exact fraction: ``15%`` → 3/20, ``0.9`` → 9/10."""
    return Fraction(_exact_text(printed))


def _fraction_text(value: Fraction) -> str:
    """``15`` for a whole number, ``2/3 ≈ 0.6667`` for a fraction."""
    if value.denominator == 1:
        return str(value.numerator)
    decimal = float(value)
    shown = f"{decimal:.4g}" if math.isfinite(decimal) else "∞"
    return f"{value.numerator}/{value.denominator} ≈ {shown}"
