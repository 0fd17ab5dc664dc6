"""The project configuration: ``[tool.lessoncheck]`` in pyproject.toml, or ``.lessoncheck.toml``.

Read by the CLI and the pytest plugin alike (:func:`find_config`, :func:`load_config`)::

    [tool.lessoncheck]                      # in .lessoncheck.toml: the same keys at the top
    strict = false                          # true: slips fail the run too, as with --strict
    ignore = ["content/drafts/**"]          # lessons (globs) whose failures are suppressed
    per-path-ignores = { "content/legacy/*.md" = ["softmax", "positional"] }   # by claim kind

Globs are relative to the folder of the configuration file, matched against a lesson's path
(``**`` spans folders, ``*`` does not cross ``/``). A failure silenced here is reported as
``suppressed`` (SARIF suppression kind ``external``), never dropped.

The configuration is looked for in the starting folder and each folder above it, stopping at
the project root (a folder with ``.git``): in each, ``.lessoncheck.toml`` first, then a
``pyproject.toml`` that has a ``[tool.lessoncheck]`` table. An unknown key, a value of the
wrong type or TOML that does not parse is a :class:`ConfigError` naming the file and line.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from checkers.catalog import KINDS
from checkers.files import read_regular_file
from checkers.finding import Finding, Suppression

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["CONFIG_FILE", "Config", "ConfigError", "find_config", "load_config", "project_config"]

CONFIG_FILE = ".lessoncheck.toml"
"""The configuration file of its own; ``pyproject.toml``'s ``[tool.lessoncheck]`` otherwise."""
MAX_CONFIG_BYTES = 1_000_000
"""Largest configuration file read."""

_KEYS = {
    "strict": "true or false",
    "ignore": "a list of path globs",
    "per-path-ignores": "a table of path glob = list of claim kinds",
}


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message starts with ``file:line:``."""


@dataclass(frozen=True)
class Config:
    """What the project configuration asks for (defaults when there is none)."""

    path: Path | None = None
    """The file it was read from; None when there is none."""
    strict: bool = False
    """Slips fail the run too."""
    ignore: tuple[str, ...] = ()
    """Globs of lessons whose failures are suppressed."""
    per_path_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(glob, claim kinds): failures of those kinds in matching lessons are suppressed."""

    def suppression(self, finding: Finding) -> Suppression | None:
        """Why the configuration silences ``finding``, or None (only failures are silenced)."""
        if self.path is None or finding.verdict != "fail" or not finding.source:
            return None
        where = self._relative(finding.source)
        if where is None:
            return None
        name = self.path.name
        for pattern in self.ignore:
            if _glob_match(where, pattern):
                return Suppression("external", f"{name}: ignore {pattern!r}")
        for pattern, kinds in self.per_path_ignores:
            if finding.kind in kinds and _glob_match(where, pattern):
                return Suppression(
                    "external", f"{name}: per-path-ignores {pattern!r} = {finding.kind}"
                )
        return None

    def apply(self, findings: Iterable[Finding]) -> list[Finding]:
        """The findings with every failure the configuration silences made ``suppressed``."""
        out = []
        for finding in findings:
            suppression = self.suppression(finding)
            if suppression is not None:
                finding = dataclasses.replace(
                    finding,
                    verdict="suppressed",
                    suppression=suppression,
                    message=f"suppressed by {suppression.justification}: {finding.message}",
                )
            out.append(finding)
        return out

    def _relative(self, source: str) -> str | None:
        assert self.path is not None
        path = Path(source)
        absolute = path if path.is_absolute() else Path.cwd() / path
        relative = os.path.relpath(os.path.abspath(absolute), os.path.abspath(self.path.parent))
        return None if relative.startswith("..") else PurePosixPath(Path(relative)).as_posix()


def _glob_match(path: str, pattern: str) -> bool:
    return _glob_regex(pattern).fullmatch(path) is not None


def _glob_regex(pattern: str) -> re.Pattern[str]:
    """``**`` any folders (or none), ``*`` and ``?`` within one path part, a trailing ``/``
    everything below that folder."""
    pattern = pattern.strip().removeprefix("./")
    if pattern.endswith("/"):
        pattern += "**"
    out = []
    index = 0
    while index < len(pattern):
        if pattern.startswith("**/", index):
            out.append("(?:.*/)?")
            index += 3
        elif pattern.startswith("**", index):
            out.append(".*")
            index += 2
        elif pattern[index] == "*":
            out.append("[^/]*")
            index += 1
        elif pattern[index] == "?":
            out.append("[^/]")
            index += 1
        else:
            out.append(re.escape(pattern[index]))
            index += 1
    return re.compile("".join(out))


