"""Every kind and every recogniser keeps the plug-in interface (as pre-commit's ``all_test.py``
holds every language to its own).

A kind: a docstring whose first line is its summary in :mod:`checkers.catalog` and which names
every field it reads; an ``Input`` model derived from ``KindInput`` with a line of doc per field;
one ``check(fields, context)``. A recogniser: a docstring saying what it recognises, its
``NAME``, one ``recognize(document)``.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from types import ModuleType

import pytest

from checkers.catalog import KINDS
from checkers.extract.recognizers import ALL_RECOGNIZERS
from checkers.extract.relations import ALL_RELATIONS
from checkers.kinds import ALL_KINDS, KIND_MODULES
from checkers.kinds.base import KindInput


def _kind(name: str) -> ModuleType:
    return importlib.import_module(KINDS[name].module)


def _undocumented_fields(model: type) -> list[str]:
    """Fields of a class body not followed by a docstring line."""
    body = ast.parse(inspect.getsource(model)).body[0]
    assert isinstance(body, ast.ClassDef)
    missing = []
    for statement, following in zip(body.body, [*body.body[1:], None], strict=True):
        if not isinstance(statement, ast.AnnAssign) or not isinstance(statement.target, ast.Name):
            continue
        documented = (
            isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        )
        if not documented:
            missing.append(statement.target.id)
    return missing


def test_the_registry_is_the_catalog() -> None:
    assert {name: entry.module for name, entry in KINDS.items()} == KIND_MODULES
    assert set(ALL_KINDS) == set(KINDS)


@pytest.mark.parametrize("name", sorted(KINDS))
def test_kind_docstring_is_its_summary_and_names_its_fields(name: str) -> None:
    module = _kind(name)
    doc = module.__doc__ or ""
    first = doc.splitlines()[0]
    assert first.startswith(f"Kind ``{name}``: ")
    assert first.replace("``", "") == KINDS[name].summary
    unnamed = [f for f in module.Input.model_fields if not re.search(rf"``{f}(``|:)", doc)]
    assert not unnamed, f"the docstring of {name} does not name {unnamed}"


@pytest.mark.parametrize("name", sorted(KINDS))
def test_kind_has_an_input_model_with_documented_fields(name: str) -> None:
    model = _kind(name).Input
    assert issubclass(model, KindInput)
    assert model.model_config.get("frozen") and model.model_config.get("extra") == "forbid"
    assert not _undocumented_fields(model)


@pytest.mark.parametrize("name", sorted(KINDS))
def test_kind_has_one_check_function(name: str) -> None:
    module = _kind(name)
    assert "check" in module.__all__ and "Input" in module.__all__
    assert list(inspect.signature(module.check).parameters) == ["fields", "context"]
    assert (module.check.__doc__ or "").strip()


SHARED = {"checkers.kinds.base", "checkers.kinds.matrices", "checkers.kinds.probability"}
"""The modules of ``checkers/kinds/`` that are not kinds: what kinds share."""


def test_kinds_import_no_sibling_kind() -> None:
    """Shared helpers live in shared modules (formulas, kinds.probability, kinds.matrices), not
    in a kind."""
    for name in KINDS:
        tree = ast.parse(inspect.getsource(_kind(name)))
        imported = {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module is not None
        }
        siblings = {m for m in imported if m.startswith("checkers.kinds.")} - SHARED
        assert not siblings, f"{name} imports {siblings}"


@pytest.mark.parametrize("name", sorted(ALL_RECOGNIZERS))
def test_recognizer_keeps_the_interface(name: str) -> None:
    module = ALL_RECOGNIZERS[name]
    doc = inspect.getdoc(module) or ""
    assert doc.splitlines()[0].startswith(f"Recogniser ``{name}``: ")
    assert "Recognises" in doc, "the docstring says what it recognises"
    assert getattr(module, "NAME", None) == name
    assert list(inspect.signature(module.recognize).parameters) == ["document"]
    assert (module.recognize.__doc__ or "").strip()
    assert getattr(module, "__all__", None) is not None and "recognize" in module.__all__


@pytest.mark.parametrize("name", sorted(ALL_RELATIONS))
def test_relation_keeps_the_interface(name: str) -> None:
    module = ALL_RELATIONS[name]
    doc = inspect.getdoc(module) or ""
    assert doc.splitlines()[0].startswith(f"Relation ``{name}``: ")
    for part in ("Formula", "Source", "Roles read", "Readings accepted"):
        assert part in doc, f"the docstring gives the {part.lower()}"
    assert getattr(module, "NAME", None) == name
    assert isinstance(module.CUE, re.Pattern)
    assert list(inspect.signature(module.relate).parameters) == ["statement", "scope"]
    assert (module.relate.__doc__ or "").strip()
