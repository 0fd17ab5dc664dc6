"""Kind ``model_config``: a row of a model-size table, checked three ways.

(a) internal consistency: the heads divide the width, ``head_dim`` = hidden / heads, the KV heads
divide the heads; (b) the parameter count the architecture gives against the stated size, within
±10% (the estimate counts weight matrices and embeddings, not biases or norms, and published
sizes are rounded names); (c) every printed column against the published configuration in
``checkers/data/models.yaml``, each entry with its source. The message says which column
disagrees and what the source says.

The estimate by ``style`` (d = hidden, L = layers, d_ff = FFN width, n_kv = KV heads,
d_head = d / heads):

* ``gpt``: L·(4·d² + 2·d·d_ff) + vocab·d + context·d (tied embeddings, learned positions);
  with d_ff = 4·d this is the familiar 12·L·d² + vocab·d + context·d;
* ``bert``: as gpt, plus 2·d segment embeddings and a d² pooler;
* ``llama``: L·(2·d² + 2·d·n_kv·d_head + 3·d·d_ff) + 2·vocab·d (SwiGLU, GQA, RoPE, untied output);
* ``encoder_decoder``: L·(4·d² + 2·d·d_ff) encoder + L·(8·d² + 2·d·d_ff) decoder + vocab·d.

Columns the row does not print (vocab, d_ff, KV heads, style) are taken from the matched
published entry for the estimate, and the verdict says so.

YAML fields:

``name``
    The model as printed: ``GPT-2 (1.5B)``, ``GPT-2 XL``, ``LLaMA-2 7B``, ``Llama 2 70B``,
    ``GPT-3 (175B)``, ``BERT-base``. A count in the name (``1.5B``, ``70 亿``) is the stated size.
``reference``
    Optional key of the published entry to compare with (``gpt2-xl``), when the name is not
    enough to pick one.
``style``
    Optional ``gpt``, ``bert``, ``llama`` or ``encoder_decoder``; default: the published entry's,
    else ``gpt``.
``layers``, ``heads``, ``kv_heads``, ``hidden``, ``head_dim``, ``d_ff``, ``context``, ``vocab``
    The columns as printed (whole numbers; ``4k`` reads as 4000 ± 500); give those the row has.
``params``
    The stated parameter count when it is printed outside the name (``1.5B``).

Example::

    name: GPT-2 (1.5B)
    layers: 24
    heads: 16
    hidden: 1600
    context: 1024

A claim's ``tolerance:`` override applies to the parameter estimate; the architecture columns
are whole numbers and are compared at their printed precision.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import Field, field_validator, model_validator

from checkers.data import ModelSpec, ModelStyle, find_model, model_table, size_in_name
from checkers.kinds.base import (
    Context,
    KindInput,
    Outcome,
    PrintedNumber,
    PrintedWholeNumber,
    error,
)
from checkers.numbers import Comparison, Printed, Tolerance, compare

__all__ = ["ESTIMATE_TOLERANCE", "Architecture", "Estimate", "Input", "check", "estimate"]

ESTIMATE_RELATIVE = 0.10
ESTIMATE_TOLERANCE = Tolerance(
    absolute=0.0,
    relative=ESTIMATE_RELATIVE,
    reason=(
        "±10%: the estimate counts weight matrices and embeddings, not biases or norms "
        "(under 1%), and published sizes are rounded names (LLaMA-2 '70B' has 69.0B weights)"
    ),
)
"""How close the architecture's parameter count must be to the stated size, and why."""

# Columns in the order size tables print them; corrections follow this order.
_ROW_COLUMNS = ("layers", "heads", "kv_heads", "hidden", "head_dim", "d_ff", "context", "vocab")
_COLUMN_WORDS = {
    "layers": "layers",
    "heads": "heads",
    "kv_heads": "KV heads",
    "hidden": "d",
    "head_dim": "head_dim",
    "d_ff": "d_ff",
    "context": "context",
    "vocab": "vocab",
}


