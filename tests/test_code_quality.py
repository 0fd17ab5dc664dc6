"""The project's own code is ruff- and mypy-clean (the style the README promises newcomers)."""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[dev]')")
    return found


def test_ruff_is_clean() -> None:
    done = subprocess.run(
        [_tool("ruff"), "check", "checkers", "tests", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_is_clean() -> None:
    done = subprocess.run(
        [_tool("mypy")], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


_FILE_REFERENCE = re.compile(
    r"(?<![\w/.])((?:checkers|benchmarks|docs|fuzz)/[\w/.\-]+\.(?:py|yaml|md))"
)
_MODULE_REFERENCE = re.compile(r":(?:mod|func|class|data|meth|attr):`~?(checkers(?:\.\w+)+)`")


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(found, name):
                return False
            found = getattr(found, name)
        return True
    return False


def test_docs_point_only_at_files_and_names_that_exist() -> None:
    """Docstrings, comments and the docs name modules by path or by :mod: reference; after a
    move, every such pointer must still lead somewhere."""
    texts = [*ROOT.glob("checkers/**/*.py"), ROOT / "README.md", *ROOT.glob("docs/*.md")]
    missing = []
    for path in texts:
        text = path.read_text(encoding="utf-8")
        missing += [
            f"{path.relative_to(ROOT)}: {ref}"
            for ref in _FILE_REFERENCE.findall(text)
            if not (ROOT / ref).exists()
        ]
        missing += [
            f"{path.relative_to(ROOT)}: {ref}"
            for ref in _MODULE_REFERENCE.findall(text)
            if not _resolves(ref)
        ]
    assert not missing, "\n".join(missing)
