"""Recogniser ``rope``: RoPE frequencies, angles, wavelengths and frequency vectors (snippets
written for these tests; values from numpy: d = 8, base 10000 gives θ = 1, 0.1, 0.01, 0.001 and
wavelengths 2π/θ = 6.28, 62.8, 628, 6283)."""

from __future__ import annotations

from checkers.extract.document import parse_document
from checkers.extract.recognizers import rope
from tests.extract.conftest import ScanText

ENGLISH = """# Rotary position embedding

RoPE turns position into rotation. Each pair of dimensions gets the frequency
θ_i = 10000^(−2i/d), for i = 0, 1, …, d/2 − 1.

With d = 8:

- θ_0 = 10000^0 = {t0}
- θ_1 = 10000^(−2/8) = {t1}
- θ_2 = 10000^(−4/8) = 0.01, θ_3 = 0.001

At position m = 3 the angle of pair 1 is 3θ_1 = 3 × 0.1 = {angle} rad, and m·θ_2 = 0.03.

All frequencies at once: θ = [1, 0.1, {v2}, 0.001].

The wavelength of pair i is $\\lambda_i = \\frac{{2\\pi}}{{\\theta_i}}$, so λ_1 ≈ {w1} positions.
"""


def _rope(scan_text: ScanText, text: str) -> list[tuple[str, str, str]]:
    return [
        (f.quote, f.verdict, f.message)
        for f in scan_text(text)
        if f.kind == "positional" and "RoPE" in f.message
    ]


def _drafted(text: str) -> list[dict[str, object]]:
    return [d.fields for d in rope.recognize(parse_document(text))]


def test_frequencies_angles_vectors_and_wavelengths_pass(scan_text: ScanText) -> None:
    found = _rope(scan_text, ENGLISH.format(t0="1", t1="0.1", angle="0.3", v2="0.01", w1="62.8"))
    assert [(quote, verdict) for quote, verdict, _ in found] == [
        ("θ_0 = 10000^0 = 1", "pass"),
        ("θ_1 = 10000^(−2/8) = 0.1", "pass"),
        ("θ_2 = 10000^(−4/8) = 0.01", "pass"),
        ("θ_3 = 0.001", "pass"),
        ("3θ_1 = 3 × 0.1 = 0.3", "pass"),
        ("m·θ_2 = 0.03", "pass"),
        ("θ = [1, 0.1, 0.01, 0.001]", "pass"),
        ("λ_1 ≈ 62.8", "pass"),
    ]
    # θ_0 is printed, so pairs are counted from 0 and the message says so.
    assert "counted from 0" in found[1][2] and "base 10000" in found[1][2]


def test_a_wrong_frequency_angle_vector_entry_and_wavelength_fail(scan_text: ScanText) -> None:
    found = _rope(scan_text, ENGLISH.format(t0="1", t1="0.01", angle="0.03", v2="0.1", w1="6.28"))
    failed = {quote: message for quote, verdict, message in found if verdict == "fail"}
    assert set(failed) == {
        "θ_1 = 10000^(−2/8) = 0.01",
        "3θ_1 = 3 × 0.1 = 0.03",
        "θ = [1, 0.1, 0.1, 0.001]",
        "λ_1 ≈ 6.28",
    }
    assert "10000^(−2i/d_head)" in failed["θ_1 = 10000^(−2/8) = 0.01"]
    assert "pair i = 2: 0.1 should be" in failed["θ = [1, 0.1, 0.1, 0.001]"]
    assert "2π/θ_i" in failed["λ_1 ≈ 6.28"]


CHINESE = """## 旋转位置编码（RoPE）的频率

RoFormer 原文的写法：θ_i = base^(-2(i-1)/d)，i = 1, 2, …, d/2。取 base = 500000，d = 4：

- θ_1 = 1
- θ_2 = 500000^(-2/4) ≈ {t2}
"""


def test_pairs_counted_from_one_and_a_stated_base(scan_text: ScanText) -> None:
    # 500000^(−1/2) = 0.001414; with base 10000 it would be 0.01.
    found = _rope(scan_text, CHINESE.format(t2="0.00141"))
    assert [verdict for _, verdict, _ in found] == ["pass", "pass"]
    assert "counted from 1" in found[1][2] and "base 500000" in found[1][2]
    wrong = _rope(scan_text, CHINESE.format(t2="0.01"))
    assert [verdict for _, verdict, _ in wrong] == ["pass", "fail"]


def test_code_definition_with_a_named_base_and_a_comment(scan_text: ScanText) -> None:
    text = (
        "## RoPE in code\n\n```python\nbase = 10000\ndim = 4\n"
        "inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))\n"
        "# inv_freq: [1.0, {v1}]\n```\n"
    )
    assert [v for _, v, _ in _rope(scan_text, text.format(v1="0.01"))] == ["pass"]
    assert [v for _, v, _ in _rope(scan_text, text.format(v1="0.1"))] == ["fail"]


def test_numbering_is_either_when_the_lesson_does_not_fix_it(scan_text: ScanText) -> None:
    text = (
        "## RoPE frequencies\n\nθ_i = 10000^{{-2i/d}} with d = 8.\n\n"
        "The slowest pairs: θ_3 = 0.01 and θ_4 = {t4}.\n"
    )
    # θ_3 = 0.01 only counted from 1; θ_4 = 0.001 only counted from 1 (pair 4 does not exist
    # counted from 0): both hold under the reading "from 1".
    found = _rope(scan_text, text.format(t4="0.001"))
    assert [v for _, v, _ in found] == ["pass", "pass"]
    assert "counted from 1" in found[0][2] and "the reading that matched" in found[0][2]
    assert [v for _, v, _ in _rope(scan_text, text.format(t4="0.0001"))] == ["pass", "fail"]


