"""Kind ``arrays``: the value or shape a line of NumPy/PyTorch code gives for literal arrays.

YAML fields:

``expression``
    One Python expression over NumPy (``np.``/``numpy.``) or PyTorch (``torch.``) arrays, as
    the lesson's code writes it: ``np.dot(x, y)``, ``A + B``, ``(A @ B).T``, ``x.reshape(2, -1)
    .shape``, ``data[1:3, 1:3]``, ``torch.cat([a, b], dim=0)``, ``np.sum(v)``.
``where``
    The names it uses, in the order the code assigns them, each with the expression the code
    assigned (``A: "torch.tensor([[1, 2], [3, 4]])"``, ``C: "A + B"``): constructors of literal
    arrays, of zeros/ones/eye/arange/full, and of random arrays (``torch.randn(2, 3)``), whose
    values are unknown and only their shape is checked.
``claimed``
    What the lesson states for it, as printed: a number (``14``, ``3.0``), nested brackets
    (``[3, 6]``, ``[[5, 6], [8, 9]]``, ``tensor([1., 2.])``, numpy's ``[[1 2] [3 4]]``), or a
    shape (``(2, 3)``, ``torch.Size([2, 3])``, ``2x3``).
``compare``
    ``value`` (every element at its printed precision) or ``shape`` (the dimensions, exactly).

The expression is read by Python's own parser (``ast.parse``, which compiles and runs nothing)
and only a whitelist of its nodes is interpreted here, with numpy: names from ``where``,
numbers, brackets, ``+ - * / ** @``, indexing with integers, slices and ``None``, ``.T`` and
``.shape``, and the calls in :data:`FUNCTIONS` and :data:`METHODS` with literal arguments.
Anything else (another function, a string, a keyword we do not know, ``//``) is an error: no
check. Operations whose meaning differs between the libraries follow the library that built the
array (``transpose(0, 1)`` swaps two dimensions in PyTorch and permutes axes in NumPy).
Written by hand because no library evaluates array code without running it.

Example::

    kind: arrays
    quote: "s = p + q  # [3, 6]"
    expression: p + q
    where: {p: "np.array([2, 5])", q: "np.array([1, 1])"}
    claimed: "[3, 6]"
    compare: value
"""

from __future__ import annotations

import ast
import contextvars
import dataclasses
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from pydantic import Field, field_validator

from checkers.kinds.base import Context, KindInput, Outcome, error, from_comparisons
from checkers.numbers import Comparison, NumberError, compare, parse_printed

__all__ = ["FUNCTIONS", "METHODS", "ArrayError", "Input", "check", "evaluate", "read_printed"]

MAX_TEXT = 400
"""Characters of one expression (a line of code)."""
MAX_ELEMENTS = 65_536
"""Elements a known array may hold; larger ones are known by their shape only."""
MAX_DIMENSIONS = 8
"""Dimensions of an array."""
MAX_SHAPE_ELEMENTS = 1 << 40
"""Elements an array known only by its shape may stand for (none is ever allocated)."""


class ArrayError(ValueError):
    """The expression cannot be read or computed (the message says why)."""


@dataclass(frozen=True)
class Array:
    """A value of the array language: its elements, or only its shape, and its library."""

    values: np.ndarray | None
    """The elements (float64), or None when only the shape is known (random arrays)."""
    shape: tuple[int, ...]
    """Its dimensions."""
    torch: bool
    """Built by PyTorch (its semantics for transpose, sum(dim=…), size())."""

    @property
    def known(self) -> bool:
        return self.values is not None


@dataclass(frozen=True)
class Layer:
    """A ``torch.nn`` layer built with literal sizes: what it does to a shape."""

    kind: str
    """Its class name (``Linear``, ``Embedding``, ``LayerNorm``, ``ReLU``…)."""
    sizes: tuple[int, ...]
    """Its literal sizes (``Linear(512, 256)``: (512, 256)); the dimension of a softmax."""


Value = Array | Layer | float | tuple[int, ...] | list["Value"]

_SCALARS: contextvars.ContextVar[dict[str, float]] = contextvars.ContextVar("scalars")
"""Names assigned a number, read where a literal size may stand (``torch.arange(n)``)."""


class Input(KindInput):
    """Fields of an ``arrays`` claim."""

    expression: str = Field(min_length=1, max_length=MAX_TEXT)
    """The Python expression over arrays, as the code writes it."""
    where: dict[str, str] = Field(default_factory=dict)
    """Each name the expression uses → the expression the code assigned it, in order."""
    claimed: str = Field(min_length=1, max_length=20_000)
    """The printed value or shape."""
    compare: Literal["value", "shape"] = "value"
    """Compare the elements (at their printed precision) or the dimensions (exactly)."""

    @field_validator("where")
    @classmethod
    def _names(cls, value: dict[str, str]) -> dict[str, str]:
        for name, text in value.items():
            if not name.isidentifier():
                raise ValueError(f"{name!r} is not a name")
            if len(text) > MAX_TEXT:
                raise ValueError(f"the expression of {name!r} is longer than {MAX_TEXT}")
        return value


def check(fields: Input, context: Context) -> Outcome:
    """Recompute the expression from ``where`` and compare it with the printed value."""
    try:
        names: dict[str, Value] = {}
        for name, text in fields.where.items():
            names[name] = evaluate(text, names)
        result = evaluate(fields.expression, names)
    except ArrayError as problem:
        return error(f"{fields.expression}: {problem}", fields.claimed)
    what = fields.expression
    if fields.compare == "shape":
        return _compare_shape(fields.claimed, result, what)
    return _compare_values(fields.claimed, result, what, context)


# ----------------------------------------------------------------------------- comparing

