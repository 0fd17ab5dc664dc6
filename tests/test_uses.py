"""The ``uses:`` graph of a claim file (``checkers.uses``)."""

from __future__ import annotations

from checkers.uses import cycle_through, cyclic, upstream_first


def test_upstream_claims_come_before_the_claims_that_use_them() -> None:
    uses = {"a": {}, "b": {"x": "a"}, "c": {"x": "b", "y": "a"}, "d": {}}
    assert upstream_first(uses, "c", set()) == ["a", "b", "c"]
    assert upstream_first(uses, "c", {"a"}) == ["b", "c"]  # done claims are not repeated
    assert upstream_first(uses, "d", set()) == ["d"]


def test_a_chain_of_fifty_thousand_claims_needs_no_recursion() -> None:
    uses = {f"c{i}": ({"x": f"c{i - 1}"} if i else {}) for i in range(50_000)}
    order = upstream_first(uses, "c49999", set())
    assert order[0] == "c0" and order[-1] == "c49999" and len(order) == 50_000
    assert cyclic(uses) == set()


def test_cycles_and_self_uses_are_found_and_spelt_out() -> None:
    uses = {"a": {"x": "b"}, "b": {"x": "c"}, "c": {"x": "a"}, "d": {"x": "d"}, "e": {"x": "a"}}
    assert cyclic(uses) == {"a", "b", "c", "d"}  # e uses the cycle but is not on it
    assert cycle_through(uses, "b", {"a", "b", "c", "d"}) == ["b", "c", "a", "b"]
    assert cycle_through(uses, "d", {"d"}) == ["d", "d"]


def test_unknown_upstream_ids_are_not_followed() -> None:
    uses = {"a": {"x": "missing"}}
    assert upstream_first(uses, "a", set()) == ["a"]
    assert cyclic(uses) == set()