class Input(KindInput):
    """Fields of a ``model_config`` claim."""

    name: str = Field(min_length=1, max_length=200)
    """The model as printed; a count in it (``1.5B``) is the stated size."""
    reference: str | None = None
    """Key of the published entry to compare with, overriding the name lookup."""
    style: ModelStyle | None = None
    """How parameters are counted; default the published entry's style, else gpt."""
    layers: PrintedWholeNumber | None = None
    """Number of layers as printed."""
    heads: PrintedWholeNumber | None = None
    """Attention (query) heads as printed."""
    kv_heads: PrintedWholeNumber | None = None
    """Key/value heads as printed (grouped-query attention)."""
    hidden: PrintedWholeNumber | None = None
    """Hidden size d_model as printed."""
    head_dim: PrintedWholeNumber | None = None
    """Width of one head as printed; must be hidden / heads."""
    d_ff: PrintedWholeNumber | None = None
    """Feed-forward inner width as printed."""
    context: PrintedWholeNumber | None = None
    """Context length in tokens as printed."""
    vocab: PrintedWholeNumber | None = None
    """Vocabulary size as printed."""
    params: PrintedNumber | None = None
    """The stated parameter count, when it is not in the name."""

    @field_validator("params")
    @classmethod
    def _params_is_count(cls, value: Printed | None) -> Printed | None:
        if value is not None and (
            value.value <= 0 or (value.unit is not None and value.unit.family != "count")
        ):
            raise ValueError(f"params must be a count such as 1.5B or 70 亿, got {value.text!r}")
        return value

    @field_validator("reference")
    @classmethod
    def _known_reference(cls, value: str | None) -> str | None:
        if value is not None and model_table().by_key(value) is None:
            keys = ", ".join(m.key for m in model_table().models)
            raise ValueError(f"unknown reference {value!r}; known keys: {keys}")
        return value

    @model_validator(mode="after")
    def _something_to_check(self) -> Input:
        if all(getattr(self, column) is None for column in _ROW_COLUMNS):
            raise ValueError("give at least one column: layers, heads, hidden, context, …")
        if self.params is not None and size_in_name(self.name) is not None:
            raise ValueError(
                f"the name {self.name!r} already states a size; drop params or the size in the name"
            )
        return self


@dataclass(frozen=True)
class Architecture:
    """What the parameter estimate needs; None where neither the row nor the source gives it."""

    style: ModelStyle
    layers: int
    hidden: int
    heads: int | None = None
    kv_heads: int | None = None
    d_ff: int | None = None
    context: int | None = None
    vocab: int | None = None


@dataclass(frozen=True)
class Estimate:
    """A parameter count from the architecture, with how it was reached."""

    total: float
    """Weight matrices plus embeddings."""
    formula: str
    """The terms, in words an author can check by hand."""
    assumptions: tuple[str, ...]
    """Defaults used for columns nobody gave (d_ff, embeddings)."""


