"""The authoring reference: the JSON Schema of claim files and the description of each kind.

Both are generated, never written a second time: a kind's fields, their types and defaults come
from its ``Input`` model (through pydantic's JSON Schema), each field's line of doc from the
docstring under it, and what the kind checks and its example claim from its module docstring
(the ``Example::`` block). ``lessoncheck kinds`` lists the kinds from :data:`checkers.catalog.KINDS`
alone (no kind module is imported); ``lessoncheck kinds NAME`` and ``lessoncheck schema`` import
the kinds.

A claim in the schema is the common fields (:class:`checkers.claims.ClaimHeader`) plus its kind's
fields, and the claims of a file are a union discriminated on ``kind``, so an editor that reads
the schema completes and checks each claim's own fields.

Field docs are read from the class source here rather than by pydantic's
``use_attribute_docstrings``: that setting parses every kind's module source at import, which
would cost every run seconds for what only the reference shows.
"""

from __future__ import annotations

import ast
import functools
import inspect
import json
import re
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue

from checkers import __version__
from checkers.catalog import KINDS

if TYPE_CHECKING:
    from pydantic_core import core_schema

__all__ = [
    "SCHEMA_DIALECT",
    "Example",
    "claim_file_schema",
    "describe_kind",
    "examples",
    "field_docs",
    "kind_summaries",
    "schema_text",
]

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
"""The JSON Schema dialect pydantic writes."""


def kind_summaries() -> dict[str, str]:
    """Kind name → what a claim of it states, in one line (the catalog's summary without its
    ``Kind name:`` prefix)."""
    return {
        name: entry.summary.removeprefix(f"Kind {name}: ") for name, entry in sorted(KINDS.items())
    }


@functools.cache
def _class_field_docs(cls: type) -> Mapping[str, str]:
    """The docstring under each annotated field of one class body (not its bases)."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):  # a class made at run time has no source
        return {}
    body = ast.parse(source).body[0]
    if not isinstance(body, ast.ClassDef):
        return {}
    docs: dict[str, str] = {}
    for statement, following in zip(body.body, [*body.body[1:], None], strict=True):
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[statement.target.id] = inspect.cleandoc(following.value.value)
    return docs


def field_docs(model: type[BaseModel]) -> dict[str, str]:
    """Field name → its line of doc, for the fields of ``model`` and of its bases."""
    docs: dict[str, str] = {}
    for cls in reversed(model.__mro__):
        if isinstance(cls, type) and issubclass(cls, BaseModel) and cls is not BaseModel:
            docs.update(_class_field_docs(cls))
    return docs


_TEXT_TYPES = ["string", "number"]
"""The JSON types of a text field of a claim (in this order; a printed number is the reverse)."""


class _ClaimSchema(GenerateJsonSchema):
    """pydantic's JSON Schema, adjusted to how lessoncheck reads YAML."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        # "Claimed" for ``claimed`` says nothing; titles are kept for the printed types
        # (``printed number``) and the models, which the reference shows as a field's type.
        return False

    def str_schema(self, schema: core_schema.StringSchema) -> JsonSchemaValue:
        # lessoncheck reads every plain YAML scalar as its text, so ``tokens: [the, 2]`` or
        # ``expression: 4096`` is text to it although YAML (and an editor) reads a number.
        json_schema = super().str_schema(schema)
        json_schema["type"] = list(_TEXT_TYPES)
        return json_schema

    def bool_schema(self, schema: core_schema.BoolSchema) -> JsonSchemaValue:
        # pydantic reads 0 and 1 as false and true (a mask matrix is written in 0s and 1s).
        return {"title": "true or false", "anyOf": [{"type": "boolean"}, {"enum": [0, 1]}]}

    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        json_schema = super().model_schema(schema)
        docs = field_docs(schema["cls"])
        for name, prop in json_schema.get("properties", {}).items():
            if name in docs and "description" not in prop:
                prop["description"] = docs[name]
        return json_schema


