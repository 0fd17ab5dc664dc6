"""The project configuration: ``[tool.lessoncheck]`` in pyproject.toml, or ``.lessoncheck.toml``.

Read by the CLI and the pytest plugin alike (:func:`find_config`, :func:`load_config`)::

    [tool.lessoncheck]                      # in .lessoncheck.toml: the same keys at the top
    strict = false                          # true: slips fail the run too, as with --strict
    ignore = ["content/drafts/**"]          # lessons (globs) whose failures are suppressed
    per-path-ignores = { "content/legacy/*.md" = ["softmax", "positional"] }   # by claim kind
    lesson-roots = ["site"]                 # site/week1/index.md → claims/week1/index.yaml
    claims-folder = "claims"                # where claim files live (the default)
    include = ["site/**/*.md"]              # what folders and globs of lessons yield ...
    exclude = ["site/drafts/**"]            # ... and what they never yield
    formats = [".md", ".ipynb"]             # lesson suffixes a folder yields (default: all)

Paths and globs are relative to the folder of the configuration file, globs matched against a
lesson's path (``**`` spans folders, ``*`` does not cross ``/``: one reading of globs,
:func:`checkers.files.glob_match`). A failure silenced here is reported as ``suppressed``
(SARIF suppression kind ``external``), never dropped. ``include``, ``exclude`` and ``formats``
choose what a folder or a glob named on the command line yields
(:func:`checkers.files.collect`); a file named itself is always read. Where a lesson's claim
file lives: :func:`checkers.files.claim_file_candidates`.

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
from checkers.files import (
    LESSON_SUFFIXES,
    Selection,
    glob_match,
    read_regular_file,
)
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
    "lesson-roots": "a list of folders inside the project (relative, no '..')",
    "claims-folder": "a folder inside the project (relative, no '..')",
    "include": "a list of path globs",
    "exclude": "a list of path globs",
    "formats": f"a list of lesson file suffixes ({', '.join(LESSON_SUFFIXES)})",
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
    lesson_roots: tuple[str, ...] = ()
    """Folders lessons live in; a lesson's claim file mirrors its path below its root."""
    claims_folder: str = "claims"
    """The folder of claim files (relative to :attr:`root`)."""
    include: tuple[str, ...] = ()
    """Globs a lesson found in a folder or by a glob must match, when any are given."""
    exclude: tuple[str, ...] = ()
    """Globs of lessons a folder or a glob never yields."""
    formats: tuple[str, ...] = LESSON_SUFFIXES
    """Suffixes of the lesson files a folder or a glob yields."""

    @property
    def root(self) -> Path:
        """The folder the configuration's paths and globs are relative to: its file's folder,
        or without one the working folder (``claims/`` there, as before configurations)."""
        return self.path.parent if self.path is not None else Path(os.path.abspath(Path.cwd()))

    @property
    def claims_dir(self) -> Path:
        """The claims folder, relative to the working folder when inside it (as messages and
        ``lesson:`` fields name files)."""
        return _from_cwd(self.root / self.claims_folder)

    @property
    def roots(self) -> tuple[Path, ...]:
        """The lesson roots as folders (``lesson-roots``; none when not configured)."""
        return tuple(_from_cwd(self.root / folder) for folder in self.lesson_roots)

    def lesson_selection(self) -> Selection:
        """Which files a folder or glob of lessons yields: the configured formats, include and
        exclude globs; never anything in the claims folder; an empty folder is an error."""
        return Selection(
            suffixes=self.formats,
            what="lesson files",
            include=self.include,
            exclude=self.exclude,
            base=self.root,
            skip=(self.claims_dir,),
            required=True,
        )

    def suppression(self, finding: Finding) -> Suppression | None:
        """Why the configuration silences ``finding``, or None (only failures are silenced)."""
        if self.path is None or finding.verdict != "fail" or not finding.source:
            return None
        where = self._relative(finding.source)
        if where is None:
            return None
        name = self.path.name
        for pattern in self.ignore:
            if glob_match(where, pattern):
                return Suppression("external", f"{name}: ignore {pattern!r}")
        for pattern, kinds in self.per_path_ignores:
            if finding.kind in kinds and glob_match(where, pattern):
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


def _from_cwd(path: Path) -> Path:
    absolute = Path(os.path.abspath(path))
    here = Path(os.path.abspath(Path.cwd()))
    return absolute.relative_to(here) if absolute.is_relative_to(here) else absolute


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
    globs = {}
    for key in ("include", "exclude"):
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(p, str) and p for p in value):
            raise wrong(key)
        globs[key] = tuple(value)
    roots = table.get("lesson-roots", [])
    if not isinstance(roots, list) or not all(_inside_project(r) for r in roots):
        raise wrong("lesson-roots")
    claims_folder = table.get("claims-folder", "claims")
    if not _inside_project(claims_folder):
        raise wrong("claims-folder")
    formats = table.get("formats", list(LESSON_SUFFIXES))
    if not isinstance(formats, list) or not formats or not all(isinstance(f, str) for f in formats):
        raise wrong("formats")
    suffixes = tuple(dict.fromkeys("." + f.strip().lower().removeprefix(".") for f in formats))
    unknown_format = next((f for f in suffixes if f not in LESSON_SUFFIXES), None)
    if unknown_format is not None:
        raise ConfigError(
            f"{path}:{_line_of(text, section, 'formats')}: unknown lesson format "
            f"{unknown_format!r} (known: {', '.join(LESSON_SUFFIXES)})"
        )
    return Config(
        path=path,
        strict=strict,
        ignore=tuple(ignore),
        per_path_ignores=tuple((p, tuple(k)) for p, k in per_path.items()),
        lesson_roots=tuple(PurePosixPath(r).as_posix() for r in roots),
        claims_folder=PurePosixPath(claims_folder).as_posix(),
        include=globs["include"],
        exclude=globs["exclude"],
        formats=suffixes,
    )


def _inside_project(value: object) -> bool:
    """A folder named relative to the configuration's folder that stays below it."""
    if not isinstance(value, str) or not value.strip() or "\x00" in value:
        return False
    folder = PurePosixPath(value.replace("\\", "/"))
    return not folder.is_absolute() and ".." not in folder.parts


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
