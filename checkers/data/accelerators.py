"""The accelerator table of ``checkers/data/accelerators.yaml``: published peaks and memory of
the GPUs courses quote, each entry with its datasheet source.

:func:`accelerator_table` gives the validated table; :func:`find_accelerator` picks an entry by a
name as a lesson prints it (``"H100 SXM"``, ``"A100 80GB"``; ``"H100"`` alone does not say which
form factor). The fields are documented in the data file's header.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field, model_validator

from checkers.data.entries import (
    Frozen,
    Keyed,
    fold,
    load_yaml,
    validated_entries,
    validated_file,
)

__all__ = [
    "AcceleratorMatch",
    "AcceleratorSpec",
    "AcceleratorTable",
    "TensorPeak",
    "accelerator_table",
    "build_accelerator_table",
    "find_accelerator",
]

TensorType = Literal["fp64", "tf32", "bf16", "fp16", "fp8", "fp4", "int8"]
"""Number types of the tensor-core peaks in ``accelerators.yaml``."""

FormFactor = Literal["sxm", "pcie", "nvl", "system"]
"""How the accelerator is mounted: SXM module, PCIe card, NVL (PCIe pair with NVLink), or a
whole computer sold as one product (DGX Spark)."""


class TensorPeak(Frozen):
    """Peak tensor-core throughput for one number type, in TFLOP/s (TOPS for int8)."""

    dense: float | None = Field(default=None, gt=0)
    """Peak on dense matrices, as the datasheet prints it (None: only the sparse one is printed)."""
    sparse: float | None = Field(default=None, gt=0)
    """Peak with 2:4 structured sparsity, as printed (the datasheets' figures marked *)."""

    @model_validator(mode="after")
    def _sparse_is_twice_dense(self) -> TensorPeak:
        if self.dense is None and self.sparse is None:
            raise ValueError("give dense, sparse or both")
        # 2:4 sparsity doubles the rate; each printed figure is rounded to 1 TFLOP/s or less,
        # and a maker may print the two at slightly different clocks (the L40S datasheet:
        # BF16 362.05 dense beside 733 sparse), so 1.5% of the sparse figure is allowed too.
        if (
            self.dense is not None
            and self.sparse is not None
            and abs(self.sparse - 2 * self.dense) > max(1.0, 0.015 * self.sparse)
        ):
            raise ValueError(
                f"sparse {self.sparse:g} is not twice dense {self.dense:g} (2:4 sparsity)"
            )
        return self

    @property
    def dense_value(self) -> float:
        """The dense peak: as printed, else half the with-sparsity one (the datasheet footnote)."""
        if self.dense is not None:
            return self.dense
        assert self.sparse is not None
        return self.sparse / 2

    @property
    def sparse_value(self) -> float | None:
        """The with-sparsity peak as printed; None where the source prints none (FP64 tensor
        cores and Turing's have no 2:4 sparsity, so no figure is made up for them)."""
        return self.sparse


class AcceleratorSpec(Keyed):
    """One accelerator's published peaks and memory, with their source (``accelerators.yaml``)."""

    name: str
    """How a reader names it, e.g. ``H100 SXM``."""
    model: str = Field(pattern=r"^[A-Z][A-Za-z0-9]*(?: [A-Z0-9][A-Za-z0-9]*)?$")
    """The product as printed in names, e.g. ``H100`` or ``DGX Spark``: what a lesson must
    mention."""
    also_named: tuple[str, ...] = ()
    """Other names of the same product (``GB10``, the chip of the DGX Spark)."""
    form_factor: FormFactor
    """SXM module, PCIe card or NVL."""
    memory_gb: float | None = Field(default=None, gt=0)
    """Memory as the datasheet prints it, in its GB (80 for "80GB")."""
    memory_type: str | None = None
    """HBM generation as printed (HBM2e, HBM3, HBM3e)."""
    bandwidth_gb_s: float | None = Field(default=None, gt=0)
    """Memory bandwidth in GB/s as printed (3.35TB/s is 3350)."""
    nvlink_gb_s: float | None = Field(default=None, gt=0)
    """NVLink bandwidth between GPUs in GB/s as the datasheet prints it: the total of both
    directions (900 GB/s is 450 GB/s each way)."""
    tensor: dict[TensorType, TensorPeak] = Field(default_factory=dict)
    """Tensor-core peaks by number type."""
    fp32_tflops: float | None = Field(default=None, gt=0)
    """Peak FP32 on the CUDA cores (not tensor cores), TFLOP/s."""
    fp64_tflops: float | None = Field(default=None, gt=0)
    """Peak FP64 on the CUDA cores, TFLOP/s."""
    cuda_cores: int | None = Field(default=None, gt=0)
    """CUDA cores of the GPU, as the datasheet prints them."""
    cite: str = Field(min_length=5, max_length=80)
    """The maker's document in a few words (its datasheet or architecture whitepaper), for
    verdict messages."""
    url: str | None = Field(default=None, pattern=r"^https://[a-z0-9.-]+\.[a-z]{2,}/\S*$")
    """Where the maker publishes that document."""
    source: str = Field(min_length=20)
    """Where every number of the entry comes from."""

    @model_validator(mode="after")
    def _has_a_number(self) -> AcceleratorSpec:
        if self.memory_gb is None and self.bandwidth_gb_s is None and not self.tensor:
            raise ValueError("an accelerator entry gives memory, bandwidth or a peak")
        return self

    @property
    def names(self) -> tuple[str, ...]:
        """Every name a lesson may print for the product: its model, then the others."""
        return (self.model, *self.also_named)

    def peak(self, dtype: TensorType, *, sparse: bool = False) -> float | None:
        """The tensor-core peak for a number type in TFLOP/s, dense unless ``sparse``."""
        found = self.tensor.get(dtype)
        if found is None:
            return None
        return found.sparse_value if sparse else found.dense_value


@dataclass(frozen=True)
class AcceleratorMatch:
    """The result of looking a printed accelerator name up."""

    spec: AcceleratorSpec | None
    """The entry the name denotes, or None."""
    reason: str
    """Why this entry (or why none)."""
    candidates: tuple[AcceleratorSpec, ...] = ()
    """Entries the name could mean when it does not say which (form factor, memory)."""


@dataclass(frozen=True)
class AcceleratorTable:
    """The reference table of ``accelerators.yaml``."""

    accelerators: tuple[AcceleratorSpec, ...]
    """Entries in file order."""

    def by_key(self, key: str) -> AcceleratorSpec | None:
        """The entry with this key, or None."""
        return next((a for a in self.accelerators if a.key == key), None)

    def find(self, name: str) -> AcceleratorMatch:
        """The entry a name denotes: its model (``H100``), then form factor and memory if stated."""
        exact = self.by_key(name.strip())
        if exact is not None:
            return AcceleratorMatch(exact, f"reference key {exact.key!r}")
        text = fold(name)
        narrowed = [a for a in self.accelerators if any(_names(n, text) for n in a.names)]
        if not narrowed:
            known = ", ".join(sorted({a.model for a in self.accelerators}))
            return AcceleratorMatch(None, f"{name!r} names no known accelerator ({known})")
        for narrow in (_by_form_factor(text), _by_memory(text)):
            if narrow is not None:
                narrowed = [a for a in narrowed if narrow(a)]
        if len(narrowed) == 1:
            return AcceleratorMatch(narrowed[0], f"{name!r} names {narrowed[0].name}")
        if not narrowed:
            return AcceleratorMatch(None, f"no entry has the form factor and memory in {name!r}")
        names = ", ".join(a.name for a in narrowed)
        return AcceleratorMatch(None, f"{name!r} does not say which: {names}", tuple(narrowed))


def _names(model: str, text: str) -> bool:
    """Whether ``text`` (folded) names the product ``model`` as a word of its own."""
    return re.search(rf"(?<![a-z\d]){re.escape(fold(model))}(?![a-z\d])", text) is not None


def _by_form_factor(text: str) -> Callable[[AcceleratorSpec], bool] | None:
    for factor in ("sxm", "pcie", "nvl"):
        if factor in text:
            return functools.partial(_has_form_factor, factor)
    return None


def _has_form_factor(factor: str, spec: AcceleratorSpec) -> bool:
    return spec.form_factor == factor


def _by_memory(text: str) -> Callable[[AcceleratorSpec], bool] | None:
    match = re.search(r"(\d+)\s*gb(?![a-z/])", text)
    if match is None:
        return None
    size = float(match.group(1))
    return lambda a: a.memory_gb is not None and math.isclose(a.memory_gb, size)


class _AcceleratorFile(Frozen):
    accelerators: Any


def build_accelerator_table(raw: Any, file: str = "accelerators.yaml") -> AcceleratorTable:
    """The validated table of parsed ``accelerators.yaml`` data; :class:`DataError` on problems."""
    shape = validated_file(raw, file, _AcceleratorFile, "accelerators")
    return AcceleratorTable(
        validated_entries(shape.accelerators, file, AcceleratorSpec, "accelerators")
    )


@functools.cache
def accelerator_table() -> AcceleratorTable:
    """The typed, validated table of ``accelerators.yaml`` (cached)."""
    return build_accelerator_table(load_yaml("accelerators"))


def find_accelerator(name: str) -> AcceleratorMatch:
    """Look a printed accelerator name (``H100 SXM``, ``A100 80GB``) or key up."""
    return accelerator_table().find(name)
