"""Safe YAML with source positions, for untrusted claim files.

Claim files arrive in pull requests, so they are read with PyYAML's *safe* composer only: the
text becomes a node tree, and this module turns that tree into plain dicts, lists and strings
itself. That gives us what ``yaml.safe_load`` cannot:

* the line and column of every value, so a validation error points at ``file:line:column``;
* plain scalars kept as the text the author typed, so ``claimed: 0.780`` keeps its three
  printed decimals (numbers are read later by :mod:`checkers.numbers`);
* duplicate keys rejected, python/object tags rejected, alias expansion, nesting depth and file
  size bounded (a "billion laughs" file, ``[[[[…]]]]`` nested 100 000 deep or an alias that
  contains itself is one clear error, not an out-of-memory kill or a RecursionError).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import yaml

__all__ = ["MAX_BYTES", "MAX_DEPTH", "MAX_NODES", "Located", "Position", "YamlError", "load"]

MAX_BYTES = 2_000_000
"""Largest claim file we read; real ones are a few kilobytes."""
MAX_NODES = 100_000
"""Most values one file may hold or expand to, aliases included (bounds alias bombs). A real
claim file has a few thousand; PyYAML's pure-Python nodes cost about 1 KB and 60 µs each, so
this keeps the worst file near 100 MB and 6 s."""
MAX_DEPTH = 64
"""Deepest nesting of mappings and lists; a claim file needs about 5. PyYAML's composer and
:func:`_convert` recurse once per level, so this also keeps both far from Python's recursion
limit (an alias inside its own anchor, ``&a [*a]``, would otherwise nest forever)."""

_SAFE_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}


@dataclass(frozen=True)
class Position:
    """A place in a source file, 1-based as editors show it."""

    line: int
    """Line number, starting at 1."""
    column: int
    """Column number, starting at 1."""


class YamlError(ValueError):
    """A claim file that is not acceptable YAML; carries where and what was expected."""

    def __init__(self, message: str, position: Position | None) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


Path_ = tuple[Hashable, ...]


@dataclass(frozen=True)
class Located:
    """A parsed YAML document plus the position of every value in it."""

    data: Any
    """Plain dicts, lists, strings, bools and None; numbers stay as the text typed."""
    positions: dict[Path_, Position]
    """Where each value starts, keyed by its path of keys and list indexes from the root."""

    def position(self, path: Path_) -> Position | None:
        """Position of the value at ``path``, or of its nearest located ancestor."""
        for cut in range(len(path), -1, -1):
            found = self.positions.get(tuple(path[:cut]))
            if found is not None:
                return found
        return None


def _position(mark: yaml.Mark | None) -> Position | None:
    if mark is None:
        return None
    return Position(line=mark.line + 1, column=mark.column + 1)


def load(text: str) -> Located:
    """Parse one YAML document from untrusted ``text``; raise :class:`YamlError` on anything odd."""
    if len(text.encode("utf-8", errors="surrogatepass")) > MAX_BYTES:
        raise YamlError(f"file is larger than {MAX_BYTES:,} bytes; claim files are small", None)
    try:
        loader = _BoundedLoader(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        what = error.problem or error.context or "invalid YAML"
        raise YamlError(f"YAML syntax error: {what}", _position(mark)) from None
    except yaml.YAMLError as error:
        raise YamlError(f"YAML syntax error: {error}", None) from None
    positions: dict[Path_, Position] = {}
    if root is None:
        return Located(data=None, positions=positions)
    budget = [MAX_NODES]
    data = _convert(root, (), positions, budget, SafeScalars())
    return Located(data=data, positions=positions)


def _too_deep(mark: yaml.Mark | None) -> YamlError:
    return YamlError(
        f"values are nested more than {MAX_DEPTH} levels deep; claim files need about 5",
        _position(mark),
    )


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader whose (recursive) composer refuses to nest deeper than MAX_DEPTH.

    Only composition is used (``get_single_node``): the loader never constructs objects, so
    no tag, safe or not, turns into anything but a node that :func:`_convert` then checks.
    """

    _depth = 0
    _nodes = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        self._depth += 1
        # Counted while composing, not only while converting: a flat list of a million
        # values would otherwise cost 700 MB of PyYAML nodes before any budget applied.
        self._nodes += 1
        try:
            if self._depth > MAX_DEPTH or self._nodes > MAX_NODES:
                event = self.peek_event()  # type: ignore[no-untyped-call]
                if self._depth > MAX_DEPTH:
                    raise _too_deep(event.start_mark)
                raise YamlError(
                    f"file has more than {MAX_NODES:,} keys and values; claim files are small",
                    _position(event.start_mark),
                )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class SafeScalars(yaml.SafeLoader):
    """Resolves the non-string scalars we keep as values (bool, null) with PyYAML's safe rules."""

    def __init__(self) -> None:
        super().__init__("")


def _convert(
    node: yaml.Node,
    path: Path_,
    positions: dict[Path_, Position],
    budget: list[int],
    scalars: SafeScalars,
) -> Any:
    if len(path) > MAX_DEPTH:  # only an alias to an enclosing node gets here: &a [*a]
        raise _too_deep(node.start_mark)
    budget[0] -= 1
    if budget[0] < 0:
        raise YamlError(
            f"file expands to more than {MAX_NODES:,} values (aliases?); refusing to expand it",
            _position(node.start_mark),
        )
    here = _position(node.start_mark)
    if here is not None:
        positions[path] = here
    if node.tag not in _SAFE_TAGS:
        raise YamlError(
            f"YAML tag {node.tag!r} is not allowed in claim files; use plain values", here
        )
    if isinstance(node, yaml.MappingNode):
        result: dict[Hashable, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise YamlError("mapping keys must be plain names", _position(key_node.start_mark))
            key = key_node.value
            if key in result:
                raise YamlError(
                    f"duplicate key {key!r} (first given above); each key may appear once",
                    _position(key_node.start_mark),
                )
            result[key] = _convert(value_node, (*path, key), positions, budget, scalars)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [
            _convert(item, (*path, index), positions, budget, scalars)
            for index, item in enumerate(node.value)
        ]
    assert isinstance(node, yaml.ScalarNode)
    if node.tag in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"):
        return scalars.construct_object(node)
    # Numbers stay as typed: their printed digits are their precision.
    return str(node.value)
