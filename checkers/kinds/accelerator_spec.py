"""Kind ``accelerator_spec``: a published figure of a named accelerator (memory, bandwidth, peak).

Compares one number a lesson states about an accelerator — its memory, its memory bandwidth, its
NVLink bandwidth, a tensor-core peak for a number type (dense, or with 2:4 structured sparsity),
or its CUDA cores —
with the datasheet figure in ``checkers/data/accelerators.yaml`` (every entry names its source).
The printed number is judged at its printed precision (``~3 TB/s`` holds for 3.35 TB/s).

Readings. An FP32 peak is the CUDA cores' FP32 rate or the tensor cores' TF32 one (dense or with
sparsity), and an FP64 peak the CUDA cores' or the FP64 tensor cores' rate: lessons quote each, and
the message names the one that holds. A name that does not say which variant (``A100`` is a 40GB
and an 80GB module and a PCIe card) is read as each of them, and the number holds when it is one of
theirs. A peak whose text does not say dense or sparse is read both ways (datasheets print the two
side by side, and lessons quote either); where the text says which, only that one is compared, and
a dense peak printed at the sparse figure is named as such. Memory is the datasheet's GB (a printed
GiB is read as the same figure, as vendors print them); bandwidth in GB/s or TB/s (10¹² bytes/s);
peaks in TFLOPS, PFLOPS (10³ TFLOPS) or TOPS for integer types. NVLink bandwidth is printed by
NVIDIA as the total of both directions (900 GB/s is 450 GB/s each way); a text that does not say
which is read both ways, one that says "per direction" or "bidirectional" only that way.

YAML fields:

``name``
    The accelerator as printed: ``A100``, ``H100 SXM``, ``A100 80GB``, ``DGX Spark``.
``quantity``
    ``memory``, ``bandwidth``, ``nvlink``, ``peak`` or ``cuda_cores``.
``value``
    The number as printed, without its unit (``624``, ``3.35``, ``6,144``).
``unit``
    Its unit: ``GB``, ``GiB``, ``TB`` (memory); ``GB/s``, ``TB/s`` (bandwidth); ``TFLOPS``,
    ``PFLOPS``, ``TOPS``, ``POPS`` (peaks); none for CUDA cores.
``dtype``
    For a peak: the number type (``fp64``, ``fp32``, ``tf32``, ``bf16``, ``fp16``, ``fp8``,
    ``fp4``, ``int8``).
``sparsity``
    For a peak, when the text says which: ``dense`` or ``sparse`` (with 2:4 sparsity).
``direction``
    For NVLink, when the text says which: ``total`` (both directions) or ``each`` (one way).

Example::

    - id: a100-bf16-dense
      kind: accelerator_spec
      quote: "A100 的 bf16 稠密峰值是 312 TFLOPS"
      name: A100
      quantity: peak
      value: 312
      unit: TFLOPS
      dtype: bf16
      sparsity: dense
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import Field, model_validator

from checkers.data.accelerators import AcceleratorSpec, TensorType, find_accelerator
from checkers.kinds.base import Context, KindInput, Outcome, PrintedNumber, error
from checkers.numbers import Printed, compare

PeakType = TensorType | Literal["fp32"]
"""A peak's number type as a claim gives it: a tensor-core type, or FP32 (FP64 is both)."""

__all__ = ["Input", "check", "publishes"]

Quantity = Literal["memory", "bandwidth", "nvlink", "peak", "cuda_cores"]
"""What figure of the accelerator the claim states."""

_UNITS: dict[str, tuple[Quantity, float]] = {
    "GB": ("memory", 1.0),
    "GiB": ("memory", 1.0),
    "TB": ("memory", 1000.0),
    "GB/s": ("bandwidth", 1.0),
    "TB/s": ("bandwidth", 1000.0),
    "TFLOPS": ("peak", 1.0),
    "PFLOPS": ("peak", 1000.0),
    "TOPS": ("peak", 1.0),
    "POPS": ("peak", 1000.0),
}
"""Printed unit → (the quantity it measures, datasheet units per printed unit: GB, GB/s,
TFLOP/s)."""
_MEASURE: dict[str, str] = {"nvlink": "bandwidth"}
"""A quantity printed in another one's units: NVLink bandwidth is a bandwidth."""

_WORDS: dict[Quantity, str] = {
    "memory": "memory",
    "bandwidth": "memory bandwidth",
    "nvlink": "NVLink bandwidth",
    "peak": "tensor-core peak",
    "cuda_cores": "number of CUDA cores",
}


