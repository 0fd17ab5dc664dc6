"""Coverage-guided fuzzing of the readers of single values: expressions, printed numbers, YAML.

Each input (any bytes, decoded as UTF-8 with replacement) goes through

* ``checkers.expr``: ``parse``, ``evaluate``, ``evaluate_exact``, ``names``, ``split_chain``;
* ``checkers.numbers``: ``parse_printed``, ``parse_printed_vector``;
* ``checkers.safeyaml.load``, and its two readers side by side: whenever both the libyaml fast
  path and the bounded pure-Python loader read a text, they must read the same data and
  positions (libyaml alone accepts a few malformed texts; that is allowed);

and may only return a value or raise that reader's own error (ExprError, NumberError,
YamlError). Anything else, or a call slower than ``SLOW_SECONDS``, is a crash that libFuzzer
saves as ``crash-<sha1>`` (reproduce with ``python fuzz/fuzz_expr.py crash-<sha1>``).

Run (atheris: ``pip install atheris``; see docs/security.md)::

    mkdir -p /tmp/fuzz/expr
    python fuzz/fuzz_expr.py /tmp/fuzz/expr -max_total_time=300 -timeout=10 -rss_limit_mb=1024

An empty corpus folder is first filled with seeds: the expression and number cases of
``tests/fixtures`` and the lines of the hostile lessons.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import TypeVar

import atheris  # type: ignore[import-untyped]

with atheris.instrument_imports(include=["checkers"]):
    from checkers import expr, numbers, safeyaml

ROOT = Path(__file__).resolve().parent.parent
SLOW_SECONDS = 2.0
"""A single call slower than this on one input is reported as a crash (they take ms)."""
MAX_CHARS = 4000
T = TypeVar("T")


class TooSlow(AssertionError):
    """A reader took longer than SLOW_SECONDS on one input."""


class Disagree(AssertionError):
    """safeyaml's two readers read one text differently."""


def _timed(call: Callable[[], T]) -> T:
    started = time.monotonic()
    try:
        return call()
    finally:
        if time.monotonic() - started > SLOW_SECONDS:
            raise TooSlow(f"{call} took {time.monotonic() - started:.1f} s")


def check_text(text: str) -> None:
    """Every reader on ``text``: its value or its own error, quickly."""
    try:
        tree = _timed(lambda: expr.parse(text))
    except expr.ExprError:
        pass
    else:
        expr.names(tree)
        with suppress(expr.ExprError):
            _timed(lambda: expr.evaluate(tree, {"x": 2.0, "d_k": 64.0}))
        with suppress(expr.ExprError):
            _timed(lambda: expr.evaluate_exact(tree))
    with suppress(expr.ExprError):
        _timed(lambda: expr.split_chain(text))
    for reader in (numbers.parse_printed, numbers.parse_printed_vector):
        with suppress(numbers.NumberError):
            _timed(lambda: reader(text))  # noqa: B023 - called at once
    with suppress(safeyaml.YamlError):
        _timed(lambda: safeyaml.load(text))
    _yaml_readers_agree(text)


def _yaml_readers_agree(text: str) -> None:
    common = _timed(lambda: safeyaml._load_common(text))
    try:
        bounded = _timed(lambda: safeyaml._load_bounded(text))
    except safeyaml.YamlError:
        return
    if common is not None and (common.data, common.positions) != (bounded.data, bounded.positions):
        raise Disagree(f"{common.data!r} != {bounded.data!r}")


def test_one_input(data: bytes) -> None:
    """libFuzzer's entry point."""
    check_text(data[:MAX_CHARS].decode("utf-8", errors="replace"))


def seeds() -> list[str]:
    """Starting inputs: fixture expressions and numbers, hostile lesson lines."""
    import yaml  # only for reading our own fixtures

    found: list[str] = []
    for name in ("expr_cases.yaml", "numbers_parse.yaml", "chains_cases.yaml"):
        path = ROOT / "tests" / "fixtures" / name
        if path.exists():
            found += [s for s in _strings(yaml.safe_load(path.read_text(encoding="utf-8"))) if s]
    for lesson in sorted((ROOT / "tests" / "hostile" / "lessons").glob("*.md")):
        found += [line for line in lesson.read_text(encoding="utf-8").splitlines() if line]
    for claims in sorted((ROOT / "tests" / "hostile" / "claimfiles").glob("*.yaml")):
        found.append(claims.read_text(encoding="utf-8"))
    return found


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def fill_corpus(argv: list[str], make: Callable[[], list[str]]) -> None:
    """Write seeds into the first corpus folder named on the command line, if it is empty."""
    folders = [Path(arg) for arg in argv[1:] if not arg.startswith("-") and Path(arg).is_dir()]
    if folders and not any(folders[0].iterdir()):
        for index, seed in enumerate(make()):
            (folders[0] / f"seed-{index:05d}").write_text(seed, encoding="utf-8")


if __name__ == "__main__":
    fill_corpus(sys.argv, seeds)
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
