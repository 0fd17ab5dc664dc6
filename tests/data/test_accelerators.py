"""The accelerator table (``checkers/data/accelerators.yaml``): datasheet numbers, their sources,
name lookup and the loader's refusals."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from checkers.data import DataError
from checkers.data.accelerators import (
    AcceleratorSpec,
    accelerator_table,
    build_accelerator_table,
    find_accelerator,
)

ACCELERATORS = accelerator_table().accelerators

# Figures written out by hand from NVIDIA's documents (A100/H100/H200/T4 datasheets, GA102 and Ada
# whitepapers), in TFLOP/s (TOPS for int8), GB, GB/s; (dense, None): no with-sparsity figure.
PUBLISHED_PEAKS = {
    "a100-sxm-80gb": {"bf16": (312, 624), "tf32": (156, 312), "memory": 80, "bandwidth": 2039},
    "a100-sxm-40gb": {"fp16": (312, 624), "memory": 40, "bandwidth": 1555},
    "h100-sxm": {"bf16": (989.4, 1979), "fp8": (1978.9, 3958), "tf32": (494.7, 989),
                 "memory": 80, "bandwidth": 3350},
    "h200-sxm": {"fp8": (1979, 3958), "bf16": (989.5, 1979), "memory": 141, "bandwidth": 4800},
    "h100-pcie": {"memory": 80, "bandwidth": 2000},
    "dgx-spark": {"fp4": (500, 1000), "memory": 128, "bandwidth": 273},
    "t4": {"fp16": (65, None), "int8": (130, None), "memory": 16},
    "rtx-3090": {"memory": 24, "bandwidth": 936},
    "v100-sxm2-32gb": {"fp16": (125, None), "memory": 32, "bandwidth": 900},
    "v100-pcie-16gb": {"fp16": (112, None), "memory": 16, "bandwidth": 900},
    "l4": {"fp8": (242.5, 485), "bf16": (121, 242), "memory": 24, "bandwidth": 300},
    "l40s": {"fp8": (733, 1466), "tf32": (183, 366), "memory": 48, "bandwidth": 864},
    "rtx-4090": {"bf16": (165.2, 330.4), "tf32": (82.6, 165.2), "int8": (660.6, 1321.2),
                 "memory": 24, "bandwidth": 1008},
}  # fmt: skip


@pytest.mark.parametrize("key", sorted(PUBLISHED_PEAKS))
def test_published_accelerator_numbers(key: str) -> None:
    spec = accelerator_table().by_key(key)
    assert spec is not None
    for field, value in PUBLISHED_PEAKS[key].items():
        if field == "memory":
            assert spec.memory_gb == value
        elif field == "bandwidth":
            assert spec.bandwidth_gb_s == value
        else:
            dense, sparse = value  # type: ignore[misc]
            assert spec.peak(field) == pytest.approx(dense)  # type: ignore[arg-type]
            with_sparsity = spec.peak(field, sparse=True)  # type: ignore[arg-type]
            assert with_sparsity == (None if sparse is None else pytest.approx(sparse))


def _printed(value: float) -> set[str]:
    """How a datasheet may print a value: 19.5, 312, and bandwidth in TB/s (3350 as 3.35)."""
    forms = {f"{value:g}"}
    if value >= 1000:
        forms.add(f"{value / 1000:g}")
    return forms


@pytest.mark.parametrize("spec", ACCELERATORS, ids=lambda a: a.key)
def test_every_accelerator_number_is_written_in_its_source(spec: AcceleratorSpec) -> None:
    written = set(re.findall(r"\d+(?:\.\d+)?", spec.source.replace(",", "")))
    numbers = [spec.memory_gb, spec.bandwidth_gb_s, spec.nvlink_gb_s, spec.fp32_tflops]
    numbers += [spec.fp64_tflops]
    numbers += [spec.cuda_cores]
    for peak in spec.tensor.values():
        numbers += [peak.dense, peak.sparse]
    missing = [n for n in numbers if n is not None and not _printed(n) & written]
    assert not missing, f"{spec.key}: {missing} not in its source"


_MAKERS = {"NVIDIA": ("nvidia.com",), "AMD": ("amd.com",), "Google": ("cloud.google.com",)}
"""A maker's name in a citation → the domains it publishes its documents on."""


@pytest.mark.parametrize("spec", ACCELERATORS, ids=lambda a: a.key)
def test_accelerator_entries_are_sourced_from_the_maker(spec: AcceleratorSpec) -> None:
    # the maker's own datasheet or architecture whitepaper, named, with where it is published:
    # not a retailer's listing or a review that reproduces it
    maker = next((m for m in _MAKERS if spec.cite.startswith(m + " ")), None)
    assert maker is not None, f"{spec.key}: {spec.cite!r} does not name the maker"
    document = re.search(r"datasheet|whitepaper", spec.cite)
    assert document is not None, f"{spec.key}: {spec.cite!r} names no datasheet or whitepaper"
    assert document.group() in spec.source, f"{spec.key}: its source does not say which document"
    assert spec.url is not None and spec.url.startswith("https://")
    host = spec.url.split("/")[2]
    assert any(host == d or host.endswith("." + d) for d in _MAKERS[maker]), spec.url
    for peak in spec.tensor.values():
        if peak.sparse_value is not None:
            # 2:4 sparsity doubles the rate, up to the makers' rounding and clocks (1.5%)
            gap = abs(peak.sparse_value - 2 * peak.dense_value)
            assert gap <= max(1.0, 0.015 * peak.sparse_value)


