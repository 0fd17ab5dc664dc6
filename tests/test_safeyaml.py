from __future__ import annotations

import pytest

from checkers.safeyaml import MAX_NODES, Position, YamlError, load


def test_plain_numbers_keep_their_printed_text() -> None:
    located = load("claimed: 0.780\nvector: [0.50, 1.0]\nflag: true\nnothing: null\n")
    assert located.data == {
        "claimed": "0.780",
        "vector": ["0.50", "1.0"],
        "flag": True,
        "nothing": None,
    }


def test_positions_are_one_based_line_and_column() -> None:
    located = load("claims:\n  - id: a\n    kind: softmax\n")
    assert located.position(("claims", 0, "kind")) == Position(3, 11)
    # A path below a known value falls back to its nearest located ancestor.
    assert located.position(("claims", 0, "missing")) == Position(2, 5)


def test_syntax_error_is_located() -> None:
    with pytest.raises(YamlError) as caught:
        load("claims:\n  - id: [unclosed\n")
    assert caught.value.position is not None
    assert caught.value.position.line >= 2
    assert "YAML syntax error" in caught.value.message


def test_python_tags_are_rejected_not_constructed() -> None:
    with pytest.raises(YamlError, match="tag"):
        load("x: !!python/object/apply:os.system ['echo pwned']\n")


def test_duplicate_keys_are_rejected() -> None:
    with pytest.raises(YamlError, match="duplicate key 'id'") as caught:
        load("id: a\nid: b\n")
    assert caught.value.position == Position(2, 1)


def test_alias_bomb_is_bounded() -> None:
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]']
    for level in range(1, 9):
        previous = chr(ord("a") + level - 1)
        name = chr(ord("a") + level)
        lines.append(
            f"{name}: &{name} [*{previous},*{previous},*{previous},*{previous},*{previous},"
            f"*{previous},*{previous},*{previous},*{previous},*{previous}]"
        )
    with pytest.raises(YamlError, match=f"more than {MAX_NODES:,}"):
        load("\n".join(lines) + "\n")


def test_empty_document_is_none() -> None:
    assert load("").data is None
