"""Recogniser ``code_arrays``: what code comments state about NumPy/PyTorch arrays built from
literals.

Reads the top-level statements of Python code blocks (a section's blocks as one session, never
running them) and keeps, for every name assigned an array the code builds from literals
(``np.array([1, 2])``, ``torch.tensor([[1, 2], [3, 4]])``, ``np.zeros((3, 4))``,
``torch.arange(12)``, random ``torch.randn(2, 10, 512)`` known by its shape only) or computed
from such arrays (``C = A + B``, ``y = x.view(2, -1).transpose(0, 1)``), the expression that
defines it. Recognises a comment on such a statement that states its result:

* a value: ``r = p + q  # [4, 1, 7]``, ``np.dot(p, q)  # 13``, ``print(M.T)  # [[2, 1], [0, 3]]``,
  ``# Result is 24``, ``# => tensor([3., 7.])``;
* a shape: ``print(x.shape)  # (5,)``, ``y = A @ B  # Shape: (32, 256)``, ``# torch.Size([2,
  512, 10])``, ``torch.zeros(5, 2)  # 5x2 tensor of zeros``.

→ ``arrays`` claims: the expression, the definitions of the names it uses (``where``), the
printed value or shape. The comment must be the value alone (after ``=``, ``→``, ``Result is``,
``shape:``…), or a shape followed by ``array``/``matrix``/``tensor``; a bare number for an
array of several elements, a bare tuple that could be the values of a vector as well as its
shape, a literal restated by its constructor's comment, or names in a shape (``(1, max_len,
d_model)``) mean no draft. Indented statements (loop, function and class bodies), statements
the array language does not read, and in-place changes (``A.add_(B)``, ``x[0] = 5``, ``x += 1``)
make the names they touch unknown from there on.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from checkers.extract.document import Block, Document
from checkers.extract.draft import Draft
from checkers.extract.recognizers.code_values import _left_open, _split_comment
from checkers.kinds.arrays import (
    Array,
    ArrayError,
    Layer,
    Value,
    evaluate,
    read_printed,
    read_shape,
)

__all__ = ["recognize"]

NAME = "code_arrays"

_PYTHON = frozenset({"", "python", "py", "python3", "ipython", "pycon", "ipython3", "torch"})
_MAX_BLOCK_LINES = 400
_MAX_JOINED = 12
_MAX_STATEMENT = 2000
"""Characters of one statement that are parsed (a line of a worked example is far shorter)."""
_BUILDS = re.compile(r"\b(?:np|numpy|torch|nn)\.")
"""What a block needs before anything is read: an array library called."""
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_NAME_USE = re.compile(r"(?<![.\w])[A-Za-z_]\w*")

_PREFIX = re.compile(
    r"^\s*(?:(?:result(?:\s+is)?|output|returns?|gives?|prints?|should\s+be|expected|equals|"
    r"is|值为|结果(?:是|为)?|输出|应输出|应为)\s*[:：]?\s*|=>\s*|->\s*|→\s*|==?\s*)*",
    re.IGNORECASE,
)
_SHAPE_WORD = re.compile(
    r"^\s*(?:(?:shape|形状|size)\s*(?:is\s*)?[:：=]?|(?:reshape[ds]?|add(?:s|ed)?\s+(?:a\s+)?"
    r"(?:batch\s+)?dimension|becomes|now)\s*(?:to|:)?)\s*",
    re.IGNORECASE,
)
_TIMES_SHAPE = re.compile(
    r"^(?P<shape>\d+\s*[x×]\s*\d+(?:\s*[x×]\s*\d+)*)\s+(?:\w+\s+){0,2}?"
    r"(?:array|matrix|tensor|matrices|arrays|tensors)\b",
    re.IGNORECASE,
)
_BARE_TIMES = re.compile(r"\d+\s*[x×]\s*\d+(?:\s*[x×]\s*\d+)*(?![\w.])")
_NAMED = re.compile(
    r"(?P<name>[A-Za-z_]\w*)(?:\.shape)?\s+(?:is\s+(?:now\s+)?(?:an?\s+)?|has\s+shape\s+)"
    r"(?P<rest>.+?)(?=,\s+[A-Za-z_]\w*(?:\.shape)?\s+(?:is|has)\b|$)"
)
"""A comment line about an array by name: ``# C is [[1, 2], [3, 4]]``, ``# D is now a 2x5
matrix``, ``# P is 4x6, Q is 6x2`` (one clause per name)."""
_TRAILER = re.compile(
    r"^\s*(?:$|[(（].*$|[.;,，。]\s*$|[.;,，。]\s+\D.*$|with\s+shape\b.*$|[-–—]{1,2}\s+\D.*$)",
    re.IGNORECASE,
)
"""What may follow a stated value: nothing, a parenthesis, a clause after punctuation."""
_VALUE_START = re.compile(r"^(?:tensor\(|array\(|torch\.Size\(|[\[(\-−\d.])")