def find_config(start: Path) -> Path | None:
    """The configuration file for a run started in ``start``, or None."""
    folder = Path(os.path.abspath(start))
    for candidate in (folder, *folder.parents):
        own = candidate / CONFIG_FILE
        if own.is_file():
            return own
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file() and _has_tool_table(pyproject):
            return pyproject
        if (candidate / ".git").exists():
            return None
    return None


def _has_tool_table(pyproject: Path) -> bool:
    try:
        text = _read(pyproject)
    except ConfigError:
        return True  # load_config reports why it cannot be read
    return _TOOL_TABLE.search(text) is not None


_TOOL_TABLE = re.compile(
    r"^\s*\[\s*tool\s*\.\s*lessoncheck\s*[\].]|^\s*tool\s*\.\s*lessoncheck\b", re.M
)


def _read(path: Path) -> str:
    try:
        data = read_regular_file(path, MAX_CONFIG_BYTES)
    except (OSError, ValueError) as error:
        raise ConfigError(f"{path}: cannot read the configuration ({error})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: not valid UTF-8 (byte {error.start})") from None


def load_config(path: Path) -> Config:
    """Read one configuration file (``.lessoncheck.toml`` or ``pyproject.toml``)."""
    text = _read(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = getattr(error, "lineno", None) or _line_in_message(str(error))
        raise ConfigError(f"{path}:{line or 1}: not valid TOML: {_first_clause(error)}") from None
    in_pyproject = path.name != CONFIG_FILE
    table: Any = data.get("tool", {}).get("lessoncheck", {}) if in_pyproject else data
    section = "tool.lessoncheck" if in_pyproject else None
    if not isinstance(table, Mapping):
        raise ConfigError(f"{path}:{_line_of(text, section, None)}: expected a table")
    for key in table:
        if key not in _KEYS:
            known = ", ".join(_KEYS)
            raise ConfigError(
                f"{path}:{_line_of(text, section, key)}: unknown key {key!r} in "
                f"{'[' + section + ']' if section else path.name} (known: {known})"
            )

    def wrong(key: str) -> ConfigError:
        return ConfigError(f"{path}:{_line_of(text, section, key)}: {key} must be {_KEYS[key]}")

    strict = table.get("strict", False)
    if not isinstance(strict, bool):
        raise wrong("strict")
    ignore = table.get("ignore", [])
    if not isinstance(ignore, list) or not all(isinstance(p, str) and p for p in ignore):
        raise wrong("ignore")
    per_path = table.get("per-path-ignores", {})
    if not isinstance(per_path, Mapping) or not all(
        isinstance(kinds, list) and all(isinstance(k, str) for k in kinds)
        for kinds in per_path.values()
    ):
        raise wrong("per-path-ignores")
    for pattern, kinds in per_path.items():
        unknown = [k for k in kinds if k not in KINDS]
        if unknown:
            raise ConfigError(
                f"{path}:{_line_of(text, section, 'per-path-ignores', pattern)}: "
                f"unknown claim kind {unknown[0]!r} for {pattern!r} "
                f"(known: {', '.join(sorted(KINDS))})"
            )
    return Config(
        path=path,
        strict=strict,
        ignore=tuple(ignore),
        per_path_ignores=tuple((p, tuple(k)) for p, k in per_path.items()),
    )


def project_config(start: Path) -> Config:
    """The configuration found from ``start`` (:func:`find_config`), or the defaults."""
    found = find_config(start)
    return load_config(found) if found is not None else Config()


def _line_in_message(message: str) -> int | None:
    match = re.search(r"line (\d+)", message)
    return int(match.group(1)) if match else None


def _first_clause(error: Exception) -> str:
    return str(error).split(" (at line")[0]


def _line_of(text: str, section: str | None, key: str | None, inner: str | None = None) -> int:
    """The line where ``key`` (then ``inner`` inside it) is written in ``section`` (None: at
    the top of the file), for messages: TOML parsers give values, not positions."""
    lines = text.splitlines()
    start = 0
    if section is not None:
        dotted = r"\s*\.\s*".join(map(re.escape, section.split(".")))
        header = re.compile(r"^\s*\[\s*" + dotted + r"\s*\]")
        start = next((i for i, line in enumerate(lines) if header.match(line)), 0)
    if key is None:
        return start + 1
    names = [key] if inner is None else [key, inner]
    index = start + (1 if section is not None else 0)
    for name in names:
        quoted = r"""["']?""" + re.escape(name) + r"""["']?\s*="""
        wanted = re.compile(r"^\s*(?:[\w.-]+\.)?" + quoted + r"|[{,]\s*" + quoted)
        for offset, line in enumerate(lines[index:], start=index):
            if offset > index and section is not None and re.match(r"^\s*\[", line):
                break
            if wanted.search(line):
                index = offset
                break
    return index + 1
