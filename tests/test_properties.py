"""Properties of everything that reads untrusted text: it is total and bounded.

For any input, each reader returns its value or raises its own error type (never another
exception), in bounded time; the extractor's drafts always anchor in their lesson and validate
as claims of their kind; scanning a lesson and running a claim file never raise. Settings come
from ``tests/hypothesis_profiles.py`` (200 derandomized examples per property in CI; a long
randomized run with ``LESSONCHECK_HYPOTHESIS_PROFILE=fuzz``, see docs/security.md).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkers import expr, safeyaml
from checkers.claims import HEADER_FIELDS, ClaimHeader, build_claims_file
from checkers.extract import draft_claims, to_claim_data
from checkers.extract.document import parse_document
from checkers.finding import Finding
from checkers.kinds import ALL_KINDS, KIND_MODULES
from checkers.kinds.base import KindInput
from checkers.lesson import Lesson
from checkers.numbers import NumberError, Printed, parse_printed, parse_printed_vector
from checkers.runner import run_file
from checkers.scan import scan_lesson
from tests.hypothesis_profiles import PROFILE

pytestmark = pytest.mark.slow  # hypothesis at the CI budget: about a minute

ROOT = Path(__file__).resolve().parent.parent
SECONDS = 2.0
"""Longest any single call may take on one example (they take milliseconds)."""
T = TypeVar("T")


def _bounded(call: Callable[[], T]) -> T:
    started = time.monotonic()
    try:
        return call()
    finally:
        assert time.monotonic() - started < SECONDS, "took too long"


def _joined(pieces: list[str], max_size: int = 40) -> st.SearchStrategy[str]:
    """Text made of pieces that mean something to the reader, plus arbitrary text."""
    return st.one_of(
        st.text(max_size=200),
        st.lists(st.sampled_from(pieces), max_size=max_size).map("".join),
        st.lists(st.one_of(st.sampled_from(pieces), st.text(max_size=3)), max_size=max_size).map(
            "".join
        ),
    )


# ------------------------------------------------------------------------------ expressions

EXPR_PIECES = [
    *"0123456789",
    "0.5", ".5", "1e3", "1e-4", "2E+2", "4,096", "1,234,567", "1e999", "9" * 40,
    "+", "-", "*", "/", "^", "**", "×", "·", "÷", "−", "–", "%", "√", "(", ")", "[", "]", ",",
    "…", "...", "⋯", " ", "  ", "pi", "π", "e", "inf", "∞", "d_k", "x", "nan",
    "exp(", "sqrt(", "softmax(", "max(", "sum(", "log(", "sin(", "mean(", "gelu(", "relu(",
    "⁰", "¹", "²", "⁹", "⁻", "⁺", "ⁿ", "１", "２", "．", "＋", "½", "¼", "\u200b", "\u202e",
    "=", "≈", "约", " ~ ", "<=", "!=", "==", "（", "）", "__import__(", "'", '"', "lambda", ":",
]  # fmt: skip


@settings(PROFILE)
@given(_joined(EXPR_PIECES))
def test_expressions_evaluate_or_raise_expr_error(text: str) -> None:
    try:
        tree = _bounded(lambda: expr.parse(text))
    except expr.ExprError:
        return
    expr.names(tree)
    try:
        value = _bounded(lambda: expr.evaluate(tree, {"x": 2.0, "d_k": 64.0}))
        assert isinstance(value, (float, tuple))
    except expr.ExprError:
        pass
    try:
        exact = _bounded(lambda: expr.evaluate_exact(tree, {"x": Fraction(2), "d_k": Fraction(64)}))
        assert exact is None or isinstance(exact, Fraction)
    except expr.ExprError:
        pass


@settings(PROFILE)
@given(_joined(EXPR_PIECES))
def test_equation_chains_split_or_raise_expr_error(text: str) -> None:
    try:
        sides = _bounded(lambda: expr.split_chain(text))
    except expr.ExprError:
        return
    assert all(isinstance(side, str) and side == side.strip() for _, side, _ in sides)


# ------------------------------------------------------------------------------ printed numbers

NUMBER_PIECES = [
    *"0123456789", ".", ",", "-", "+", "−", "e", "E", " ", "×10^", "x10^", "⁻", "⁴", "(", ")",
    "%", "‰", "K", "M", "B", "T", "GB", "GiB", "KB", "万", "亿", "倍", "×", "x", "≈", "约",
    "about ", "bytes", "s", "ms", "１", "．", "\u00a0", "[", "]", "e999", "9" * 30,
]  # fmt: skip


@settings(PROFILE)
@given(_joined(NUMBER_PIECES, max_size=20))
def test_printed_numbers_parse_or_raise_number_error(text: str) -> None:
    try:
        printed = _bounded(lambda: parse_printed(text))
        assert isinstance(printed, Printed)
    except NumberError:
        pass
    try:
        vector = _bounded(lambda: parse_printed_vector(text))
        assert all(isinstance(item, Printed) for item in vector)
    except NumberError:
        pass


# ------------------------------------------------------------------------------ safe YAML

YAML_PIECES = [
    "- ", ": ", "\n", "  ", "    ", "{", "}", "[", "]", ", ", "&a ", "*a", "&b ", "*b",
    "!!python/object/apply:os.system ", "!!python/name:eval ", "!!str ", "!!binary ", "!x ",
    "? ", "|\n", ">\n", "'", '"', "# c", "---\n", "...\n", "%TAG ! tag:yaml.org,2002:python/\n",
    "<<: ", "a", "b", "id", "lesson", "claims", "1", "0.5", "true", "null", "~", ".nan", ".inf",
    "\t", "\ufeff", "\x00", "\\", "é", "猫",
]  # fmt: skip


@settings(PROFILE)
@given(_joined(YAML_PIECES, max_size=60))
def test_yaml_loads_or_raises_yaml_error(text: str) -> None:
    try:
        located = _bounded(lambda: safeyaml.load(text))
    except safeyaml.YamlError as error:
        assert error.message
        return
    assert isinstance(located, safeyaml.Located)


# ------------------------------------------------------------------------------ lessons

_NUMBER = st.sampled_from(["0", "1", "2", "0.5", "0.58", "1.5", "12", "64", "4,096", "1e-4"])
_OPERATOR = st.sampled_from([" + ", " - ", " × ", "×", " / ", "^", " · ", " ÷ ", " − "])
_RELATION = st.sampled_from([" = ", "=", " ≈ ", " 约 ", " ＝ ", " ~ ", "≈"])


@st.composite
def _equation(draw: st.DrawFn) -> str:
    terms = draw(st.lists(_NUMBER, min_size=1, max_size=4))
    left = terms[0] + "".join(draw(_OPERATOR) + term for term in terms[1:])
    sides = [left, *draw(st.lists(_NUMBER, min_size=1, max_size=2))]
    return "".join(side + draw(_RELATION) for side in sides[:-1]) + sides[-1]


MARKDOWN_LINES = [
    "# Title", "## d_model = 4", "d_model = 4", "d_model = 512, with 8 heads, 64 dims per head",
    "PE(1, 2) = sin(1 / 10000^(2/4)) = sin(0.01) ≈ 0.01", "PE(1) = [0.84, 0.54, 0.01, 1.0]",
    "从 10 降到 5，省 50%。", "from 20 steps to 5 steps, a saving of 75%",
    "| model | layers | heads | hidden |", "|---|---|---|---|", "| GPT-3 | 96 | 96 | 12288 |",
    "| a | b |", "| 1 | 2 |", "```", "```text", "$$", "$x = 1$", "- item", "  - nested", "> quote",
    "", "", "---", "softmax([1, 2]) = [0.27, 0.73]", "0.9⁵⁰ ≈ 0.005", "√2 ≈ 1.41",
    "$12 \\times 24 = 288$", "$\\frac{1}{8} = 0.125$", "7B × 2 bytes = 14 GB", "70 亿 × 2 = 140 亿",
    "= 0.05 + 0.2", "= 0.25", "score(猫, 猫) = Q_猫 · K_猫 = 0.58×0.71 + 0.74×0.52 = 0.78",
    "\u202e1 + 1 = 3", "１＋１＝２", "\ufeff", "\r", "[a](", "*a **b", "<div>", "\\",
]  # fmt: skip

markdown = st.one_of(
    st.text(max_size=300),
    st.lists(
        st.one_of(st.sampled_from(MARKDOWN_LINES), _equation(), st.text(max_size=20)),
        max_size=25,
    ).map("\n".join),
)


def _kind_input(kind: str) -> type[KindInput]:
    return ALL_KINDS[kind].Input


@settings(PROFILE)
@given(markdown)
def test_drafts_anchor_in_their_lesson_and_validate(text: str) -> None:
    drafts = _bounded(lambda: draft_claims(text))
    lesson = Lesson.from_text(Path("lesson.md"), text)
    for data in to_claim_data(lesson, drafts):
        anchor = lesson.anchor(data["quote"], data.get("occurrence"))
        assert anchor.line >= 1
        header = {k: v for k, v in data.items() if k in HEADER_FIELDS}
        ClaimHeader.model_validate(header)
        fields = {k: v for k, v in data.items() if k not in HEADER_FIELDS}
        _kind_input(str(data["kind"])).model_validate(fields)


@settings(PROFILE)
@given(markdown)
def test_scanning_any_lesson_never_raises(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "lesson.md"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        findings = _bounded(lambda: scan_lesson(path))
    assert all(isinstance(f, Finding) for f in findings)
    assert all(f.verdict in ("pass", "fail", "error") for f in findings)
    assert not any("internal error" in f.message for f in findings)


# ------------------------------------------------------------------------------ claim files

LESSON = "# L\n\nThe sum 0.6×0.4 + 0.2×0.7 = 0.38 holds.\n\nPE(1) = [0.84, 0.54]\n"
_FIELDS = sorted(
    {name for kind in KIND_MODULES for name in _kind_input(kind).model_fields} | HEADER_FIELDS
)
_SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(["0", "1", "-1", "0.5", "0.38", "1e308", "9" * 40, "inf", ".nan", "[1, 2]",
                     "4096", "d_k", "sqrt(d_k)", "causal", "sinusoidal", "x", "", "64×", "1.5B"]),
    st.text(max_size=8),
)  # fmt: skip
_VALUE = st.recursive(
    _SCALAR,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(_FIELDS), inner, max_size=4)
    ),
    max_leaves=16,
)
_CLAIM = st.fixed_dictionaries(
    {
        "id": st.sampled_from(["a", "b", "c"]),
        "kind": st.sampled_from(sorted(KIND_MODULES)),
        "quote": st.sampled_from(["0.6×0.4 + 0.2×0.7 = 0.38", "PE(1) = [0.84, 0.54]", "gone"]),
    },
    optional={
        "uses": st.dictionaries(st.sampled_from(["s", "t"]), st.sampled_from(["a", "b", "c"])),
        **{name: _VALUE for name in _FIELDS if name not in ("id", "kind", "quote", "uses")},
    },
)


@settings(PROFILE)
@given(st.lists(_CLAIM, max_size=4))
def test_any_claim_mapping_loads_and_runs_without_raising(claims: list[dict[str, Any]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        lesson = Path(folder) / "l.md"
        lesson.write_text(LESSON, encoding="utf-8")
        located = safeyaml.Located({"lesson": "l.md", "claims": claims}, {})
        claims_file = build_claims_file(Path(folder) / "c.yaml", located, lesson_file=lesson)
        findings = _bounded(lambda: run_file(claims_file))
    assert len(findings) >= len(claims_file.claims)
    for finding in findings:
        assert "internal error" not in finding.message, finding
        assert "could not be read" not in finding.message, finding


# ------------------------------------------------------------------------------ chunked parsing


def test_parsing_in_pieces_changes_nothing_on_real_lessons() -> None:
    """Cutting a lesson wherever Markdown starts afresh gives the blocks of one parse."""
    lessons = [*(ROOT / "content").glob("*.md"), *(ROOT / "tests" / "corpus").glob("*.md")]
    assert lessons
    for path in lessons:
        text = path.read_text(encoding="utf-8")
        assert parse_document(text, chunk_chars=1) == parse_document(text, chunk_chars=10**9)