def _model_name(kind: str) -> str:
    return "".join(part.capitalize() for part in kind.split("_")) + "Claim"


@functools.cache
def claim_model(kind: str) -> type[BaseModel]:
    """A model of one whole claim of ``kind``: the common fields and the kind's own."""
    from checkers.claims import ClaimHeader
    from checkers.registry import lookup

    name_type: Any = Literal[kind]  # a type built at run time, one per kind
    model: type[BaseModel] = create_model(
        _model_name(kind),
        __base__=(ClaimHeader, lookup(kind).Input),
        __doc__=kind_summaries()[kind],
        kind=(name_type, ...),
    )
    return model


def claim_file_schema() -> dict[str, Any]:
    """The JSON Schema of a claim file: ``lesson:`` and a list of claims, each checked
    against the fields of the kind it names."""
    claims = tuple(claim_model(kind) for kind in sorted(KINDS))
    claim: Any = Annotated[Union[claims], Field(discriminator="kind")]  # noqa: UP007
    claim_file: type[BaseModel] = create_model(
        "ClaimFile",
        __config__=ConfigDict(extra="forbid"),
        __doc__="A lessoncheck claim file: the lesson it checks and the claims quoting it.",
        lesson=(str, Field(description="The lesson these claims quote, from the project root.")),
        claims=(list[claim], Field(description="The claims, each anchored by its quote.")),
    )
    schema = claim_file.model_json_schema(schema_generator=_ClaimSchema)
    schema["title"] = "lessoncheck claim file"
    return {"$schema": SCHEMA_DIALECT, "$comment": f"lessoncheck {__version__}", **schema}


def schema_text() -> str:
    """:func:`claim_file_schema` as the JSON text ``lessoncheck schema`` writes."""
    return json.dumps(claim_file_schema(), indent=2, ensure_ascii=False) + "\n"


_EXAMPLE_HEADING = re.compile(r"(?P<lead>.*?)\s*\bExamples?(?:\s*\((?P<caption>.*)\))?::\s*")
"""``Example::``, ``Examples::``, ``Example (what it shows)::``, or a sentence ending in one."""


@dataclass(frozen=True)
class Example:
    """One example claim of a kind's docstring."""

    caption: str
    """What the docstring says it shows (the parenthesis of ``Example (…)::``), or empty."""
    claim: str
    """The claim as a YAML list item, with ``id``, ``kind`` and ``quote`` filled in where the
    docstring leaves them out."""


def _split_doc(doc: str) -> tuple[str, list[tuple[str, str]]]:
    """A kind's module docstring without its first line, as its prose and its examples
    (caption, body): each paragraph of the indented block under an ``Example::`` line."""
    prose: list[str] = []
    blocks: list[tuple[str, list[str]]] = []
    in_example = False
    for line in doc.splitlines()[1:]:
        heading = _EXAMPLE_HEADING.fullmatch(line)
        if heading:
            in_example = True
            blocks.append((heading["caption"] or "", []))
            if heading["lead"]:
                prose.append(heading["lead"])
        elif in_example and (not line or line.startswith(" ")):
            blocks[-1][1].append(line)
        else:
            in_example = False
            prose.append(line)
    found = [
        (caption, paragraph.strip("\n"))
        for caption, block in blocks
        for paragraph in textwrap.dedent("\n".join(block)).split("\n\n")
        if paragraph.strip()
    ]
    return "\n".join(prose).strip("\n"), found


def examples(kind: str) -> list[Example]:
    """The example claims of a kind's module docstring."""
    from checkers.registry import lookup

    _, found = _split_doc(inspect.getdoc(lookup(kind)) or "")
    return [
        Example(caption, _as_claim(kind, body, number))
        for number, (caption, body) in enumerate(found, start=1)
    ]