@dataclass
class _Session:
    """The names the code has given arrays so far (a section's blocks run as one)."""

    values: dict[str, Value] = field(default_factory=dict)
    """Name → its value."""
    texts: dict[str, str] = field(default_factory=dict)
    """Name → the expression that defined it (in assignment order)."""
    origins: dict[str, tuple[tuple[int, str], ...]] = field(default_factory=dict)
    """Name → the statement that defined it, as (line, code on that line) for each of its
    lines: what a check of an expression over the name reads."""

    def forget(self, names: set[str]) -> None:
        if not self.values:
            return
        for name in names:
            self.values.pop(name, None)
            self.texts.pop(name, None)
            self.origins.pop(name, None)

    def where(self, expression: str) -> dict[str, str]:
        """The definitions the expression needs, names it uses first, in assignment order."""
        needed: set[str] = set()
        pending = [n for n in _IDENTIFIER.findall(expression) if n in self.texts]
        while pending:
            name = pending.pop()
            if name in needed:
                continue
            needed.add(name)
            pending.extend(n for n in _IDENTIFIER.findall(self.texts[name]) if n in self.texts)
        return {name: text for name, text in self.texts.items() if name in needed}

    def inputs(self, expression: str) -> tuple[tuple[int, str], ...]:
        """The statements that defined what :meth:`where` names for ``expression``."""
        return tuple(
            sorted({line for name in self.where(expression) for line in self.origins.get(name, ())})
        )


@dataclass(frozen=True)
class _Statement:
    code: str
    comment: str | None
    indent: int
    """Columns of indentation of its first line (``elif``/``else``… count as nested)."""
    line: int
    source: str
    lines: tuple[tuple[int, str], ...] = ()
    """(line, code without its comment) of each of its source lines."""


def _statements(block: Block) -> Iterator[_Statement]:
    pending: list[str] = []
    written: list[tuple[int, str]] = []
    indent = 0
    for line in block.lines:
        code, comment = _split_comment(line.text, ("#",))
        if code.strip():
            written.append((line.number, code.strip()))
        if not pending:
            stripped = line.text.lstrip()
            indent = len(line.text) - len(stripped)
            if "\t" in line.text:
                indent = len(line.text.expandtabs(4)) - len(stripped.expandtabs(4))
            if stripped.startswith(("elif", "else", "except", "finally")):
                indent += 1  # the branch of a compound statement: not straight-line code
        pending.append(code.strip())
        joined = " ".join(pending) if len(pending) > 1 else pending[0]
        if _left_open(joined) and len(pending) < _MAX_JOINED:
            continue
        pending = []
        yield _Statement(joined, comment, indent, line.number, line.text, tuple(written))
        written = []


def _mentioned(code: str) -> set[str]:
    """The names a statement uses (attributes such as ``torch.zeros`` are not names; a word in
    a string may be taken for one, which only forgets more)."""
    return set(_NAME_USE.findall(code))