class Input(KindInput):
    """Fields of an ``accelerator_spec`` claim."""

    name: str = Field(min_length=2, max_length=80)
    """The accelerator as printed (``A100``, ``H100 SXM``, ``DGX Spark``)."""
    quantity: Quantity
    """Which figure the claim states."""
    value: PrintedNumber
    """The number as printed, without its unit."""
    unit: Literal["GB", "GiB", "TB", "GB/s", "TB/s", "TFLOPS", "PFLOPS", "TOPS", "POPS"] | None = (
        None
    )
    """The unit printed after it (None for CUDA cores)."""
    dtype: PeakType | None = None
    """For a peak: the number type it is for."""
    sparsity: Literal["dense", "sparse"] | None = None
    """For a peak: dense or with 2:4 sparsity, when the text says which."""
    direction: Literal["total", "each"] | None = None
    """For NVLink: both directions together or one way, when the text says which."""

    @model_validator(mode="after")
    def _unit_fits_the_quantity(self) -> Input:
        if self.quantity == "cuda_cores":
            if self.unit is not None:
                raise ValueError("CUDA cores are a count: give no unit")
        elif self.unit is None or _UNITS[self.unit][0] != _MEASURE.get(
            self.quantity, self.quantity
        ):
            measure = _MEASURE.get(self.quantity, self.quantity)
            units = ", ".join(u for u, (q, _) in _UNITS.items() if q == measure)
            raise ValueError(f"a {self.quantity} is printed in {units}")
        if self.quantity == "peak" and self.dtype is None:
            raise ValueError("a peak needs its number type (dtype: bf16, fp8, …)")
        if self.quantity != "peak" and (self.dtype is not None or self.sparsity is not None):
            raise ValueError("dtype and sparsity belong to a peak")
        if self.quantity != "nvlink" and self.direction is not None:
            raise ValueError("direction belongs to an NVLink bandwidth")
        return self

    @property
    def printed(self) -> Printed:
        """The stated number."""
        return self.value


@dataclass(frozen=True)
class _Reading:
    """One published figure the printed number may stand for."""

    spec: AcceleratorSpec
    """The entry it is from."""
    value: float
    """The figure in the printed unit."""
    what: str
    """What figure it is (``BF16 tensor-core peak (dense)``)."""
    sparse: bool | None = None
    """For a peak: the with-sparsity figure (None: not a peak)."""


def _readings(fields: Input, spec: AcceleratorSpec) -> list[_Reading]:
    scale = _UNITS[fields.unit][1] if fields.unit is not None else 1.0
    if fields.quantity == "peak":
        assert fields.dtype is not None
        found = []
        cuda = {"fp32": spec.fp32_tflops, "fp64": spec.fp64_tflops}.get(fields.dtype)
        if cuda is not None and fields.sparsity != "sparse":
            what = f"{fields.dtype.upper()} peak on the CUDA cores (non-tensor)"
            found.append(_Reading(spec, cuda / scale, what, False))
        tensor = _tensor_type(fields.dtype)
        for sparse in (False, True):
            if fields.sparsity is not None and sparse != (fields.sparsity == "sparse"):
                continue
            peak = spec.peak(tensor, sparse=sparse)
            if peak is not None:
                how = "with 2:4 sparsity" if sparse else "dense"
                what = f"{tensor.upper()} tensor-core peak ({how})"
                if tensor != fields.dtype:
                    what += ", the tensor cores' rate for FP32 work"
                found.append(_Reading(spec, peak / scale, what, sparse))
        return found
    if fields.quantity == "nvlink":
        if spec.nvlink_gb_s is None:
            return []
        found = []
        for direction, share in (("total", 1.0), ("each", 0.5)):
            if fields.direction in (None, direction):
                what = "NVLink bandwidth" + (" per direction" if direction == "each" else "")
                found.append(_Reading(spec, spec.nvlink_gb_s * share / scale, what))
        return found
    published = {
        "memory": spec.memory_gb,
        "bandwidth": spec.bandwidth_gb_s,
        "cuda_cores": spec.cuda_cores,
    }[fields.quantity]
    if published is None:
        return []
    return [_Reading(spec, published / scale, _WORDS[fields.quantity])]


