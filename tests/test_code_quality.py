"""The project's own code is ruff- and mypy-clean (the style the README promises newcomers)."""

from __future__ import annotations

import ast
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


@pytest.mark.slow
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


def test_reports_import_only_the_finding_model_and_file_rules() -> None:
    """Writing reports never loads a kind (or numpy), the runner or the claim loader."""
    code = (
        "import sys\n"
        "from checkers.report import github, html, json_report, markdown, sarif, text\n"
        "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('checkers', 'numpy'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    loaded = set(done.stdout.split())
    assert loaded >= {"checkers.finding", "checkers.report.sarif"}
    assert loaded <= {
        "checkers",
        "checkers.catalog",
        "checkers.files",
        "checkers.finding",
        *(f"checkers.report.{name}" for name in ("github", "html", "json_report", "markdown")),
        *(f"checkers.report.{name}" for name in ("sarif", "text")),
        "checkers.report",
    }, loaded


def _imports_of_package() -> dict[str, set[str]]:
    """Module → the checkers modules it imports anywhere (lazy imports included)."""
    modules = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
        for path in ROOT.glob("checkers/**/*.py")
    }
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [f"{node.module}.{alias.name}" for alias in node.names]
                found.update(t if t in modules else node.module for t in targets)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        package_face = path.name == "__init__.py"
        graph[name] = {
            target
            for target in found
            if target in modules
            and target != name
            and not (package_face and target.startswith(name + "."))
        }
    return graph


def test_no_import_loop_in_the_package() -> None:
    """Imports flow one way (a package's ``__init__`` may import its own modules)."""
    graph = _imports_of_package()
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                raise AssertionError(" → ".join([*path, node, target]))
            if target not in state:
                visit(target, [*path, node])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [])


def _imported_distributions(folder: Path) -> set[str]:
    """The installed distributions that the modules under ``folder`` import at run time
    (imports under ``if TYPE_CHECKING:`` are for the type checker only)."""
    import ast
    from importlib.metadata import packages_distributions

    providers = packages_distributions()
    names: set[str] = set()
    for path in folder.glob("**/*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {
            id(node)
            for block in ast.walk(tree)
            if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
            for statement in block.body
            for node in ast.walk(statement)
        }
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
    third_party = names - set(sys.stdlib_module_names) - {"checkers", "__future__"}
    return {_normalise(d) for name in third_party for d in providers.get(name, [name])}


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@pytest.mark.slow
def test_runtime_dependencies_are_exactly_what_the_package_imports() -> None:
    """A dependency the package never imports is dead weight for every course that installs
    it; an import that is not declared breaks on a clean install."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = {_normalise(re.split(r"[<>=!~\[ ;]", d)[0]) for d in project["dependencies"]}
    assert _imported_distributions(ROOT / "checkers") == declared
