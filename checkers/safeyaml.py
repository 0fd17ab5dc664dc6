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

Two readers give the same result: ordinary files (no tags, no errors, under 256 kB) go through
libyaml's C event parser with an explicit stack (:func:`_load_common`, about 25 µs per claim);
everything else, and every error message, comes from the bounded pure-Python composer
(:func:`_load_bounded`, about 330 µs per claim). ``tests/test_safeyaml.py`` reads odd, hostile,
generated and random YAML-shaped documents both ways and requires the same reading wherever both
accept a text (libyaml alone reads a few malformed ones; see :func:`_load_common`).
"""

from __future__ import annotations

import copy
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import yaml

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_NODES",
    "Layout",
    "Located",
    "Position",
    "Span",
    "YamlError",
    "layout",
    "load",
]

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
    positions: dict[Path_, tuple[int, int]]
    """Where each value starts, as 1-based (line, column), keyed by its path of keys and list
    indexes from the root (plain tuples: a file has thousands and only errors look them up)."""

    source: str = field(default="", compare=False, repr=False)
    """The text it was read from ("" for data made in memory), for :meth:`key_position`."""
    _keys: list[dict[Path_, Span]] = field(default_factory=list, compare=False, repr=False)

    def position(self, path: Path_) -> Position | None:
        """Position of the value at ``path``, or of its nearest located ancestor."""
        for cut in range(len(path), -1, -1):
            found = self.positions.get(tuple(path[:cut]))
            if found is not None:
                return Position(*found)
        return None

    def key_position(self, path: Path_) -> Position | None:
        """Position of the key that introduces the mapping value at ``path`` (``tolerance:`` for
        ``("claims", 0, "tolerance")``), else :meth:`position`. Keys are located only when an
        error asks for one: the text is read once more, then remembered."""
        if self.source and not self._keys:
            try:
                self._keys.append(layout(self.source).keys)
            except YamlError:
                self._keys.append({})
        span = self._keys[0].get(tuple(path)) if self._keys else None
        if span is None:
            return self.position(path)
        text = self.source
        line_start = text.rfind("\n", 0, span.start) + 1
        return Position(text.count("\n", 0, line_start) + 1, span.start - line_start + 1)


def _position(mark: yaml.Mark | None) -> Position | None:
    if mark is None:
        return None
    return Position(line=mark.line + 1, column=mark.column + 1)


def load(text: str) -> Located:
    """Parse one YAML document from untrusted ``text``; raise :class:`YamlError` on anything odd."""
    if len(text.encode("utf-8", errors="surrogatepass")) > MAX_BYTES:
        raise YamlError(f"file is larger than {MAX_BYTES:,} bytes; claim files are small", None)
    found = _load_common(text) or _load_bounded(text)
    return Located(found.data, found.positions, text)


def _load_bounded(text: str) -> Located:
    """The full loader: PyYAML's pure-Python safe composer with every limit, and the one place
    a YAML error is worded."""
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
    except yaml.reader.ReaderError as error:
        raise _unprintable(text, error) from None
    except yaml.YAMLError as error:
        raise YamlError(f"YAML syntax error: {error}", None) from None
    positions: dict[Path_, tuple[int, int]] = {}
    if root is None:
        return Located(data=None, positions=positions)
    budget = [MAX_NODES]
    data = _convert(root, (), positions, budget, SafeScalars())
    return Located(data=data, positions=positions)


def _unprintable(text: str, error: yaml.reader.ReaderError) -> YamlError:
    """A character YAML does not allow in a file (a control character such as U+0008), located
    as an editor counts lines (at ``\\n``)."""
    offset = min(max(int(error.position), 0), len(text))
    line_start = text.rfind("\n", 0, offset) + 1
    where = Position(text.count("\n", 0, line_start) + 1, offset - line_start + 1)
    character = error.character if isinstance(error.character, int) else 0
    return YamlError(
        f"control character U+{character:04X} is not allowed in a claim file; delete it, or "
        f"write it as the escape \\u{character:04x} inside a double-quoted string",
        where,
    )


FAST_MAX_CHARS = 256_000
"""Largest text read through libyaml's C parser (:func:`_load_common`). Bigger files take the
bounded pure-Python loader, so a file of a million tiny values never becomes a million event
objects before a limit applies."""

_NON_PRINTABLE = yaml.reader.Reader.NON_PRINTABLE
_CPARSER: type[Any] | None = getattr(yaml, "CSafeLoader", None)


class _Unusual(Exception):
    """Something the fast path leaves to the full loader (which explains it, or accepts it)."""


def _load_common(text: str) -> Located | None:
    """Read an ordinary claim file through libyaml's C event parser, or return ``None``.

    About 20 times faster than the pure-Python composer. "Ordinary" means what every real claim
    file is: one document of mappings, lists and scalars (anchors and aliases included, expanded
    as the full loader expands them), no tags, no duplicate keys or anchors, nested at most
    MAX_DEPTH deep, at most FAST_MAX_CHARS long and MAX_NODES values. Anything else, a syntax
    error included, returns ``None`` and :func:`load` reads the text again with the bounded
    loader, so errors and oddities get one wording. Where both readers accept a text they read
    the same data and positions (``fuzz/fuzz_expr.py`` and ``tests/test_safeyaml.py`` compare
    them); libyaml is the more lenient of the two on a few malformed texts (a tab after a
    value, ``|#`` with no space), which it reads rather than refuses. The events are consumed
    one at a time with an explicit stack, so nothing here recurses.
    """
    if _CPARSER is None or len(text) > FAST_MAX_CHARS or _NON_PRINTABLE.search(text):
        return None
    parser = _CPARSER(text)
    try:
        return _from_events(parser.get_event)
    except (_Unusual, yaml.YAMLError):
        return None
    finally:
        parser.dispose()


def _from_events(next_event: Any) -> Located:
    positions: dict[Path_, tuple[int, int]] = {}
    # One frame per open collection: [container, its path, pending mapping key or _NO_KEY,
    # the anchor it defines or None].
    stack: list[list[Any]] = []
    root: Any = None
    documents = values = 0
    scalars = _PlainScalars()
    # Anchors: name -> (value, path, [(path, position) of it and everything inside it]).
    anchors: dict[str, tuple[Any, Path_, list[tuple[Path_, tuple[int, int]]]]] = {}
    recording: dict[str, list[tuple[Path_, tuple[int, int]]]] = {}
    while True:
        event = next_event()
        kind = type(event)
        if kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            frame = stack.pop()
            if frame[3] is not None:
                anchors[frame[3]] = (frame[0], frame[1], recording.pop(frame[3]))
            continue
        if kind is yaml.StreamEndEvent:
            return Located(data=root, positions=positions)
        if kind is yaml.DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise _Unusual
            continue
        if kind is yaml.StreamStartEvent or kind is yaml.DocumentEndEvent:
            continue
        is_alias = kind is yaml.AliasEvent
        if not is_alias and (
            event.tag is not None
            or not (
                kind is yaml.ScalarEvent
                or kind is yaml.MappingStartEvent
                or kind is yaml.SequenceStartEvent
            )
        ):
            raise _Unusual
        anchor = None if is_alias else event.anchor
        if anchor is not None and (anchor in anchors or anchor in recording):
            raise _Unusual  # a duplicate anchor: the full loader refuses it by name
        # Where this value goes: a mapping key, a mapping value, a list item or the root.
        container: Any = None
        if stack:
            frame = stack[-1]
            container = frame[0]
            if type(container) is dict:
                if frame[2] is _NO_KEY:  # this event is a key
                    if kind is not yaml.ScalarEvent or anchor or event.value in container:
                        raise _Unusual
                    frame[2] = event.value
                    continue
                step = frame[2]
                frame[2] = _NO_KEY
            else:
                step = len(container)
            path: Path_ = (*frame[1], step)
        else:
            path = ()
        if is_alias:
            value, new_values = _expand(event.anchor, path, anchors, positions, recording)
            values += new_values
            if values > MAX_NODES:
                raise _Unusual
        else:
            values += 1
            mark = event.start_mark
            here = (mark.line + 1, mark.column + 1)
            positions[path] = here
            for entries in recording.values():
                entries.append((path, here))
            if kind is yaml.ScalarEvent:
                if event.implicit[0] and not event.value:
                    # An empty value: libyaml places some (after "? key", in "{a: , b}")
                    # elsewhere than PyYAML does; rare in a claim file, so the full loader reads it.
                    raise _Unusual
                value = scalars.value(event.value) if event.implicit[0] else event.value
                if anchor is not None:
                    anchors[anchor] = (value, path, [(path, here)])
            else:
                if len(stack) >= MAX_DEPTH or values > MAX_NODES:
                    raise _Unusual
                value = {} if kind is yaml.MappingStartEvent else []
                if anchor is not None:
                    recording[anchor] = [(path, here)]
                stack.append([value, path, _NO_KEY, anchor])
        if not path:
            root = value
        elif type(container) is dict:
            container[path[-1]] = value
        else:
            container.append(value)


def _expand(
    name: str,
    path: Path_,
    anchors: dict[str, tuple[Any, Path_, list[tuple[Path_, tuple[int, int]]]]],
    positions: dict[Path_, tuple[int, int]],
    recording: dict[str, list[tuple[Path_, tuple[int, int]]]],
) -> tuple[Any, int]:
    """A copy of the anchored value for an alias at ``path``, its positions re-rooted there (they
    point at the anchor, as the full loader's do); returns the value and how many values it has."""
    found = anchors.get(name)
    if found is None:  # unknown, or an alias inside its own anchor: the full loader explains
        raise _Unusual
    value, anchor_path, entries = found
    if len(entries) > MAX_NODES:
        raise _Unusual
    cut = len(anchor_path)
    for inner, where in entries:
        moved = (*path, *inner[cut:])
        positions[moved] = where
        for open_entries in recording.values():
            open_entries.append((moved, where))
    return copy.deepcopy(value), len(entries)


_NO_KEY = object()


class _PlainScalars(yaml.SafeLoader):
    """Resolves a plain (unquoted) scalar the way PyYAML's safe resolver tags it: bools and
    nulls become values, numbers stay as the text typed, other tags (a date, ``<<``) are left
    to the full loader, which refuses them by name."""

    def __init__(self) -> None:
        super().__init__("")
        self._seen: dict[str, Any] = {}

    def value(self, text: str) -> Any:
        found = self._seen.get(text, _NO_KEY)
        if found is _NO_KEY:
            tag = self.resolve(yaml.ScalarNode, text, (True, False))  # type: ignore[no-untyped-call]
            if tag in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"):
                found = self.construct_object(yaml.ScalarNode(tag, text))
            elif tag in _SAFE_TAGS:
                found = text
            else:
                raise _Unusual
            self._seen[text] = found
        return found


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
    positions: dict[Path_, tuple[int, int]],
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
        positions[path] = (here.line, here.column)
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


@dataclass(frozen=True)
class Span:
    """Where one value (or key) is written in the text: character offsets, end exclusive."""

    start: int
    """Offset of its first character (its anchor or tag; a block list's first ``-``)."""
    end: int
    """Offset just after its last character; for a block collection, the end of its last value
    (the comments and blank lines after it are not part of it)."""
    block: bool
    """True for a block mapping or list (one entry per line), False for a scalar, an alias and
    a ``[...]`` / ``{...}`` collection."""


@dataclass(frozen=True)
class Layout:
    """Where every value of a document is written, for editing the text in place."""

    values: dict[Path_, Span]
    """The span of each value, keyed by its path (as :attr:`Located.positions`; aliases are not
    expanded, so only what is written is here)."""
    keys: dict[Path_, Span]
    """The span of the key that introduces the mapping value at the same path."""


def layout(text: str) -> Layout:
    """The spans of the values and keys of a text that :func:`load` accepts, read by the parser
    :func:`load` reads it with: libyaml's for an ordinary file (it reads a few texts the
    pure-Python parser refuses, such as a tab before a comment), else PyYAML's (which places
    empty values differently). Raises :class:`YamlError` on a text :func:`load` refuses.
    Linear in the text; nothing recurses."""
    load(text)  # refuses what check refuses, with its wording
    # libyaml counts offsets after a byte-order mark, PyYAML from the text's start.
    shift = 1 if text.startswith("\ufeff") else 0
    body = text[shift:]
    parser = _CPARSER(body) if _CPARSER is not None and _load_common(body) is not None else None
    if parser is None:
        parser = yaml.SafeLoader(body)
    try:
        found = _layout_of(parser.get_event, shift)
    except yaml.YAMLError as error:  # load read it: only a bug in this module gets here
        raise YamlError(f"YAML syntax error: {error}", None) from None
    finally:
        parser.dispose()
    return found


def _layout_of(next_event: Any, shift: int = 0) -> Layout:
    values: dict[Path_, Span] = {}
    keys: dict[Path_, Span] = {}
    # One frame per open collection: [its path, True for a mapping, the pending key or _NO_KEY,
    # how many entries so far, where it starts, the end of its content so far, block or flow].
    stack: list[list[Any]] = []
    while True:
        event = next_event()
        kind = type(event)
        if kind is yaml.StreamEndEvent:
            return Layout(values, keys)
        if kind in (yaml.StreamStartEvent, yaml.DocumentStartEvent, yaml.DocumentEndEvent):
            continue
        if kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            path, _, _, _, start, end, block = stack.pop()
            span = Span(start, end if block else event.end_mark.index + shift, block)
        else:
            start, end = event.start_mark.index + shift, event.end_mark.index + shift
            if stack and stack[-1][1] and stack[-1][2] is _NO_KEY:  # a mapping key
                frame = stack[-1]
                frame[2] = event.value if kind is yaml.ScalarEvent else f"<key {start}>"
                keys[(*frame[0], frame[2])] = Span(start, end, False)
                frame[5] = max(frame[5], end)
                continue
            path = _child_path(stack)
            if kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                block = not event.flow_style
                stack.append([path, kind is yaml.MappingStartEvent, _NO_KEY, 0, start, end, block])
                continue
            span = Span(start, end, False)
        values[path] = span
        if stack:
            frame = stack[-1]
            frame[5] = max(frame[5], span.end)
            frame[3] += 1
            frame[2] = _NO_KEY


def _child_path(stack: list[list[Any]]) -> Path_:
    if not stack:
        return ()
    frame = stack[-1]
    return (*frame[0], frame[2] if frame[1] else frame[3])