@pytest.mark.parametrize(
    ("cite", "url"),
    [
        ("NVIDIA GeForce RTX 3090 specifications", "https://www.nvidia.com/en-us/geforce/"),
        ("RTX 3090 datasheet", "https://www.nvidia.com/en-us/geforce/"),
        ("NVIDIA T4 datasheet", "https://www.example-retailer.com/t4"),
    ],
)
def test_a_citation_that_is_not_the_makers_document_fails_the_check(cite: str, url: str) -> None:
    spec = AcceleratorSpec.model_validate({**_GOOD_ACCELERATOR, "cite": cite, "url": url})
    with pytest.raises(AssertionError):
        test_accelerator_entries_are_sourced_from_the_maker(spec)


def test_nvlink_from_the_datasheets() -> None:
    nvlink = {a.key: a.nvlink_gb_s for a in ACCELERATORS}
    # A100 datasheet: NVLink 600 GB/s; H100 SXM and H200: 900 GB/s; H100 PCIe (bridged): 600
    assert nvlink["a100-sxm-80gb"] == 600 and nvlink["h100-sxm"] == 900
    assert nvlink["h200-sxm"] == 900 and nvlink["h100-pcie"] == 600
    assert nvlink["rtx-4090"] is None and nvlink["t4"] is None  # no NVLink on these cards


def test_a_card_without_sparsity_has_no_with_sparsity_figure() -> None:
    t4 = accelerator_table().by_key("t4")
    a100 = accelerator_table().by_key("a100-sxm-80gb")
    assert t4 is not None and a100 is not None
    assert t4.peak("fp16") == 65 and t4.peak("fp16", sparse=True) is None
    assert a100.peak("fp64") == 19.5 and a100.peak("fp64", sparse=True) is None


def test_sxm_and_pcie_differ_where_the_datasheet_says() -> None:
    sxm, pcie = accelerator_table().by_key("h100-sxm"), accelerator_table().by_key("h100-pcie")
    assert sxm is not None and pcie is not None
    assert sxm.bandwidth_gb_s is not None and pcie.bandwidth_gb_s is not None
    assert sxm.bandwidth_gb_s > pcie.bandwidth_gb_s
    assert pcie.peak("bf16") is None  # not in the sources read: left out, not guessed


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("H100 SXM", "h100-sxm"),
        ("H100 SXM5 80GB", "h100-sxm"),
        ("h100-pcie", "h100-pcie"),
        ("NVIDIA A100 80GB", "a100-sxm-80gb"),
        ("A100 40GB PCIe", "a100-pcie-40gb"),
        ("H200", "h200-sxm"),
        ("NVIDIA DGX Spark", "dgx-spark"),
        ("the GB10 superchip", "dgx-spark"),
    ],
)
def test_find_accelerator(name: str, key: str) -> None:
    match = find_accelerator(name)
    assert match.spec is not None, match.reason
    assert match.spec.key == key


@pytest.mark.parametrize("name", ["H100", "A100", "A100 40GB"])
def test_accelerator_names_that_do_not_say_which(name: str) -> None:
    match = find_accelerator(name)
    assert match.spec is None and len(match.candidates) >= 2
    assert "does not say which" in match.reason


def test_cuda_cores_from_the_whitepapers() -> None:
    cores = {a.key: a.cuda_cores for a in ACCELERATORS}
    # Ampere whitepaper: 108 SMs x 64 FP32 cores; Hopper: 132 SMs x 128; DGX Spark: 6,144.
    assert cores["a100-sxm-80gb"] == 108 * 64 and cores["h100-sxm"] == 132 * 128
    assert cores["dgx-spark"] == 6144 and cores["h100-pcie"] is None
    # GA102 whitepaper: 82 SMs x 128; Ada whitepaper: 128 SMs x 128; T4 datasheet: 2,560.
    assert cores["rtx-3090"] == 82 * 128 and cores["rtx-4090"] == 128 * 128
    assert cores["t4"] == 2560


def test_unknown_accelerator() -> None:
    match = find_accelerator("MI300X")
    assert match.spec is None and "names no known accelerator" in match.reason


_GOOD_ACCELERATOR: dict[str, Any] = {
    "key": "toy-gpu",
    "name": "Toy GPU",
    "model": "T1",
    "form_factor": "pcie",
    "memory_gb": 16,
    "tensor": {"fp16": {"dense": 100, "sparse": 200}},
    "cite": "NVIDIA Toy datasheet",
    "url": "https://www.nvidia.com/toy.pdf",
    "source": "a hand-made entry for loader tests, not a real product (datasheet)",
}


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"tensor": {"fp16": {"dense": 100, "sparse": 150}}}, "not twice dense"),
        ({"tensor": {"fp2": {"dense": 100}}}, "tensor.fp2"),
        ({"model": "dgx spark"}, "model"),
        ({"clock_mhz": 1400}, "unknown field 'clock_mhz'"),
        ({"source": None}, "no source"),
        ({"memory_gb": None, "tensor": None}, "gives memory, bandwidth or a peak"),
        ({"form_factor": "oam"}, "form_factor"),
        ({"url": "www.nvidia.com/t4.pdf"}, "url"),
    ],
)
def test_broken_accelerator_entries(changes: dict[str, Any], expected: str) -> None:
    entry = copy.deepcopy(_GOOD_ACCELERATOR)
    for field, value in changes.items():
        if value is None:
            entry.pop(field, None)
        else:
            entry[field] = value
    with pytest.raises(DataError) as caught:
        build_accelerator_table({"accelerators": [entry]}, "toy.yaml")
    assert str(caught.value).startswith("toy.yaml: entry 'toy-gpu'"), str(caught.value)
    assert expected in str(caught.value)