def _claim(comment: str, value: Value, *, named: bool = False) -> tuple[str, str, str] | None:
    """(compare, claimed text, matched text) when the comment states the value or shape;
    ``named``: the comment names the array (``D is 2x5``), so a bare ``NxM`` is its shape."""
    rest = _PREFIX.sub("", comment, count=1)
    start = len(comment) - len(rest)
    bare = _BARE_TIMES.match(rest) if named else None
    if bare is not None and _TRAILER.match(rest[bare.end() :]):
        return "shape", bare.group(), comment[: start + bare.end()]
    shape_word = _SHAPE_WORD.match(rest)
    if shape_word is not None:
        rest, start = rest[shape_word.end() :], start + shape_word.end()
    times = _TIMES_SHAPE.match(rest)
    if times is not None:
        claimed = times.group("shape")
        return "shape", claimed, comment[: start + times.end("shape")]
    if not _VALUE_START.match(rest):
        return None
    for end in _candidate_ends(rest):
        text = rest[:end]
        if not _TRAILER.match(rest[end:]):
            continue
        shape = read_shape(text)
        if shape is not None and (shape_word is not None or _is_shape_text(text)):
            if not isinstance(value, (Array, tuple)):
                return None
            vector = isinstance(value, Array) and value.known and value.shape == (len(shape),)
            if vector and shape_word is None:
                return None  # (2, 3) could be the vector's values as well as a shape
            return "shape", text.strip(), comment[: start + end]
        if shape_word is not None:
            return None
        printed = read_printed(text)
        if printed is None:
            continue
        dims, _elements = printed
        if isinstance(value, Array) and len(value.shape) >= 1 and not dims:
            return None  # a bare number for an array: a count or a label
        return "value", text.strip(), comment[: start + end]
    return None


def _is_shape_text(text: str) -> bool:
    stripped = text.strip()
    return stripped.startswith(("torch.Size", "(")) and ")" in stripped


def _candidate_ends(text: str) -> Iterator[int]:
    """Where a printed value starting at ``text[0]`` may end: after its closing bracket, or
    after its first number."""
    depth = 0
    for index, char in enumerate(text):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
            if depth == 0:
                yield index + 1
                return
        elif depth == 0 and char in " \t,;":
            yield index
            return
    yield len(text)


def _about_arrays(session: _Session, expression: str) -> bool:
    """Whether the expression involves an array (a name holding one, or a library call)."""
    if _BUILDS.search(expression):
        return True
    return any(isinstance(session.values.get(n), Array) for n in _mentioned(expression))