def _as_claim(kind: str, body: str, number: int) -> str:
    lines = body.splitlines()
    if lines[0].startswith("- "):  # already a whole claim
        return body
    present = {line.split(":", 1)[0] for line in lines if ":" in line}
    header = []
    if "id" not in present:
        header.append(f"id: {kind.replace('_', '-')}-example-{number}")
    if "kind" not in present:
        header.append(f"kind: {kind}")
    if "quote" not in present:
        header.append('quote: "…the lesson\'s sentence, copied exactly…"')
    item = header + [line for line in lines if line]
    return "\n".join(("- " if i == 0 else "  ") + line for i, line in enumerate(item))


def _grouped(text: str) -> str:
    return f"({text})" if " or " in text else text


def _type_text(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> str:
    """A field's type in words, from its JSON Schema."""
    if "$ref" in schema:
        target = defs[schema["$ref"].rsplit("/", 1)[-1]]
        return "mapping of " + ", ".join(target.get("properties", {}))
    if "title" in schema:
        return str(schema["title"])
    if "anyOf" in schema:
        parts = [_type_text(s, defs) for s in schema["anyOf"] if s.get("type") != "null"]
        return " or ".join(dict.fromkeys(parts))
    if "enum" in schema:
        return "one of " + ", ".join(str(v) for v in schema["enum"])
    if "const" in schema:
        return json.dumps(schema["const"], ensure_ascii=False)
    kind = schema.get("type")
    if kind == "array":
        return "list of " + _grouped(_type_text(schema.get("items", {}), defs))
    if kind == "object":
        values = schema.get("additionalProperties")
        if not isinstance(values, dict):
            return "mapping"
        return "mapping to " + _grouped(_type_text(values, defs))
    words = {
        "string": "text",
        "number": "number",
        "integer": "whole number",
        "boolean": "true or false",
    }
    if kind == _TEXT_TYPES:  # a text field (see _ClaimSchema.str_schema)
        return "text"
    if isinstance(kind, list):
        return " or ".join(words.get(str(k), str(k)) for k in kind)
    return words.get(str(kind), "any value")


def _field_lines(schema: Mapping[str, Any], defs: Mapping[str, Any], names: list[str]) -> list[str]:
    required = set(schema.get("required", ()))
    lines = []
    for name in names:
        prop = schema["properties"][name]
        if name in required:
            status = "required"
        elif prop.get("default") not in (None, [], {}, ()):
            status = f"default {json.dumps(prop['default'], ensure_ascii=False)}"
        else:
            status = "optional"
        lines.append(f"  {name} ({status}): {_type_text(prop, defs)}")
        for doc_line in prop.get("description", "").splitlines():
            lines.append(f"      {doc_line}")
    return lines


def describe_kind(kind: str) -> str:
    """What ``lessoncheck kinds NAME`` prints: the kind's fields with their types, defaults and
    docs, an example claim, and what it checks (its module docstring)."""
    from checkers.claims import HEADER_FIELDS
    from checkers.registry import lookup

    module = lookup(kind)
    schema = claim_model(kind).model_json_schema(schema_generator=_ClaimSchema)
    defs = schema.get("$defs", {})
    own = [name for name in schema["properties"] if name not in HEADER_FIELDS]
    common = [name for name in schema["properties"] if name in HEADER_FIELDS and name != "kind"]
    details, _ = _split_doc(inspect.getdoc(module) or "")
    out = [f"{kind}: {kind_summaries()[kind]}", "", "Fields:"]
    out += _field_lines(schema, defs, own)
    out += ["", "Fields every claim has:"]
    out += _field_lines(schema, defs, common)
    for example in examples(kind):
        out += ["", f"Example ({example.caption}):" if example.caption else "Example:"]
        out += [f"  {line}" for line in example.claim.splitlines()]
    out += ["", "What it checks:", *(f"  {line}" if line else "" for line in details.splitlines())]
    return "\n".join(out) + "\n"