def test_similar_shapes_are_not_drafted() -> None:
    sinusoidal = (
        "## Sinusoidal positional encoding\n\nω_i = 1/10000^(2i/d), d = 8, so ω_1 = 0.1 and "
        "θ_1 = 0.1 as well.\n"
    )
    undefined = "## RoPE\n\nRotate the pair by θ_1 = 0.5 rad; d = 8.\n"
    degrees = "## RoPE\n\nθ_i = 10000^(-2i/d), d = 2: 30θ_0 = 30 × 1 = 30°\n"
    indices = (
        "## RoPE\n\n```python\ndim = 8\n"
        "theta = 10000 ** (-torch.arange(0, dim, 2) / dim)\nx = theta[1] * 3\n```\n"
    )
    two_bases = (
        "## RoPE for long context\n\nθ_i = 10000^(-2i/d) with d = 8; Llama 3 raises "
        "rope_theta = 500000, so θ_1 = 0.19.\n"
    )
    other_section = (
        "## RoPE\n\nθ_i = 10000^(-2i/d).\n\n## Some other topic\n\nWith d = 8, θ_1 = 0.5.\n"
    )
    width_elsewhere = (
        "# Notes\n\n## Embeddings\n\nd = 512 here.\n\n## RoPE\n\nθ_i = 10000^(-2i/d), θ_1 = 0.98\n"
    )
    for text in (
        sinusoidal,
        undefined,
        degrees,
        indices,
        two_bases,
        other_section,
        width_elsewhere,
    ):
        assert _drafted(text) == [], text


def test_another_index_letter_and_a_sliced_arange_with_a_typed_base(scan_text: ScanText) -> None:
    prose = "## RoPE\n\n$\\theta_j = 10000^{{-2j/d}}$, d = 4, so $\\theta_1 = {t1}$.\n"
    # 10000^(−2/4) = 0.01 (from 0); counted from 1, θ_1 = 1
    assert [v for _, v, _ in _rope(scan_text, prose.format(t1="0.01"))] == ["pass"]
    assert [v for _, v, _ in _rope(scan_text, prose.format(t1="0.1"))] == ["fail"]
    code = (
        "## Rotary embedding, as in the reference code\n\n```python\n"
        "def frequencies(dim: int = 4, theta: float = 500000.0):\n"
        "    return 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))\n"
        "# freqs = [1.0, {v1}]\n```\n"
    )
    # 500000^(−2/4) = 0.001414
    assert [v for _, v, _ in _rope(scan_text, code.format(v1="0.0014"))] == ["pass"]
    assert [v for _, v, _ in _rope(scan_text, code.format(v1="0.01"))] == ["fail"]


TABLE = """# 旋转位置编码

θ_i = 10000^(-2i/d)，取 d = 8。

| 维度对 i | θ_i | 位置 m = 10 的角度 | 波长 2π/θ_i |
|---|---|---|---|
| 0 | 1 | 10 | 6.28 |
| 1 | 0.1 | 1 | 62.8 |
| 2 | 0.01 | 0.1 | 628 |
| 3 | 0.001 | {angle3} | {wave3} |

"""


def test_a_table_of_frequencies_angles_and_wavelengths_by_pair(scan_text: ScanText) -> None:
    # m = 10: angles 10, 1, 0.1, 0.01; wavelengths 2π/θ_i = 6.28, 62.8, 628, 6,283 (a thousands
    # separator in a cell is one)
    right = _rope(scan_text, TABLE.format(angle3="0.01", wave3="6,283"))
    assert len(right) == 12 and all(v == "pass" for _, v, _ in right)
    wrong = _rope(scan_text, TABLE.format(angle3="0.001", wave3="628"))
    failed = [m for _, v, m in wrong if v == "fail"]
    assert len(failed) == 2
    assert any("angle" in m and "pos = 10" in m for m in failed)
    assert any("wavelength" in m and "6283" in m for m in failed)


def test_a_table_without_a_pair_column_is_not_drafted() -> None:
    labels = TABLE.replace("维度对 i", "模型")
    for pair, name in (("0", "A"), ("1", "B"), ("2", "C"), ("3", "D")):
        labels = labels.replace(f"\n| {pair} |", f"\n| {name} |")
    assert _drafted(labels) == []


ROTATION = """## RoPE on a small query

θ_i = 10000^(-2i/d), d = 4. At position 2 the angles are 2 and 0.02:

RoPE([1, 0, 0, 1], m=2) = [{q}]
"""


def test_a_vector_rotated_at_a_position(scan_text: ScanText) -> None:
    # numpy: pairs (0,1),(2,3) give [-0.416, 0.909, -0.020, 1.000]; pairs (0,2),(1,3) give
    # [-0.416, -0.020, 0.909, 1.000]. Either layout is accepted, and the message names it.
    interleaved = _rope(scan_text, ROTATION.format(q="-0.416, 0.909, -0.020, 1.000"))
    assert [v for _, v, _ in interleaved] == ["pass"] and "(2i, 2i+1)" in interleaved[0][2]
    half = _rope(scan_text, ROTATION.format(q="-0.416, -0.020, 0.909, 1.000"))
    assert [v for _, v, _ in half] == ["pass"] and "(i, i + d/2)" in half[0][2]
    # cos and sin swapped in the first pair: wrong under both layouts.
    wrong = _rope(scan_text, ROTATION.format(q="0.909, -0.416, -0.020, 1.000"))
    assert [v for _, v, _ in wrong] == ["fail"]
    wider = ROTATION.format(q="-0.416, 0.909, -0.020, 1.000").replace("d = 4", "d = 8")
    assert _drafted(wider) == []  # the vector is not of the stated width