_SHAPE_TEXT = re.compile(
    r"^\s*(?:torch\.Size\(\s*\[(?P<size>[\d\s,]*)\]\s*\)|\((?P<tuple>[\d\s,]*)\)|"
    r"\[(?P<list>[\d\s,]*)\]|(?P<times>\d+(?:\s*[x×]\s*\d+)+))\s*$"
)


def read_shape(text: str) -> tuple[int, ...] | None:
    """A printed shape (``(2, 3)``, ``(5,)``, ``torch.Size([2, 3])``, ``[2, 3]``, ``2x3``)."""
    match = _SHAPE_TEXT.match(text)
    if match is None:
        return None
    inner = match.group("size") or match.group("tuple") or match.group("list")
    if match.group("times") is not None:
        parts = re.split(r"\s*[x×]\s*", match.group("times"))
    else:
        parts = [p.strip() for p in (inner or "").split(",") if p.strip()]
    if not all(p.isdigit() for p in parts) or len(parts) > MAX_DIMENSIONS:
        return None
    return tuple(int(p) for p in parts)


def _shape_of(result: Value) -> tuple[int, ...] | None:
    """The dimensions of an array, or the shape a ``.shape`` expression gave."""
    if isinstance(result, Array):
        return result.shape
    if isinstance(result, tuple):  # .shape itself, printed as the shape it is
        return result
    return None


def _compare_shape(claimed: str, result: Value, what: str) -> Outcome:
    printed = read_shape(claimed)
    if printed is None:
        return error(f"{claimed!r} is not a shape such as (2, 3) or torch.Size([2, 3])", claimed)
    shape = _shape_of(result)
    if shape is None:
        return error(f"{what} is a number, not an array with a shape", claimed)
    expected = "(" + ", ".join(str(n) for n in shape) + (",)" if len(shape) == 1 else ")")
    holds = tuple(printed) == tuple(shape)
    message = (
        f"the shape of {what} is {expected} (dimensions compared exactly)"
        if holds
        else f"the shape of {what} is {expected}, not {claimed.strip()}"
    )
    return Outcome(
        verdict="pass" if holds else "fail",
        claimed=claimed.strip(),
        expected=expected,
        tolerance="exact: dimensions are whole numbers",
        message=message,
    )


_TENSOR_WRAP = re.compile(
    r"^\s*(?:tensor|array)\((?P<inner>.*?)(?:,\s*(?:dtype|device|grad_fn)=[^()]*)?\)\s*$", re.S
)
_NUMBER = re.compile(r"[-−]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|nan|inf|-inf")


def read_printed(text: str) -> tuple[tuple[int, ...], list[str]] | None:
    """A printed value as (shape, element texts in order): ``14``, ``[3, 6]``,
    ``[[1 2] [3 4]]`` (numpy), ``tensor([1., 2.])``; None when it is not one."""
    wrapped = _TENSOR_WRAP.match(text)
    body = wrapped.group("inner") if wrapped else text
    body = body.strip()
    if not body:
        return None
    shape: list[int] = []
    counts: list[int] = []  # per depth: elements seen in the open bracket
    elements: list[str] = []
    depth = 0
    seen_shape: dict[int, int] = {}
    position = 0
    while position < len(body):
        char = body[position]
        if char == "[":
            depth += 1
            if depth > MAX_DIMENSIONS:
                return None
            if counts:
                counts[-1] += 1
            counts.append(0)
            position += 1
        elif char == "]":
            if not counts:
                return None
            count = counts.pop()
            known = seen_shape.setdefault(depth, count)
            if known != count:
                return None  # ragged
            depth -= 1
            position += 1
        elif char in " ,\n\t":
            position += 1
        else:
            match = _NUMBER.match(body, position)
            if match is None:
                return None
            if counts:
                counts[-1] += 1
            elif elements:
                return None  # two bare numbers
            elements.append(match.group().replace("−", "-"))
            position = match.end()
            if depth == 0 and position < len(body):
                return None
    if depth != 0 or not elements:
        return None
    shape = [seen_shape[d] for d in sorted(seen_shape, reverse=False)]
    if shape and math.prod(shape) != len(elements):
        return None
    return tuple(shape), elements


def _compare_values(claimed: str, result: Value, what: str, context: Context) -> Outcome:
    printed = read_printed(claimed)
    if printed is None:
        return error(f"{claimed!r} is not a printed number or array", claimed)
    shape, texts = printed
    if isinstance(result, tuple):  # a shape printed as a list of numbers
        result = Array(np.array(result, dtype=float), (len(result),), False)
    if isinstance(result, (list, Layer)):
        return error(f"{what} is not one array or number", claimed)
    if isinstance(result, Array):
        if not result.known:
            return error(f"the values of {what} are random (only its shape is known)", claimed)
        assert result.values is not None
        if tuple(result.shape) != shape and not (not shape and result.values.size == 1):
            return Outcome(
                verdict="fail",
                claimed=claimed.strip(),
                expected=_shape_text(result.shape),
                tolerance="exact: dimensions are whole numbers",
                message=(
                    f"{what} has shape {_shape_text(result.shape)}, but the printed value has "
                    f"shape {_shape_text(shape)}"
                ),
            )
        values = [float(v) for v in result.values.reshape(-1)]
    else:
        if shape not in ((), (1,)):
            return error(f"{what} is a number, but {claimed.strip()} is an array", claimed)
        values = [float(result)]
    comparisons: list[Comparison] = []
    for text, value in zip(texts, values, strict=True):
        if not math.isfinite(value):
            return error(f"{what} has an undefined element ({value})", claimed)
        try:
            number = parse_printed(text[:-1] if text.endswith(".") else text)
        except NumberError:
            return error(f"{text!r} is not a printed number", claimed)
        comparisons.append(_loose(compare(number, value, context.tolerance), value))
    return from_comparisons(comparisons, what=what, vector=len(comparisons) > 1)


