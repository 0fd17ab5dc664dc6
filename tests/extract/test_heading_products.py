"""Recogniser ``heading_products``: a product of counts in a heading and the line of its section
that gives its value (snippets written for these tests; 24 × 1,024 = 24,576, 8 × 2048 = 16,384)."""

from __future__ import annotations

import pytest

from checkers.extract.document import parse_document
from checkers.extract.recognizers import heading_products
from tests.extract.conftest import ScanText


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("## A batch: 24 prompts × 1,024 tokens\n\n- tokens per batch: 24,576\n", "pass"),
        ("## A batch: 24 prompts × 1,024 tokens\n\n- tokens per batch: 12,288\n", "fail"),
        ("## Step size: 24 prompts × 1,024 tokens\n\nTotal tokens: 24,576\n", "pass"),
        ("### 每步 8 条序列 × 2048 个 token\n\n- 每步 token 总数：16,384\n", "pass"),
        ("### 每步 8 条序列 × 2048 个 token\n\n- 每步 token 总数：8,192\n", "fail"),
    ],
)
def test_the_product_of_a_heading(scan_text: ScanText, text: str, verdict: str) -> None:
    (finding,) = [f for f in scan_text(text) if f.id.startswith("heading_products-")]
    assert finding.verdict == verdict


@pytest.mark.parametrize(
    "text",
    [
        # a factor of the product, not the product
        "## A batch: 24 prompts × 1,024 tokens\n\n- tokens per prompt: 1,024\n",
        # a label naming no whole: which figure it is is not stated
        "## A batch: 24 prompts × 1,024 tokens\n\n- tokens cached: 4,096\n",
        # the heading works the product itself: the equation chain's
        "## A batch: 24 prompts × 1,024 tokens = 24,576\n\n- tokens per batch: 24,576\n",
        # another unit than the product's
        "## A batch: 24 prompts × 1,024 tokens\n\n- steps per batch: 3\n",
        # two numbers on the line
        "## A batch: 24 prompts × 1,024 tokens\n\n- tokens per batch: 24,576 (or 2 × 12,288)\n",
    ],
)
def test_no_draft_where_the_line_does_not_give_the_product(text: str) -> None:
    assert list(heading_products.recognize(parse_document(text))) == []
