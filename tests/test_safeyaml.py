from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from checkers.safeyaml import (
    MAX_NODES,
    Layout,
    Located,
    Position,
    YamlError,
    _layout_of,
    _load_bounded,
    _load_common,
    layout,
    load,
)

HOSTILE = Path(__file__).parent / "hostile" / "claimfiles"


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


@pytest.mark.slow  # expands an alias bomb up to its bound: seconds
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


# The fast path (libyaml events) must read what the bounded pure-Python loader reads, or step
# aside: every text below is read both ways. libyaml alone accepts a few malformed texts (a tab
# after a value, "|#"); there the fast path's reading stands, and the test says so.


def _outcome(read: Callable[[str], Located], text: str) -> tuple[object, ...]:
    try:
        located = read(text)
    except YamlError as error:
        return ("error", error.message, error.position)
    return ("ok", located.data, located.positions)


def _layouts(text: str) -> list[Layout]:
    """The layout by each parser that reads ``text`` (libyaml's and PyYAML's)."""
    layouts = []
    for loader in (yaml.CSafeLoader, yaml.SafeLoader):
        parser = loader(text)
        try:
            layouts.append(_layout_of(parser.get_event))
        except yaml.YAMLError:
            continue
        finally:
            parser.dispose()
    return layouts


_BREAKS = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")


def _assert_layout_agrees(text: str, located: Located) -> None:
    """Every value is where :func:`load` says it starts; and both parsers place every value
    alike wherever ``load`` reads with libyaml (else layout reads with PyYAML, as ``load``)."""
    if _load_common(text.removeprefix("\ufeff")) is not None:
        layouts = _layouts(text.removeprefix("\ufeff"))
        assert all(other == layouts[0] for other in layouts[1:]), text
    starts = [int(text.startswith("\ufeff")), *(m.end() for m in _BREAKS.finditer(text))]
    for path, span in layout(text).values.items():
        if text.startswith("*", span.start):
            continue  # an alias: load places its values at the anchor
        line = bisect.bisect_right(starts, span.start)
        assert located.positions[path] == (line, span.start - starts[line - 1] + 1), (text, path)
        assert span.start <= span.end <= len(text)


def _assert_same(text: str) -> None:
    try:
        located = load(text)
    except YamlError:
        pass
    else:
        _assert_layout_agrees(text, located)
    common = _load_common(text)
    bounded = _outcome(_load_bounded, text)
    if common is None:  # load() falls back to the bounded loader: one behaviour by construction
        assert _outcome(load, text) == bounded
    elif bounded[0] == "ok":
        assert ("ok", common.data, common.positions) == bounded
    else:
        assert _LENIENT.search(text), f"libyaml read what PyYAML refuses: {text!r}"


LENIENT = {"gelu(1\t", "|#50 | x"}
"""Texts PyYAML refuses and libyaml reads (found by fuzz/fuzz_expr.py)."""
_LENIENT = re.compile(r"\t|[|>][-+0-9]*#")
"""What every such text had: a tab, or a comment right after a block scalar indicator."""


ODD_TEXTS = [
    "",
    "# only a comment\n",
    "a: 1\n---\nb: 2\n",  # two documents
    "a: &x [1, 2]\nb: *x\nc: *x\n",
    "a: &x {k: [1, &y 2]}\nb: [*x, *y]\n",
    "a: &x [1, *x]\n",  # an alias inside its own anchor
    "a: &x 1\nb: &x 2\n",  # a duplicate anchor
    "a: *nowhere\n",
    "a: !!str 1\n",
    "a: !custom x\n",
    "<<: {a: 1}\nb: 2\n",
    "when: 2001-12-14\n",
    "v: =\n",
    "a: 1\na: 2\n",
    "? [complex, key]\n: value\n",
    "[1, 2, 3]\n",
    "just a scalar\n",
    "flags: [yes, No, ON, off, ~, null, '', true]\n",
    "quoted: ['yes', \"null\", '0.780']\n",
    "a:\n  - - - x\n    - y\n",
    "a: [unclosed\n",
    "a: b: c\n",
    "a: \x07bell\n",
    "a: 'tab\there'\n",
    "multi: |\n  line one\n  line two\n",
    "folded: >-\n  a\n  b\n",
    "x: [" * 70 + "]" * 70 + "\n",
    "\ufeffa: bom\n",
    "a: " + "1" * 300_000 + "\n",  # longer than the fast path reads
    *LENIENT,
    "?",
    "? a",
    "{a: , b}",  # empty values: libyaml places them elsewhere, so the bounded loader reads them
    "a:\nb: 1\n",
]


@pytest.mark.parametrize("text", ODD_TEXTS, ids=range(len(ODD_TEXTS)))
def test_fast_path_agrees_on_odd_texts(text: str) -> None:
    _assert_same(text)


def test_fast_path_reads_ordinary_files_itself() -> None:
    text = (HOSTILE / "good.yaml").read_text(encoding="utf-8")
    assert _load_common(text) is not None
    assert _load_common("a: &x [1]\nb: *x\n") is not None  # aliases are ordinary enough
    assert _load_common("a: !!str 1\n") is None


@pytest.mark.slow  # differential run of the two YAML readers
@pytest.mark.parametrize("path", sorted(HOSTILE.glob("*.yaml")), ids=lambda path: path.name)
def test_fast_path_agrees_on_hostile_claim_files(path: Path) -> None:
    _assert_same(path.read_text(encoding="utf-8"))


_SCALARS = st.one_of(
    st.sampled_from(["yes", "No", "null", "~", "", "0.780", "1e3", "2001-12-14", "<<", "=", "-"]),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12),
    st.integers(-1000, 1000),
    st.floats(allow_nan=False),
    st.booleans(),
    st.none(),
)
_TREES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=25,
)


@pytest.mark.slow  # differential run of the two YAML readers
@settings(max_examples=300, deadline=None)
@given(tree=_TREES, flow=st.sampled_from([None, True, False]), width=st.sampled_from([20, 80]))
def test_fast_path_agrees_on_generated_documents(
    tree: object, flow: bool | None, width: int
) -> None:
    shared = [tree, tree]  # the same object twice: the dumper writes an anchor and an alias
    for document in (tree, {"claims": shared}):
        text = yaml.safe_dump(document, default_flow_style=flow, width=width, allow_unicode=True)
        _assert_same(text)


_PIECES = [
    "- ", "a: ", "b:", "k: ", "? ", ": ", "[", "]", "{", "}", ", ", "'x'", '"y"', "&a ", "*a",
    "&b ", "*b", "|", ">", "|-", " #c", "1", "0.50", "yes", "~", "null", "x y", "  ", "\t",
    "-1", "'it''s'", '"\\n"', "é", "、", "---", "...",
]  # fmt: skip
_LINES = st.tuples(st.integers(0, 6), st.lists(st.sampled_from(_PIECES), max_size=5)).map(
    lambda line: " " * line[0] + "".join(line[1])
)


@pytest.mark.slow  # differential run of the two YAML readers
@settings(max_examples=400, deadline=None)
@given(lines=st.lists(_LINES, min_size=1, max_size=8))
def test_fast_path_agrees_on_yaml_shaped_noise(lines: list[str]) -> None:
    # Mostly malformed YAML made of YAML's own punctuation; 30 000 examples found no difference.
    _assert_same("\n".join(lines) + "\n")