def _loose(comparison: Comparison, value: float) -> Comparison:
    """Arrays computed in float32 differ from float64 in the 7th significant digit: a value
    printed at that boundary is still right."""
    if comparison.ok:
        return comparison
    bound = comparison.tolerance
    slack = abs(value) * 1e-6
    if abs(value - comparison.printed.value) <= bound.absolute + slack:
        return dataclasses.replace(comparison, ok=True, slip=False)
    return comparison


def _shape_text(shape: Sequence[int]) -> str:
    return "(" + ", ".join(str(n) for n in shape) + (",)" if len(shape) == 1 else ")")


# ----------------------------------------------------------------------------- evaluating

_LIBRARIES = {"np": False, "numpy": False, "torch": True}


def evaluate(text: str, names: dict[str, Value]) -> Value:
    """The value of one expression of the array language (see the module docstring)."""
    if len(text) > MAX_TEXT:
        raise ArrayError(f"longer than {MAX_TEXT} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        raise ArrayError("not one Python expression") from None
    token = _SCALARS.set({k: v for k, v in names.items() if isinstance(v, float)})
    try:
        return _Evaluator(names).value(tree.body)
    except RecursionError:
        raise ArrayError("nested too deeply") from None
    except (ValueError, TypeError, IndexError, ArithmeticError) as problem:
        raise ArrayError(str(problem) or type(problem).__name__) from None
    finally:
        _SCALARS.reset(token)


def _array(values: Any, torch: bool) -> Array:
    data = np.asarray(values, dtype=float)
    if data.size > MAX_ELEMENTS or data.ndim > MAX_DIMENSIONS:
        raise ArrayError(f"more than {MAX_ELEMENTS} elements")
    return Array(data, tuple(data.shape), torch)


def _unknown(shape: Sequence[int], torch: bool) -> Array:
    shape = tuple(int(n) for n in shape)
    if len(shape) > MAX_DIMENSIONS or any(n < 0 for n in shape):
        raise ArrayError(f"not a shape: {shape}")
    if math.prod(shape) > MAX_SHAPE_ELEMENTS:
        raise ArrayError("too many elements")
    return Array(None, shape, torch)


def _shaped(array: Array, shape: Sequence[int], values: np.ndarray | None = None) -> Array:
    if values is not None and array.known:
        return Array(values, tuple(values.shape), array.torch)
    return _unknown(shape, array.torch)


def _literal(node: ast.expr) -> Any:
    """A literal list/tuple/number (the argument of a constructor), or a name assigned a
    number (a whole one reads as an int, as Python keeps it)."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float, bool):
        return node.value
    if isinstance(node, ast.Name):
        scalars = _SCALARS.get({})
        if node.id in scalars:
            number = scalars[node.id]
            return int(number) if number.is_integer() else number
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _literal(node.operand)
        if isinstance(inner, (int, float)):
            return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, (ast.List, ast.Tuple)):
        if len(node.elts) > MAX_ELEMENTS:
            raise ArrayError("too many elements")
        return [_literal(item) for item in node.elts]
    raise ArrayError(f"not a literal: {ast.unparse(node)[:40]}")


def _integers(values: Sequence[Any]) -> tuple[int, ...]:
    flat: list[Any] = []
    for value in values:
        flat.extend(value if isinstance(value, (list, tuple)) else [value])
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in flat):
        raise ArrayError("dimensions must be whole numbers")
    return tuple(flat)


def _axis(value: Any, ndim: int) -> int:
    if not isinstance(value, int) or not -ndim <= value < max(ndim, 1):
        raise ArrayError(f"dimension {value} out of range for {ndim} dimensions")
    return value % max(ndim, 1)


class _Evaluator:
    """Walks the whitelisted nodes of one parsed expression."""

    def __init__(self, names: dict[str, Value]) -> None:
        self._names = names

    def value(self, node: ast.expr) -> Value:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            if isinstance(node.value, bool):
                raise ArrayError("a truth value is not a number")
            return float(node.value)
        if isinstance(node, ast.Name):
            if node.id not in self._names:
                raise ArrayError(f"unknown name {node.id!r}")
            return self._names[node.id]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            operand = self.value(node.operand)
            sign = -1.0 if isinstance(node.op, ast.USub) else 1.0
            return self._elementwise(lambda a, b: a * b, operand, sign)
        if isinstance(node, ast.BinOp):
            return self._binary(node)
        if isinstance(node, ast.Attribute):
            return self._attribute(node)
        if isinstance(node, ast.Subscript):
            return self._index(self._array(self.value(node.value)), node.slice)
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, (ast.List, ast.Tuple)):
            return [self.value(item) for item in node.elts]
        raise ArrayError(f"cannot read {type(node).__name__}")

    # -- helpers
    @staticmethod
    def _array(value: Value) -> Array:
        if isinstance(value, Array):
            return value
        raise ArrayError("not an array")

    def _binary(self, node: ast.BinOp) -> Value:
        left, right = self.value(node.left), self.value(node.right)
        if isinstance(node.op, ast.MatMult):
            return self._matmul(self._array(left), self._array(right))
        operations: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
            ast.Add: np.add,
            ast.Sub: np.subtract,
            ast.Mult: np.multiply,
            ast.Div: np.divide,
            ast.Pow: np.power,
        }
        operation = operations.get(type(node.op))
        if operation is None:
            raise ArrayError(f"the operator {type(node.op).__name__} is not read")
        return self._elementwise(operation, left, right)

    def _elementwise(
        self, operation: Callable[[Any, Any], Any], left: Value, right: Value
    ) -> Value:
        if isinstance(left, float) and isinstance(right, float):
            with np.errstate(all="raise"):
                try:
                    result = float(operation(left, right))
                except FloatingPointError as problem:
                    raise ArrayError(str(problem)) from None
            if not math.isfinite(result):
                raise ArrayError("the result is not finite")
            return result
        if not (isinstance(left, (Array, float)) and isinstance(right, (Array, float))):
            raise ArrayError("an operation on something that is not an array or a number")
        arrays = [v for v in (left, right) if isinstance(v, Array)]
        torch = any(a.torch for a in arrays)
        shapes = [v.shape if isinstance(v, Array) else () for v in (left, right)]
        shape = np.broadcast_shapes(*shapes)
        if all(a.known for a in arrays):
            a = left.values if isinstance(left, Array) else left
            b = right.values if isinstance(right, Array) else right
            with np.errstate(all="ignore"):
                return _array(operation(a, b), torch)
        return _unknown(shape, torch)

    def _matmul(self, left: Array, right: Array) -> Array:
        a, b = left.shape, right.shape
        if not a or not b:
            raise ArrayError("matmul of a 0-dimensional array")
        a2 = a if len(a) > 1 else (1, *a)
        b2 = b if len(b) > 1 else (*b, 1)
        if a2[-1] != b2[-2]:
            raise ArrayError(f"shapes {a} and {b} cannot be multiplied ({a2[-1]} ≠ {b2[-2]})")
        batch = np.broadcast_shapes(a2[:-2], b2[:-2])
        shape = (*batch, *a2[-2:-1] * (len(a) > 1), *b2[-1:] * (len(b) > 1))
        torch = left.torch or right.torch
        if left.known and right.known:
            assert left.values is not None and right.values is not None
            return _array(np.matmul(left.values, right.values), torch)
        return _unknown(shape, torch)

    def _attribute(self, node: ast.Attribute) -> Value:
        if (
            isinstance(node.value, ast.Name)
            and node.value.id == "math"
            and node.attr in ("pi", "e")
        ):
            return math.pi if node.attr == "pi" else math.e
        base = self.value(node.value)
        array = self._array(base)
        if node.attr == "T":
            return self._transpose(array, tuple(reversed(range(len(array.shape)))))
        if node.attr == "shape":
            return array.shape
        if node.attr == "ndim":
            return float(len(array.shape))
        if node.attr == "size" and not array.torch:
            return float(math.prod(array.shape))
        raise ArrayError(f"the attribute .{node.attr} is not read")

    def _transpose(self, array: Array, axes: tuple[int, ...]) -> Array:
        if sorted(axes) != list(range(len(array.shape))):
            raise ArrayError(f"axes {axes} do not permute {len(array.shape)} dimensions")
        shape = tuple(array.shape[i] for i in axes)
        values = None if array.values is None else np.transpose(array.values, axes)
        return _shaped(array, shape, values)

    def _index(self, array: Array, index: ast.expr) -> Value:
        parts = index.elts if isinstance(index, ast.Tuple) else [index]
        key: list[Any] = []
        for part in parts:
            if isinstance(part, ast.Slice):
                bounds = [
                    None if p is None else _literal(p) for p in (part.lower, part.upper, part.step)
                ]
                if not all(b is None or isinstance(b, int) for b in bounds):
                    raise ArrayError("slice bounds must be whole numbers")
                key.append(slice(*bounds))
            elif isinstance(part, ast.Constant) and part.value is None:
                key.append(None)
            elif isinstance(part, ast.Constant) and part.value is Ellipsis:
                key.append(Ellipsis)
            else:
                literal = _literal(part)
                if not isinstance(literal, int) or isinstance(literal, bool):
                    raise ArrayError("an index must be a whole number, a slice or None")
                key.append(literal)
        proxy = np.broadcast_to(np.zeros((), dtype=bool), array.shape)
        shape = proxy[tuple(key)].shape
        values = None if array.values is None else array.values[tuple(key)]
        if values is not None and not isinstance(values, np.ndarray):
            values = np.asarray(values)
        return _shaped(array, shape, values)

    def _keywords(self, node: ast.Call, allowed: set[str]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for keyword in node.keywords:
            if keyword.arg is None or keyword.arg not in allowed:
                raise ArrayError(f"the keyword {keyword.arg}= is not read")
            if keyword.arg == "dtype":
                found["dtype"] = ast.unparse(keyword.value)
                continue
            found[keyword.arg] = _literal(keyword.value)
        dtype = found.pop("dtype", None)
        if dtype is not None and not re.fullmatch(
            r"(?:np|numpy|torch)\.float(?:16|32|64)?|float|torch\.(?:half|double|bfloat16)", dtype
        ):
            raise ArrayError(f"dtype {dtype} changes the values")
        return found

    def _call(self, node: ast.Call) -> Value:
        function = node.func
        if isinstance(function, ast.Name) and isinstance(self._names.get(function.id), Layer):
            layer = self._names[function.id]
            assert isinstance(layer, Layer)
            if len(node.args) != 1 or node.keywords:
                raise ArrayError("a layer takes one array")
            return _apply_layer(layer, self._array(self.value(node.args[0])))
        if isinstance(function, ast.Attribute):
            owner = ast.unparse(function.value)
            if owner == "math" and function.attr in _MATH:
                arguments = self.arguments(node)
                if len(arguments) != 1 or node.keywords or not isinstance(arguments[0], float):
                    raise ArrayError(f"math.{function.attr} takes one number")
                return _scalar(_MATH[function.attr], arguments[0])
            if owner in ("nn", "torch.nn"):
                return _layer(function.attr, node)
            if owner in ("F", "torch.nn.functional", "torch") and function.attr in _ACTIVATIONS:
                arguments = self.arguments(node)
                keywords = self._keywords(node, {"dim"})
                if len(arguments) != 1:
                    raise ArrayError(f"{function.attr} takes one array")
                dim = keywords.get("dim")
                return _activate(function.attr, self._array(arguments[0]), dim)
            library = owner.split(".")[0]
            if library in _LIBRARIES and owner in (
                "np",
                "numpy",
                "torch",
                "np.random",
                "numpy.random",
                "torch.linalg",
                "np.linalg",
                "numpy.linalg",
            ):
                name = (
                    owner.split(".", 1)[1] + "." + function.attr if "." in owner else function.attr
                )
                entry = FUNCTIONS.get(name)
                if entry is None:
                    raise ArrayError(f"{owner}.{function.attr} is not read")
                return entry(self, node, _LIBRARIES[library])
            method = METHODS.get(function.attr)
            if method is None:
                raise ArrayError(f".{function.attr}() is not read")
            return method(self, self._array(self.value(function.value)), node)
        raise ArrayError(f"the call {ast.unparse(function)[:40]}() is not read")

    def arguments(self, node: ast.Call) -> list[Value]:
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise ArrayError("*args are not read")
        return [self.value(a) for a in node.args]


_MATH: dict[str, Callable[[float], float]] = {"sqrt": math.sqrt, "exp": math.exp, "log": math.log}
"""``math.`` functions of one number read (with ``math.pi`` and ``math.e``)."""


def _scalar(function: Callable[[float], float], x: float) -> float:
    try:
        result = function(x)
    except (ValueError, OverflowError) as problem:
        raise ArrayError(str(problem)) from None
    if not math.isfinite(result):
        raise ArrayError("the result is not finite")
    return result


# Layers and activations

_ACTIVATIONS = frozenset({"relu", "sigmoid", "tanh", "softmax", "gelu", "silu"})
_SHAPE_KEEPING = frozenset({"ReLU", "GELU", "SiLU", "Tanh", "Sigmoid", "Dropout", "Identity"})


def _layer(kind: str, node: ast.Call) -> Layer:
    """``nn.Linear(512, 256)`` and the other layers read, with their literal sizes."""
    arguments = [_literal(a) for a in node.args]
    keywords = {k.arg: k.value for k in node.keywords}
    if kind in ("Linear", "Embedding"):
        unknown = set(keywords) - {"bias", "padding_idx", "dtype", "device"}
        if len(arguments) != 2 or unknown:
            raise ArrayError(f"nn.{kind} takes two literal sizes")
        return Layer(kind, _integers(arguments))
    if kind in ("LayerNorm", "RMSNorm"):
        if len(arguments) != 1 or set(keywords) - {"eps", "elementwise_affine", "bias"}:
            raise ArrayError(f"nn.{kind} takes one literal size")
        return Layer(kind, _integers(arguments))
    if kind == "Softmax":
        dim = keywords.get("dim")
        if arguments or dim is None:
            raise ArrayError("nn.Softmax takes dim=")
        return Layer(kind, (_literal(dim),))
    if kind in _SHAPE_KEEPING:
        return Layer(kind, ())
    raise ArrayError(f"nn.{kind} is not read")


def _apply_layer(layer: Layer, array: Array) -> Value:
    shape = array.shape
    if layer.kind == "Linear":
        inputs, outputs = layer.sizes
        if not shape or shape[-1] != inputs:
            raise ArrayError(f"nn.Linear({inputs}, {outputs}) applied to shape {shape}")
        return _unknown((*shape[:-1], outputs), True)
    if layer.kind == "Embedding":
        count, width = layer.sizes
        if array.values is not None and (
            np.any(array.values != np.round(array.values))
            or np.any(array.values < 0)
            or np.any(array.values >= count)
        ):
            raise ArrayError(f"indices outside nn.Embedding({count}, {width})")
        return _unknown((*shape, width), True)
    if layer.kind in ("LayerNorm", "RMSNorm"):
        if not shape or shape[-1] != layer.sizes[0]:
            raise ArrayError(f"nn.{layer.kind}({layer.sizes[0]}) applied to shape {shape}")
        return _unknown(shape, True)
    if layer.kind == "Softmax":
        return _activate("softmax", array, layer.sizes[0])
    if layer.kind in ("Dropout", "Identity") or array.values is None:
        return _unknown(shape, True) if layer.kind == "Dropout" else array
    return _activate(layer.kind.lower(), array, None)


def _activate(name: str, array: Array, dim: Any) -> Array:
    """An activation of known values, computed; of random ones, their shape."""
    if name == "softmax" and dim is None:
        raise ArrayError("softmax needs dim=")
    if dim is not None:
        _axis(dim, len(array.shape))
    if array.values is None:
        return array
    x = array.values
    with np.errstate(all="ignore"):
        if name == "relu":
            result = np.maximum(x, 0.0)
        elif name == "sigmoid":
            result = 1.0 / (1.0 + np.exp(-x))
        elif name == "tanh":
            result = np.tanh(x)
        elif name == "silu":
            result = x / (1.0 + np.exp(-x))
        elif name == "gelu":
            result = 0.5 * x * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))
        else:
            shifted = np.exp(x - np.max(x, axis=dim, keepdims=True))
            result = shifted / np.sum(shifted, axis=dim, keepdims=True)
    return _array(result, array.torch)


# Constructors and functions: (evaluator, call node, torch?) → value


def _construct(evaluator: _Evaluator, node: ast.Call, torch: bool) -> Value:
    evaluator._keywords(node, {"dtype", "requires_grad"})
    if len(node.args) != 1:
        raise ArrayError("a constructor takes one literal")
    return _array(_literal(node.args[0]), torch)


def _filled(fill: float | None) -> Callable[[_Evaluator, ast.Call, bool], Value]:
    def build(evaluator: _Evaluator, node: ast.Call, torch: bool) -> Value:
        evaluator._keywords(node, {"dtype", "requires_grad", "device"})
        if not torch and len(node.args) != 1:
            raise ArrayError("numpy takes the shape as one argument: np.zeros((3, 4))")
        shape = _integers([_literal(a) for a in node.args])
        if fill is None or math.prod(shape) > MAX_ELEMENTS:
            return _unknown(shape, torch)
        return _array(np.full(shape, fill), torch)

    return build


def _full(evaluator: _Evaluator, node: ast.Call, torch: bool) -> Value:
    evaluator._keywords(node, {"dtype"})
    if len(node.args) != 2:
        raise ArrayError("full takes a shape and a value")
    shape, fill = _integers([_literal(node.args[0])]), _literal(node.args[1])
    if not isinstance(fill, (int, float)):
        raise ArrayError("full takes a number")
    if math.prod(shape) > MAX_ELEMENTS:
        return _unknown(shape, torch)
    return _array(np.full(shape, float(fill)), torch)


def _arange(evaluator: _Evaluator, node: ast.Call, torch: bool) -> Value:
    evaluator._keywords(node, {"dtype"})
    bounds = [_literal(a) for a in node.args]
    if not 1 <= len(bounds) <= 3 or not all(isinstance(b, (int, float)) for b in bounds):
        raise ArrayError("arange takes one to three numbers")
    count = (
        len(range(*[int(b) for b in bounds])) if all(isinstance(b, int) for b in bounds) else None
    )
    if count is None or count > MAX_ELEMENTS:
        raise ArrayError("arange of whole numbers, at most 65,536 of them")
    return _array(np.arange(*bounds), torch)


def _eye(evaluator: _Evaluator, node: ast.Call, torch: bool) -> Value:
    evaluator._keywords(node, {"dtype"})
    sizes = _integers([_literal(a) for a in node.args])
    if len(sizes) not in (1, 2) or math.prod(sizes) > MAX_ELEMENTS:
        raise ArrayError("eye takes one or two sizes")
    return _array(np.eye(sizes[0], sizes[-1]), torch)


def _random(evaluator: _Evaluator, node: ast.Call, torch: bool) -> Value:
    evaluator._keywords(node, {"dtype", "requires_grad", "device"})
    return _unknown(_integers([_literal(a) for a in node.args]), torch)


def _reduction(
    operation: Callable[..., np.ndarray],
) -> Callable[[_Evaluator, ast.Call, bool], Value]:
    def reduce(evaluator: _Evaluator, node: ast.Call, torch: bool) -> Value:
        arguments = evaluator.arguments(node)
        if len(arguments) != 1:
            raise ArrayError("a reduction takes one array")
        return _reduce(operation, _as_array(arguments[0], torch), node, evaluator)

    return reduce


def _as_array(value: Value, torch: bool) -> Array:
    if isinstance(value, Array):
        return value
    if isinstance(value, float):
        return _array(value, torch)
    if isinstance(value, list) and all(isinstance(v, float) for v in value):
        return _array([float(v) for v in value if isinstance(v, float)], torch)
    raise ArrayError("not an array")


def _reduce(
    operation: Callable[..., Any], array: Array, node: ast.Call, evaluator: _Evaluator
) -> Value:
    keywords = evaluator._keywords(node, {"axis", "dim", "keepdim", "keepdims"})
    axis = keywords.get("axis", keywords.get("dim"))
    keep = bool(keywords.get("keepdims", keywords.get("keepdim", False)))
    if operation in (np.max, np.min) and array.torch and axis is not None:
        raise ArrayError("torch max/min along a dimension returns values and indices")
    if axis is None:
        if keep:
            raise ArrayError("keepdims without an axis is not read")
        if array.values is None:
            raise ArrayError("the values are random")
        return float(operation(array.values))
    axis = _axis(axis, len(array.shape))
    shape = list(array.shape)
    if keep:
        shape[axis] = 1
    else:
        del shape[axis]
    values = (
        None
        if array.values is None
        else np.asarray(operation(array.values, axis=axis, keepdims=keep))
    )
    return _shaped(array, shape, values)


def _dot(evaluator: _Evaluator, node: ast.Call, torch: bool) -> Value:
    arguments = evaluator.arguments(node)
    if len(arguments) != 2 or node.keywords:
        raise ArrayError("dot takes two arrays")
    left, right = (_as_array(a, torch) for a in arguments)
    if torch and (len(left.shape) != 1 or len(right.shape) != 1):
        raise ArrayError("torch.dot takes two vectors")
    if len(left.shape) > 2 or len(right.shape) > 2:
        raise ArrayError("dot of arrays beyond two dimensions is not read")
    result = evaluator._matmul(left, right)
    if not result.shape and result.values is not None:
        return float(result.values)
    return result


def _matmul_function(evaluator: _Evaluator, node: ast.Call, torch: bool) -> Value:
    arguments = evaluator.arguments(node)
    if len(arguments) != 2 or node.keywords:
        raise ArrayError("matmul takes two arrays")
    result = evaluator._matmul(*(_as_array(a, torch) for a in arguments))
    if not result.shape and result.values is not None:
        return float(result.values)
    return result


def _elementwise_function(
    operation: Callable[[Any, Any], Any],
) -> Callable[[_Evaluator, ast.Call, bool], Value]:
    def apply(evaluator: _Evaluator, node: ast.Call, torch: bool) -> Value:
        arguments = evaluator.arguments(node)
        if len(arguments) != 2 or node.keywords:
            raise ArrayError("takes two operands")
        left, right = (a if isinstance(a, float) else _as_array(a, torch) for a in arguments)
        return evaluator._elementwise(operation, left, right)

    return apply


def _unary_function(
    operation: Callable[[Any], Any],
) -> Callable[[_Evaluator, ast.Call, bool], Value]:
    def apply(evaluator: _Evaluator, node: ast.Call, torch: bool) -> Value:
        arguments = evaluator.arguments(node)
        if len(arguments) != 1 or node.keywords:
            raise ArrayError("takes one operand")
        value = arguments[0]
        if isinstance(value, float):
            with np.errstate(all="raise"):
                try:
                    return float(operation(value))
                except FloatingPointError as problem:
                    raise ArrayError(str(problem)) from None
        array = _as_array(value, torch)
        if array.values is None:
            return array
        with np.errstate(all="ignore"):
            return _array(operation(array.values), array.torch)

    return apply


def _join(stack: bool) -> Callable[[_Evaluator, ast.Call, bool], Value]:
    def join(evaluator: _Evaluator, node: ast.Call, torch: bool) -> Value:
        keywords = evaluator._keywords(node, {"axis", "dim"})
        arguments = evaluator.arguments(node)
        if len(arguments) == 2 and not keywords and isinstance(arguments[1], float):
            keywords["axis"] = int(arguments[1])
            arguments = arguments[:1]
        if len(arguments) != 1 or not isinstance(arguments[0], list) or not arguments[0]:
            raise ArrayError("takes a list of arrays")
        arrays = [_as_array(a, torch) for a in arguments[0]]
        ndim = len(arrays[0].shape)
        axis = keywords.get("axis", keywords.get("dim", 0))
        if any(len(a.shape) != ndim for a in arrays):
            raise ArrayError("arrays of different dimensions")
        axis = _axis(axis, ndim + stack)
        if stack:
            if any(a.shape != arrays[0].shape for a in arrays):
                raise ArrayError("stack needs equal shapes")
            shape = list(arrays[0].shape)
            shape.insert(axis, len(arrays))
        else:
            rest = {a.shape[:axis] + a.shape[axis + 1 :] for a in arrays}
            if len(rest) != 1:
                raise ArrayError("shapes differ outside the joined dimension")
            shape = list(arrays[0].shape)
            shape[axis] = sum(a.shape[axis] for a in arrays)
        either = any(a.torch for a in arrays) or torch
        known = [a.values for a in arrays if a.values is not None]
        if len(known) == len(arrays):
            join_values = np.stack if stack else np.concatenate
            return _array(join_values(known, axis=axis), either)
        return _unknown(shape, either)

    return join


def _reshape_function(evaluator: _Evaluator, node: ast.Call, torch: bool) -> Value:
    arguments = evaluator.arguments(node)
    if len(arguments) != 2:
        raise ArrayError("reshape takes an array and a shape")
    return _reshape(_as_array(arguments[0], torch), node.args[1:])


def _transpose_function(evaluator: _Evaluator, node: ast.Call, torch: bool) -> Value:
    if not node.args:
        raise ArrayError("transpose takes an array")
    array = _as_array(evaluator.value(node.args[0]), torch)
    return _transpose_method(
        evaluator, array, ast.Call(func=node.func, args=node.args[1:], keywords=node.keywords)
    )


FUNCTIONS: dict[str, Callable[[_Evaluator, ast.Call, bool], Value]] = {
    "array": _construct,
    "tensor": _construct,
    "asarray": _construct,
    "FloatTensor": _construct,
    "zeros": _filled(0.0),
    "ones": _filled(1.0),
    "empty": _filled(None),
    "full": _full,
    "arange": _arange,
    "eye": _eye,
    "randn": _random,
    "rand": _random,
    "random.randn": _random,
    "random.rand": _random,
    "dot": _dot,
    "matmul": _matmul_function,
    "mm": _matmul_function,
    "sum": _reduction(np.sum),
    "mean": _reduction(np.mean),
    "max": _reduction(np.max),
    "min": _reduction(np.min),
    "prod": _reduction(np.prod),
    "add": _elementwise_function(np.add),
    "subtract": _elementwise_function(np.subtract),
    "sub": _elementwise_function(np.subtract),
    "multiply": _elementwise_function(np.multiply),
    "mul": _elementwise_function(np.multiply),
    "divide": _elementwise_function(np.divide),
    "div": _elementwise_function(np.divide),
    "sqrt": _unary_function(np.sqrt),
    "exp": _unary_function(np.exp),
    "abs": _unary_function(np.abs),
    "square": _unary_function(np.square),
    "concatenate": _join(stack=False),
    "cat": _join(stack=False),
    "stack": _join(stack=True),
    "reshape": _reshape_function,
    "transpose": _transpose_function,
}
"""``np.``/``torch.`` functions read, by name after the library (``random.randn``)."""


# Methods: (evaluator, array, call node) → value


def _reshape(array: Array, arguments: Sequence[ast.expr]) -> Array:
    shape = list(_integers([_literal(a) for a in arguments]))
    total = math.prod(array.shape)
    if shape.count(-1) > 1 or any(n < -1 for n in shape):
        raise ArrayError(f"not a shape: {tuple(shape)}")
    if -1 in shape:
        known = math.prod(n for n in shape if n != -1)
        if known == 0 or total % known:
            raise ArrayError(f"cannot reshape {array.shape} into {tuple(shape)}")
        shape[shape.index(-1)] = total // known
    if math.prod(shape) != total:
        raise ArrayError(f"cannot reshape {array.shape} ({total} elements) into {tuple(shape)}")
    values = None if array.values is None else array.values.reshape(shape)
    return _shaped(array, shape, values)


def _reshape_method(evaluator: _Evaluator, array: Array, node: ast.Call) -> Value:
    evaluator._keywords(node, set())
    return _reshape(array, node.args)


def _transpose_method(evaluator: _Evaluator, array: Array, node: ast.Call) -> Value:
    evaluator._keywords(node, set())
    axes = _integers([_literal(a) for a in node.args])
    ndim = len(array.shape)
    if not axes:
        if array.torch and ndim != 2:
            raise ArrayError("torch transpose needs two dimensions")
        return evaluator._transpose(array, tuple(reversed(range(ndim))))
    if array.torch:
        if len(axes) != 2:
            raise ArrayError("torch transpose swaps two dimensions")
        order = list(range(ndim))
        first, second = _axis(axes[0], ndim), _axis(axes[1], ndim)
        order[first], order[second] = order[second], order[first]
        return evaluator._transpose(array, tuple(order))
    return evaluator._transpose(array, tuple(_axis(a, ndim) for a in axes))


def _permute(evaluator: _Evaluator, array: Array, node: ast.Call) -> Value:
    axes = _integers([_literal(a) for a in node.args])
    return evaluator._transpose(array, tuple(_axis(a, len(array.shape)) for a in axes))


def _t(evaluator: _Evaluator, array: Array, node: ast.Call) -> Value:
    if node.args or len(array.shape) > 2:
        raise ArrayError(".t() transposes at most two dimensions")
    return evaluator._transpose(array, tuple(reversed(range(len(array.shape)))))


def _unsqueeze(evaluator: _Evaluator, array: Array, node: ast.Call) -> Value:
    (dim,) = _integers([_literal(a) for a in node.args]) or (None,)
    if dim is None:
        raise ArrayError("unsqueeze takes a dimension")
    axis = _axis(dim, len(array.shape) + 1)
    shape = list(array.shape)
    shape.insert(axis, 1)
    values = None if array.values is None else np.expand_dims(array.values, axis)
    return _shaped(array, shape, values)


def _squeeze(evaluator: _Evaluator, array: Array, node: ast.Call) -> Value:
    dims = _integers([_literal(a) for a in node.args])
    if dims:
        axis = _axis(dims[0], len(array.shape))
        shape = [n for i, n in enumerate(array.shape) if i != axis or n != 1]
    else:
        shape = [n for n in array.shape if n != 1]
    values = None if array.values is None else array.values.reshape(shape)
    return _shaped(array, shape, values)


def _flatten(evaluator: _Evaluator, array: Array, node: ast.Call) -> Value:
    dims = _integers([_literal(a) for a in node.args])
    ndim = len(array.shape)
    start = _axis(dims[0], ndim) if dims else 0
    end = _axis(dims[1], ndim) if len(dims) > 1 else ndim - 1
    if dims and not array.torch:
        raise ArrayError("numpy flatten takes no dimensions")
    shape = [*array.shape[:start], math.prod(array.shape[start : end + 1]), *array.shape[end + 1 :]]
    values = None if array.values is None else array.values.reshape(shape)
    return _shaped(array, shape, values)


def _method_reduction(
    operation: Callable[..., Any],
) -> Callable[[_Evaluator, Array, ast.Call], Value]:
    def reduce(evaluator: _Evaluator, array: Array, node: ast.Call) -> Value:
        if node.args:
            dim = _literal(node.args[0])
            node = ast.Call(
                func=node.func,
                args=[],
                keywords=[*node.keywords, ast.keyword(arg="axis", value=ast.Constant(dim))],
            )
        return _reduce(operation, array, node, evaluator)

    return reduce


def _size(evaluator: _Evaluator, array: Array, node: ast.Call) -> Value:
    if not array.torch:
        raise ArrayError("numpy's size is an attribute")
    if node.args:
        return float(array.shape[_axis(_literal(node.args[0]), len(array.shape))])
    return array.shape


def _numel(evaluator: _Evaluator, array: Array, node: ast.Call) -> Value:
    return float(math.prod(array.shape))


def _item(evaluator: _Evaluator, array: Array, node: ast.Call) -> Value:
    if math.prod(array.shape) != 1 or array.values is None:
        raise ArrayError(".item() of an array that is not one known number")
    return float(array.values.reshape(-1)[0])


def _dot_method(evaluator: _Evaluator, array: Array, node: ast.Call) -> Value:
    (other,) = evaluator.arguments(node) or (None,)
    if other is None:
        raise ArrayError("dot takes an array")
    result = evaluator._matmul(array, _as_array(other, array.torch))
    return float(result.values) if not result.shape and result.values is not None else result


def _copy(evaluator: _Evaluator, array: Array, node: ast.Call) -> Value:
    evaluator._keywords(node, set())
    if node.args:
        raise ArrayError("takes no arguments")
    return array


def _as_float(evaluator: _Evaluator, array: Array, node: ast.Call) -> Value:
    return _copy(evaluator, array, node)


METHODS: dict[str, Callable[[_Evaluator, Array, ast.Call], Value]] = {
    "reshape": _reshape_method,
    "view": _reshape_method,
    "transpose": _transpose_method,
    "permute": _permute,
    "t": _t,
    "unsqueeze": _unsqueeze,
    "squeeze": _squeeze,
    "flatten": _flatten,
    "sum": _method_reduction(np.sum),
    "mean": _method_reduction(np.mean),
    "max": _method_reduction(np.max),
    "min": _method_reduction(np.min),
    "prod": _method_reduction(np.prod),
    "size": _size,
    "numel": _numel,
    "item": _item,
    "dot": _dot_method,
    "matmul": _dot_method,
    "clone": _copy,
    "copy": _copy,
    "float": _as_float,
    "detach": _copy,
}
"""Array methods read, by name."""