def estimate(arch: Architecture) -> Estimate:
    """Count the weight matrices and embeddings of an architecture (no biases, no norms)."""
    d, layers = arch.hidden, arch.layers
    assumptions: list[str] = []
    d_ff = arch.d_ff
    if d_ff is None:
        if arch.style == "llama":
            # LLaMA's SwiGLU width: 2/3 of 4d, rounded up to a multiple of 256.
            d_ff = 256 * math.ceil(8 * d / 3 / 256)
            assumptions.append(f"d_ff = 8d/3 rounded up to 256 = {d_ff} (no d_ff given)")
        else:
            d_ff = 4 * d
            assumptions.append(f"d_ff = 4d = {d_ff} (no d_ff given)")
    heads = arch.heads
    kv_width = d if heads is None or arch.kv_heads is None else arch.kv_heads * (d // heads)
    # Q and output projections are d×d; K and V are d×(n_kv·d_head), d×d without GQA.
    attention = 2 * d * d + 2 * d * kv_width
    attention_text = "4·d²" if kv_width == d else "2·d² + 2·d·n_kv·d_head"
    ffn_matrices = 3 if arch.style == "llama" else 2
    ffn = ffn_matrices * d * d_ff
    ffn_text = f"{ffn_matrices}·d·d_ff"
    if arch.style == "encoder_decoder":
        # Decoder layers add cross-attention, another set of attention projections.
        per_layer_pair = (attention + ffn) + (2 * attention + ffn)
        body = layers * per_layer_pair
        body_text = (
            f"{layers} encoder × ({attention_text} + {ffn_text}) + {layers} decoder × "
            f"(2 × {attention_text} self- and cross-attention + {ffn_text}) = {count_text(body)}"
        )
    else:
        body = layers * (attention + ffn)
        if arch.style != "llama" and kv_width == d and d_ff == 4 * d:
            body_text = f"12·L·d² = 12 × {layers} × {d}² = {count_text(body)}"
        else:
            body_text = (
                f"{layers} layers × ({attention_text} + {ffn_text}) = {layers} × "
                f"({count_text(attention)} + {count_text(ffn)}) = {count_text(body)}"
            )
    terms = [body_text]
    total = float(body)
    if arch.vocab is None:
        assumptions.append("embeddings not counted (no vocabulary size given or published)")
    else:
        copies = 2 if arch.style == "llama" else 1
        embeddings = copies * arch.vocab * d
        label = "2·vocab·d (input and output)" if copies == 2 else "vocab·d"
        terms.append(f"{label} = {count_text(embeddings)}")
        total += embeddings
    if arch.style in ("gpt", "bert") and arch.context is not None:
        positions = arch.context * d
        terms.append(f"positions context·d = {count_text(positions)}")
        total += positions
    if arch.style == "bert":
        extra = 2 * d + d * d
        terms.append(f"segments 2·d + pooler d² = {count_text(extra)}")
        total += extra
    return Estimate(total, "; ".join(terms), tuple(assumptions))


def count_text(value: float) -> str:
    """A parameter count in 3–4 significant digits with K/M/B: 737.3M, 1.557B, 53.4K."""
    magnitude = abs(value)
    for factor, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")):
        if magnitude >= factor:
            scaled = value / factor
            decimals = 1 if abs(scaled) >= 100 else (2 if abs(scaled) >= 10 else 3)
            return f"{scaled:.{decimals}f}{suffix}"
    return f"{value:g}"


def _column_text(column: str, value: str) -> str:
    """``24 layers`` or ``d 1600``: how a table column reads in a sentence."""
    word = _COLUMN_WORDS[column]
    words_first = ("d", "d_ff", "head_dim", "context", "vocab")
    return f"{word} {value}" if word in words_first else f"{value} {word}"


def _printed_int(value: Printed | None) -> int | None:
    return None if value is None else round(value.value)


def _row_text(fields: Input) -> str:
    parts = []
    for column in _ROW_COLUMNS:
        printed = getattr(fields, column)
        if printed is not None:
            parts.append(_column_text(column, printed.text))
    if fields.params is not None:
        parts.append(f"{fields.params.text} parameters")
    return f"{fields.name}: " + ", ".join(parts)


@dataclass(frozen=True)
class _ReferenceResult:
    spec: ModelSpec | None
    note: str
    mismatches: tuple[tuple[str, Printed, int], ...] = ()
    explained_by: ModelSpec | None = None


def _resolve(fields: Input) -> tuple[ModelSpec | None, str, tuple[ModelSpec, ...]]:
    if fields.reference is not None:
        spec = model_table().by_key(fields.reference)
        return spec, f"reference {fields.reference!r}", ()
    match = find_model(fields.name)
    if match.spec is not None or not match.candidates:
        return match.spec, match.reason, ()
    # An ambiguous name ("GPT-2"): the printed columns may pick one entry out.
    fitting = [spec for spec in match.candidates if not _mismatches(fields, spec)]
    if len(fitting) == 1:
        return fitting[0], f"{fields.name!r} with these columns is {fitting[0].name}", ()
    return None, match.reason, match.candidates


def _mismatches(fields: Input, spec: ModelSpec) -> list[tuple[str, Printed, int]]:
    wrong: list[tuple[str, Printed, int]] = []
    for column in _ROW_COLUMNS:
        printed: Printed | None = getattr(fields, column)
        published = spec.head_dim if column == "head_dim" else spec.column(column)
        if printed is None or published is None:
            continue
        if not compare(printed, float(published)).ok:
            wrong.append((column, printed, published))
    return wrong


def _reference(fields: Input, spec: ModelSpec | None, reason: str) -> _ReferenceResult:
    if spec is None:
        return _ReferenceResult(None, f"no published configuration to compare with: {reason}")
    wrong = tuple(_mismatches(fields, spec))
    if not wrong:
        return _ReferenceResult(spec, reason)
    # A row mixing two sizes: say whose numbers the wrong columns are.
    explained_by = None
    for other in model_table().members(model_table().family(spec.family)):
        if other.key != spec.key and all(
            (other.head_dim if column == "head_dim" else other.column(column)) == round(p.value)
            for column, p, _ in wrong
        ):
            explained_by = other
            break
    return _ReferenceResult(spec, reason, wrong, explained_by)


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _published_columns(spec: ModelSpec, columns: Sequence[str]) -> str:
    parts = []
    for column in columns:
        value = spec.head_dim if column == "head_dim" else spec.column(column)
        parts.append(_column_text(column, str(value)))
    return ", ".join(parts)


def _consistency(fields: Input) -> list[str]:
    problems: list[str] = []
    hidden, heads = _printed_int(fields.hidden), _printed_int(fields.heads)
    kv_heads, head_dim = _printed_int(fields.kv_heads), _printed_int(fields.head_dim)
    if hidden is not None and heads is not None:
        if hidden % heads:
            problems.append(
                f"{heads} heads do not divide d {hidden} ({hidden}/{heads} = {hidden / heads:.4g})"
            )
        elif head_dim is not None and head_dim != hidden // heads:
            problems.append(
                f"head_dim {head_dim} is not d/heads = {hidden}/{heads} = {hidden // heads}"
            )
    elif head_dim is not None and hidden is not None and heads is None and hidden % head_dim:
        problems.append(f"head_dim {head_dim} does not divide d {hidden}")
    if heads is not None and kv_heads is not None and heads % kv_heads:
        problems.append(f"{kv_heads} KV heads do not divide {heads} query heads")
    return problems


def _architecture(fields: Input, spec: ModelSpec | None) -> tuple[Architecture | None, list[str]]:
    """The row's own columns, with what it does not print taken from the published entry."""
    layers, hidden = _printed_int(fields.layers), _printed_int(fields.hidden)
    if layers is None or hidden is None:
        return None, []
    borrowed: list[str] = []

    def pick(column: str) -> int | None:
        own = _printed_int(getattr(fields, column))
        if own is not None or spec is None:
            return own
        if column == "kv_heads":
            # The source's KV heads belong with its own query heads, and only under GQA.
            same_heads = fields.heads is None or _printed_int(fields.heads) == spec.heads
            published = spec.kv_heads if same_heads else None
        else:
            published = spec.column(column)
        if published is not None:
            borrowed.append(f"{_COLUMN_WORDS[column]} {published}")
        return published

    style: ModelStyle = fields.style or (spec.style if spec is not None else "gpt")
    arch = Architecture(
        style=style,
        layers=layers,
        hidden=hidden,
        heads=_printed_int(fields.heads),
        kv_heads=pick("kv_heads"),
        d_ff=pick("d_ff"),
        context=pick("context"),
        vocab=pick("vocab"),
    )
    notes = []
    if borrowed and spec is not None:
        notes.append(f"not in the row, taken from {spec.name}: {', '.join(borrowed)}")
    if fields.style is None and spec is None:
        notes.append("counted GPT-style (no style given and no published entry matched)")
    return arch, notes


def check(fields: Input, context: Context) -> Outcome:
    """Check the row's consistency, its size against its architecture, and the published config."""
    spec, reason, candidates = _resolve(fields)
    row = _row_text(fields)
    if candidates:
        keys = ", ".join(c.key for c in candidates)
        return error(f"{reason}; add the size to the name or set reference: to one of {keys}", row)
    reference = _reference(fields, spec, reason)
    details = [f"published entry: {reference.note}"]
    problems, corrections, corrected_row = _reference_problems(fields, reference)
    problems.extend(_consistency(fields))
    corrections.extend(_head_dim_correction(fields, corrected_row))

    stated = fields.params or size_in_name(fields.name)
    arch, notes = _architecture(fields, reference.spec)
    details.extend(notes)
    size: Comparison | None = None
    value: float | None = None
    if arch is not None:
        counted = estimate(arch)
        value = counted.total
        details.append(f"parameter estimate: {counted.formula}; total ≈ {count_text(value)}")
        details.extend(counted.assumptions)
        if stated is None:
            details.append("no size printed: the estimate is not compared")
        else:
            size = compare(stated, value, context.tolerance or ESTIMATE_TOLERANCE)
    elif stated is not None:
        details.append("layers or d missing: the size is not checked against the architecture")
    if size is not None and stated is not None and arch is not None and not size.ok:
        approx = _in_units_of(size.recomputed, stated)
        problems.append(
            f"{arch.layers} layers × d {arch.hidden} gives ≈ {approx} parameters, not {stated.text}"
        )
        if (
            reference.spec is not None
            and not reference.mismatches
            and not compare(stated, reference.spec.params_value).ok
        ):
            # The columns are the published ones, so the size is what is wrong.
            fix = (stated.text, reference.spec.params)
            corrections = [fix, *corrections] if fields.params is None else [*corrections, fix]
    if (
        not problems
        and reference.spec is None
        and size is None
        and not _consistency_checked(fields)
    ):
        return error(
            f"nothing to check for {fields.name!r}: {reference.note}, and the row lacks "
            "layers and d for a parameter estimate",
            row,
        )
    tolerance = "columns: as printed (whole numbers)"
    if size is not None:
        tolerance += f"; size: {size.tolerance.reason}"
    expected = "; ".join(
        part
        for part in (
            ", ".join(
                _column_text(column, str(number))
                for column, number in corrected_row.items()
                if number is not None and getattr(fields, column) is not None
            ),
            f"≈ {count_text(value)} parameters" if value is not None else "",
        )
        if part
    )
    said = problems or _what_held(fields, reference, size, stated)
    return Outcome(
        verdict="fail" if problems else "pass",
        claimed=row,
        expected=expected,
        tolerance=tolerance,
        message=f"{fields.name}: " + "; ".join(said),
        corrections=tuple(corrections) if problems else (),
        details=tuple(details),
        value=value,
    )


def _reference_problems(
    fields: Input, reference: _ReferenceResult
) -> tuple[list[str], list[tuple[str, str]], dict[str, int | None]]:
    """The published-config disagreement (as one sentence), its corrections and the fixed row."""
    corrected_row = {column: _printed_int(getattr(fields, column)) for column in _ROW_COLUMNS}
    spec = reference.spec
    if spec is None or not reference.mismatches:
        return [], [], corrected_row
    columns = [column for column, _, _ in reference.mismatches]
    said = _and([f"{_COLUMN_WORDS[c]} {p.text}" for c, p, _ in reference.mismatches])
    verb = "does" if len(columns) == 1 else "do"
    text = (
        f"{said} {verb} not match the published {spec.name} "
        f"({_published_columns(spec, columns)}; {spec.cite})"
    )
    corrections = []
    for column, printed, published in reference.mismatches:
        if column == "heads" and round(printed.value) == spec.kv_heads:
            text += f"; {printed.text} is its number of key/value heads (GQA)"
        corrected_row[column] = published
        corrections.append((printed.text, str(published)))
    if reference.explained_by is not None:
        text += f"; {said} {'is' if len(columns) == 1 else 'are'} {reference.explained_by.name}'s"
    return [text], corrections, corrected_row


def _head_dim_correction(
    fields: Input, corrected_row: dict[str, int | None]
) -> list[tuple[str, str]]:
    """head_dim fixed to the (corrected) hidden / heads, unless the reference already fixed it."""
    hidden, heads = corrected_row["hidden"], corrected_row["heads"]
    if fields.head_dim is None or hidden is None or heads is None:
        return []
    if corrected_row["head_dim"] != round(fields.head_dim.value):
        return []  # already corrected from the published entry
    right = hidden // heads
    return [] if right == round(fields.head_dim.value) else [(fields.head_dim.text, str(right))]


def _what_held(
    fields: Input, reference: _ReferenceResult, size: Comparison | None, stated: Printed | None
) -> list[str]:
    held: list[str] = []
    if reference.spec is not None:
        held.append(f"matches the published {reference.spec.name} ({reference.spec.cite})")
    hidden, heads = _printed_int(fields.hidden), _printed_int(fields.heads)
    if hidden is not None and heads is not None:
        held.append(f"{heads} heads divide d {hidden} (head size {hidden // heads})")
    if size is not None and stated is not None:
        held.append(
            f"the architecture gives ≈ {count_text(size.recomputed)} parameters, consistent "
            f"with {stated.text} ({size.tolerance.reason.split(':')[0]})"
        )
    return held or ["holds"]


def _consistency_checked(fields: Input) -> bool:
    return (fields.hidden is not None and fields.heads is not None) or (
        fields.heads is not None and fields.kv_heads is not None
    )


def _in_units_of(value: float, stated: Printed) -> str:
    """``value`` in the unit of the stated size, to 2 significant digits (``0.82B``)."""
    if stated.unit is None:
        return count_text(value)
    scaled = value / stated.scale
    magnitude = math.floor(math.log10(abs(scaled))) if scaled else 0
    decimals = max(0, 1 - magnitude)
    spacer = " " if stated.spaced_unit else ""
    return f"{scaled:.{decimals}f}{spacer}{stated.unit.symbol}"
