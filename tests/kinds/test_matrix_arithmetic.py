"""Kind ``matrix_arithmetic``: what its input model refuses (its verdicts are in the case table
``tests/fixtures/kinds/matrix_arithmetic.yaml``)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from checkers.kinds.matrix_arithmetic import Input


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"expression": "A", "matrices": {"A": [["1", "2"], ["3"]]}, "claimed": [["1"]]},
         "equally long"),
        ({"expression": "A", "matrices": {"A b": [["1"]]}, "claimed": [["1"]]}, "is not a name"),
        ({"expression": "A", "matrices": {"A": [["1" * 300]]}, "claimed": [["1"]]}, "longer"),
        ({"expression": "A", "matrices": [["1"]], "claimed": [["1"]]}, "maps a name"),
    ],
)  # fmt: skip
def test_malformed_operands_are_refused(fields: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError, match=fragment):
        Input.model_validate(fields)