def _constructor_only(expression: str) -> bool:
    """True when the expression only builds an array from a literal (``np.array([1, 2])``):
    restating its literal checks nothing."""
    try:
        tree = ast.parse(expression, mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return (
        isinstance(tree, ast.Call)
        and isinstance(tree.func, ast.Attribute)
        and tree.func.attr in ("array", "tensor", "asarray", "FloatTensor")
    )


def _read(session: _Session, statement: _Statement) -> tuple[str, Value] | None:
    """Interpret one top-level statement: (the expression it shows, its value), updating the
    session; None when it shows nothing readable."""
    code = statement.code
    if len(code) > _MAX_STATEMENT:
        session.forget(_mentioned(code))
        return None
    try:
        tree = ast.parse(code, mode="exec")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        session.forget(_mentioned(code))
        return None
    if len(tree.body) != 1:
        session.forget(_mentioned(code))
        return None
    node = tree.body[0]
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and _parallel(node):
        targets, values = node.targets[0], node.value
        assert isinstance(targets, ast.Tuple) and isinstance(values, ast.Tuple)
        for target, item in zip(targets.elts, values.elts, strict=True):
            assert isinstance(target, ast.Name)
            _assign(session, target.id, _source(code, item), statement)
        return None
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        if not isinstance(target, ast.Name):
            # x[0] = 5, a, b = …: what is assigned to changes; what is read does not
            session.forget({n.id for n in ast.walk(target) if isinstance(n, ast.Name)})
            if "_(" in _source(code, node.value):
                session.forget(_mentioned(code))
            return None
        text = _source(code, node.value)
        if target.id in _mentioned(text) or "_(" in text:
            session.forget(_mentioned(code))
            return None
        try:
            value = evaluate(text, session.values)
        except ArrayError:
            session.forget({target.id})
            if "_(" in text:
                session.forget(_mentioned(text))
            return None
        session.forget({target.id})
        session.values[target.id], session.texts[target.id] = value, text
        session.origins[target.id] = statement.lines
        return text, value
    if isinstance(node, ast.Expr):
        shown = node.value
        if (
            isinstance(shown, ast.Call)
            and isinstance(shown.func, ast.Name)
            and shown.func.id == "print"
        ):
            arguments = [_field(a) or a for a in shown.args if not _is_string(a)]
            if len(arguments) != 1 or shown.keywords or len(shown.args) > 2:
                return None
            if len(shown.args) == 2 and not _is_string(shown.args[0]):
                return None
            shown = arguments[0]
        # An f-string's fields carry no reliable positions before Python 3.12: unparsed.
        text = (
            ast.unparse(shown)
            if shown is not node.value and _in_fstring(node)
            else _source(code, shown)
        )
        if "_(" in text:
            session.forget(_mentioned(text))
            return None
        try:
            return text, evaluate(text, session.values)
        except ArrayError:
            return None
    session.forget(_mentioned(code))  # x += 1, for …, del x, with …: unknown from here on
    return None


_SAME_NUMBER = re.compile(r"[<>^]?\d*[,_]?(?:\.\d+)?[fgeE]?")
"""Format specs that print the value itself, rounded or padded (not ``%``, ``x``, ``b``…)."""


def _field(node: ast.expr) -> ast.expr | None:
    """The one field of an f-string (``f"sum = {a + b}"``, ``f"{m:.2f}"``), or None."""
    if not isinstance(node, ast.JoinedStr):
        return None
    fields = [v for v in node.values if isinstance(v, ast.FormattedValue)]
    if len(fields) != 1 or fields[0].conversion != -1:
        return None
    spec = fields[0].format_spec
    if spec is not None:  # {x:.2f} prints x rounded, {x:.1%} prints 100·x: only the first
        if not isinstance(spec, ast.JoinedStr):
            return None
        texts = [v.value for v in spec.values if isinstance(v, ast.Constant)]
        if len(texts) != len(spec.values) or not _SAME_NUMBER.fullmatch("".join(map(str, texts))):
            return None
    return fields[0].value


def _in_fstring(node: ast.stmt) -> bool:
    return any(isinstance(n, ast.JoinedStr) for n in ast.walk(node))


def _source(code: str, node: ast.expr) -> str:
    """The text of ``node`` as the statement writes it."""
    return ast.get_source_segment(code, node) or ast.unparse(node)


def _parallel(node: ast.Assign) -> bool:
    """``a, b = 4, 8``: names given values one by one."""
    targets, values = node.targets[0], node.value
    return (
        isinstance(targets, ast.Tuple)
        and isinstance(values, ast.Tuple)
        and len(targets.elts) == len(values.elts)
        and all(isinstance(t, ast.Name) for t in targets.elts)
        and len({t.id for t in targets.elts if isinstance(t, ast.Name)}) == len(targets.elts)
        # a, b = b, a: every value is taken before any name changes; not read
        and not {t.id for t in targets.elts if isinstance(t, ast.Name)}
        & {n.id for n in ast.walk(values) if isinstance(n, ast.Name)}
    )


def _assign(session: _Session, name: str, text: str, statement: _Statement) -> Value | None:
    """Give ``name`` the value of ``text``, or make it unknown; its value, or None."""
    session.forget({name})
    if name in _mentioned(text) or "_(" in text:
        return None
    try:
        value = evaluate(text, session.values)
    except ArrayError:
        return None
    session.values[name], session.texts[name] = value, text
    session.origins[name] = statement.lines
    return value


def _is_string(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _function_body(session: _Session, header: str) -> _Session | None:
    """The session a function's body starts with: the names around it, less its parameters;
    None when ``header`` is not a ``def`` line."""
    try:
        tree = ast.parse(header + "\n    pass")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    function = tree.body[0] if len(tree.body) == 1 else None
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    body = _Session(dict(session.values), dict(session.texts), dict(session.origins))
    arguments = function.args
    parameters = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    parameters += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
    body.forget({a.arg for a in parameters})
    return body


def _block_drafts(document: Document, block: Block, outer: _Session) -> Iterator[Draft]:
    body: _Session | None = None  # a function's body being read, straight-line part only
    body_indent = 0
    for statement in _statements(block):
        session = outer
        if statement.indent == 0:
            body = None
            if statement.code.startswith(("def ", "async def ")):
                body, body_indent = _function_body(outer, statement.code), 0
                continue
        elif body is not None and body_indent in (0, statement.indent):
            body_indent, session = statement.indent, body
        else:
            (body or outer).forget(_mentioned(statement.code))
            continue
        if not statement.code and statement.comment and session.values:
            yield from _named_drafts(session, statement)
            continue
        comment = statement.comment
        states = comment is not None and any(c.isdigit() for c in comment)
        if not states and _changes_nothing(session, statement.code):
            continue
        read = _read(session, statement)
        if read is None or not states:
            continue
        assert comment is not None
        expression, value = read
        if isinstance(value, (Layer, list)) or (
            isinstance(value, float) and not _about_arrays(session, expression)
        ):
            continue  # a layer, or plain arithmetic (code_values reads that)
        claim = _claim(comment, value)
        if claim is None:
            continue
        compare, claimed, matched = claim
        if compare == "value" and _constructor_only(expression):
            continue
        if compare == "value" and isinstance(value, Array) and not value.known:
            continue
        end = statement.source.find(matched)
        quote = statement.source[: end + len(matched)] if end >= 0 else statement.source
        yield _array_draft(session, expression, compare, claimed, quote.strip(), statement.line)


def _changes_nothing(session: _Session, code: str) -> bool:
    """True when :func:`_read` would leave the session as it is: a statement without ``=``
    assigns nothing, and without ``_(`` (an in-place call) it only makes unknown the names it
    mentions, when it is not an expression; so a statement that mentions no known name
    changes nothing. Tested before parsing it, since most statements are not read at all."""
    if "=" in code or "_(" in code:
        return False
    return not session.values or not any(name in session.values for name in _mentioned(code))


def _named_drafts(session: _Session, statement: _Statement) -> Iterator[Draft]:
    """A comment line that states the value or shape of arrays it names."""
    comment = statement.comment or ""
    if not any(c.isdigit() for c in comment):
        return
    for clause in _NAMED.finditer(comment):
        name = clause.group("name")
        if name not in session.values:
            continue
        value = session.values[name]
        if not isinstance(value, Array):
            continue
        claim = _claim(clause.group("rest"), value, named=True)
        if claim is None:
            continue
        compare, claimed, matched = claim
        if compare == "value" and isinstance(value, Array) and not value.known:
            continue
        end = statement.source.find(matched, statement.source.find(name))
        quote = statement.source[: end + len(matched)] if end >= 0 else statement.source
        yield _array_draft(session, name, compare, claimed, quote.strip(), statement.line)


def _array_draft(
    session: _Session, expression: str, compare: str, claimed: str, quote: str, line: int
) -> Draft:
    return Draft(
        kind="arrays",
        quote=quote,
        line=line,
        fields={
            "expression": expression,
            "where": session.where(expression),
            "claimed": claimed,
            "compare": compare,
        },
        confidence=0.7,
        recognizer=NAME,
        slug="array-" + expression,
        inputs=session.inputs(expression),
    )


_STATED = re.compile(r"#[^\n]*\d")
"""What a block needs for anything to be stated in it: a comment with a digit."""


def recognize(document: Document) -> Iterator[Draft]:
    """Draft ``arrays`` claims for what comments state about arrays built from literals."""
    for code in _python_blocks(document):
        # Only blocks up to the last one that states something are read (the earlier ones for
        # the names they assign), and only from the first one that calls an array library.
        last = next((i for i in range(len(code) - 1, -1, -1) if _states(code[i])), -1)
        if last < 0:
            continue  # nothing is stated in the section's code: no block of it is read
        texts = ("\n".join(line.text for line in block.lines) for block in code[: last + 1])
        first = next((i for i, text in enumerate(texts) if _BUILDS.search(text)), last + 1)
        session = _Session()
        for block in code[first : last + 1]:
            yield from _block_drafts(document, block, session)


def _python_blocks(document: Document) -> Iterator[list[Block]]:
    """The Python code blocks of each section that has any, in lesson order (one pass over
    the blocks: most sections hold no code)."""
    section: list[Block] = []
    current = None
    for block in document.blocks:
        if block.section != current:
            if section:
                yield section
            section, current = [], block.section
        if block.kind == "fence" and _is_python(block):
            section.append(block)
    if section:
        yield section


def _states(block: Block) -> bool:
    """Whether a line of the block holds a comment with a digit (:data:`_STATED`); the
    literal test first, since most lines hold no ``#``."""
    return any("#" in line.text and _STATED.search(line.text) for line in block.lines)


def _is_python(block: Block) -> bool:
    if block.kind != "fence" or len(block.lines) > _MAX_BLOCK_LINES:
        return False
    info = block.info.split()[0].lower() if block.info.split() else ""
    return info in _PYTHON