def publishes(fields: Input) -> bool:
    """Whether the table publishes the figure ``fields`` states for some product its name may
    mean (what a recogniser drafts only where it holds)."""
    match = find_accelerator(fields.name)
    specs = (match.spec,) if match.spec is not None else match.candidates
    return any(_readings(fields, spec) for spec in specs)


def _figure(value: float, unit: str | None) -> str:
    text = f"{value:,.4g}" if value < 1e4 else f"{value:,.0f}"
    return f"{text} {unit}" if unit else text


def check(fields: Input, context: Context) -> Outcome:
    """The printed figure must be the datasheet's for some variant the name allows, under a
    sparsity the text allows."""
    del context
    match = find_accelerator(fields.name)
    specs = (match.spec,) if match.spec is not None else match.candidates
    if not specs:
        return error(f"no published figures to compare with: {match.reason}", fields.value.text)
    readings = [reading for spec in specs for reading in _readings(fields, spec)]
    if not readings:
        what = _WORDS[fields.quantity]
        if fields.dtype is not None:
            what = f"{fields.dtype.upper()} {what}"
        return error(f"no published {what} for {fields.name}", fields.value.text)
    comparisons = [(reading, compare(fields.value, reading.value)) for reading in readings]
    unit = fields.unit
    tolerance = comparisons[0][1].tolerance.reason
    details = (f"readings tried: {_readings_text(readings, unit)}",) if len(readings) > 1 else ()
    claimed = fields.value.text + (f" {unit}" if unit else "")
    # The reading nearest the printed number: the one the message names.
    reading, comparison = min(comparisons, key=lambda rc: abs(rc[0].value - fields.value.value))
    label, cite = _named(reading, readings)
    if comparison.ok:
        return Outcome(
            verdict="pass",
            claimed=claimed,
            expected=_figure(reading.value, unit),
            tolerance=tolerance,
            message=f"{claimed} is the {label} ({cite})",
            details=details,
            value=comparison.recomputed,
        )
    values = sorted({r.value for r in readings})
    if len(values) > 1 and all(r.what == reading.what for r in readings):
        each = "; ".join(
            f"{_figure(v, unit)} ({_named(next(r for r in readings if r.value == v), readings)[0]})"
            for v in values
        )
        message = f"the {reading.what} of {fields.name} is one of {each}, not {claimed} ({cite})"
    else:
        message = f"the {label} is {_figure(reading.value, unit)} ({cite}), not {claimed}"
    other = _other_sparsity(fields, specs)
    if other is not None:
        message += f"; {claimed} is the figure {other}"
    return Outcome(
        verdict="fail",
        claimed=claimed,
        expected=_figure(reading.value, unit),
        tolerance=tolerance,
        message=message,
        corrections=((comparison.printed.text, comparison.corrected),),
        details=details,
        value=comparison.recomputed,
        severity="slip" if comparison.slip else "error",
    )


def _named(reading: _Reading, readings: list[_Reading]) -> tuple[str, str]:
    """How the message names a figure: its label with every variant that publishes the same
    figure (``A100 40GB SXM and A100 80GB SXM``), and their sources."""
    same = [r for r in readings if r.value == reading.value and r.what == reading.what]
    names = list(dict.fromkeys(r.spec.name for r in same))
    cite = "; ".join(dict.fromkeys(r.spec.cite for r in same))
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{reading.what} of {joined}", cite


def _readings_text(readings: list[_Reading], unit: str | None) -> str:
    return ", ".join(f"{r.what} of {r.spec.name}: {_figure(r.value, unit)}" for r in readings)


def _other_sparsity(fields: Input, specs: tuple[AcceleratorSpec, ...]) -> str | None:
    """Where a peak stated as dense (or sparse) is the other one's figure, say so."""
    if fields.quantity != "peak" or fields.sparsity is None or fields.dtype is None:
        return None
    sparse = fields.sparsity == "dense"  # the one the text did not mean
    scale = _UNITS[fields.unit][1] if fields.unit is not None else 1.0
    for spec in specs:
        peak = spec.peak(_tensor_type(fields.dtype), sparse=sparse)
        if peak is not None and compare(fields.value, peak / scale).ok:
            return "with 2:4 sparsity" if sparse else "without sparsity (dense)"
    return None


def _tensor_type(dtype: PeakType) -> TensorType:
    """The tensor-core type a peak of ``dtype`` may be: FP32 work runs on the tensor cores as
    TF32 (NVIDIA's datasheets give TF32 as the tensor cores' FP32 rate), the others as
    themselves."""
    return "tf32" if dtype == "fp32" else dtype
