"""Every rule for reading or writing a file inside the project, in one place.

Lessons and claim files arrive in pull requests, so a path read from one (``lesson:``), or a
committed symbolic link (``content/x.md -> /etc/passwd``), must not make CI read, embed or write
anything outside the checkout. Files are read only as regular files of bounded size, so
``/dev/zero``, a FIFO or ``/proc/...`` behind a link cannot hang a run or fill its memory, and
files are written atomically, so a reader never sees half a report, claim file or lesson, and
the reports as one set (:func:`write_set`), so concurrent runs never mix theirs.

Used by lesson and claim loading, ``scan``/``extract``, ``fix``, the baseline and the reports.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

__all__ = [
    "CLAIM_FILES",
    "CLAIM_SUFFIXES",
    "LESSON_SUFFIXES",
    "MARKDOWN_SUFFIXES",
    "MAX_LESSON_BYTES",
    "NOTEBOOK_SUFFIX",
    "NoMatch",
    "NotText",
    "Selection",
    "WriteError",
    "claim_file_candidates",
    "collect",
    "decode_text",
    "escapes",
    "glob_match",
    "inside",
    "link_outside_working_folder",
    "not_a_lesson",
    "read_regular_file",
    "real_path",
    "real_working_folder",
    "report_root",
    "resolve_in_project",
    "resolve_lesson",
    "run_root",
    "search_root",
    "write_all_or_none",
    "write_atomic",
    "write_set",
]

MAX_LESSON_BYTES = 1_000_000
"""Largest lesson read; a long course chapter is under 100 KB. Everything downstream (folding,
Markdown parsing, drafting) is linear or budgeted in the lesson's size, so this bounds it."""

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx", ".qmd")
"""Lesson files that are Markdown text (CommonMark/GFM, MDX, Quarto)."""
NOTEBOOK_SUFFIX = ".ipynb"
"""Jupyter notebooks."""
LESSON_SUFFIXES = (*MARKDOWN_SUFFIXES, NOTEBOOK_SUFFIX)
"""How a lesson file's name ends: the formats :mod:`checkers.formats` reads (Markdown, MDX,
Quarto, Jupyter notebooks). Any other file (``.git/config``, ``.env``, a key, ``README.txt``)
is never read as a lesson."""

CLAIM_SUFFIXES = (".yaml", ".yml")
"""How a claim file's name ends."""

SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__", "site-packages"})
"""Folders a walk never enters (besides every hidden one: ``.git``, ``.venv``, ``.github``):
installed packages and caches, never lessons or claims."""

MAX_WALKED = 200_000
"""Entries (files and folders) one walk looks at: ``lessoncheck scan /`` must end, with an
error, rather than walk a whole disk."""

PROJECT_MARKERS = (".git", "pyproject.toml")
"""Files whose folder is taken as the project root (see :func:`search_root`)."""


class WriteError(OSError):
    """A file (or a set of reports) could not be written; the message names the path and why.
    What was there before is left as it was."""


def _stage(path: Path, text: str) -> str:
    """Write ``text`` to a new temporary file beside ``path`` (its mode already the one
    ``path`` will have); return the temporary's name."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        # mkstemp creates the file 0600; reports are meant to be read (CI artifacts, web
        # servers), so keep the mode of the file being replaced, or use an ordinary 0644.
        try:
            mode = path.stat().st_mode & 0o777
        except OSError:
            mode = 0o644
        os.chmod(temporary, mode)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return temporary


def _cannot(path: Path, what: str, error: OSError) -> WriteError:
    return WriteError(f"{path}: cannot {what} ({error.strerror or error})")


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that the file is either the old one or the complete new one.

    A symbolic link at ``path`` is replaced, never written through, and a folder above it that
    links out of the project is refused (:func:`_folder_links_out`). Raises
    :class:`WriteError` (naming the path) when the file cannot be written."""
    if _folder_links_out(path):
        raise WriteError(f"{path}: a folder above it is a link out of the project")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = _stage(path, text)
    except FileExistsError:
        raise WriteError(f"{path}: {path.parent} exists and is not a folder") from None
    except OSError as error:
        raise _cannot(path, "write", error) from None
    try:
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise _cannot(path, "write", error) from None


def write_set(directory: Path, texts: Mapping[str, str]) -> list[Path]:
    """Write ``texts`` (file name → text) into ``directory`` as one set; return the paths.

    * The folder: when it is named inside the working folder, it must stay there. A committed
      symbolic link at its place that leads out of the project (or nowhere) is replaced by a
      real folder, never followed; a folder above it that leads out is refused.
    * Every file is first written as a temporary beside its target. If any of them fails (a
      read-only or full disk, a file where the folder should be), the temporaries are removed
      and :class:`WriteError` names the path: the previous set is left whole.
    * Then, holding an exclusive ``flock`` on the folder, each temporary is renamed over its
      target. Renames are atomic on POSIX and the lock serialises runs, so however many runs
      write into one folder at once, it ends holding one run's complete set, and a reader that
      takes a shared lock on the folder (``flock -s reports …``) always reads one run's set.
      (Without ``fcntl``, as on Windows, the renames are not serialised.)
    """
    _report_folder(directory)
    staged: list[tuple[str, Path]] = []
    try:
        for name, text in texts.items():
            target = directory / name
            try:
                staged.append((_stage(target, text), target))
            except OSError as error:
                raise _cannot(target, "write the report", error) from None
        with _locked(directory):
            for temporary, target in staged:
                try:
                    os.replace(temporary, target)
                except OSError as error:
                    raise _cannot(target, "write the report", error) from None
    finally:
        for temporary, _ in staged:
            Path(temporary).unlink(missing_ok=True)
    return [target for _, target in staged]


def _folder_links_out(path: Path) -> bool:
    """True when ``path`` is named inside the working folder but a folder above it is a
    (committed) link that leads out of it: writing there would write outside the project. A
    path the operator names outside the working folder is their choice."""
    absolute = Path(os.path.abspath(path))
    if not absolute.is_relative_to(os.path.abspath(os.getcwd())):
        return False
    return not Path(os.path.realpath(absolute.parent)).is_relative_to(os.path.realpath("."))


def _report_folder(directory: Path) -> None:
    """Make ``directory`` a real folder inside the project (see :func:`write_set`)."""
    absolute = Path(os.path.abspath(directory))
    project = os.path.realpath(os.getcwd())
    if _folder_links_out(absolute):
        raise WriteError(f"{directory}: a folder above it is a link out of the project")
    named_inside = absolute.is_relative_to(os.path.abspath(os.getcwd()))
    leads_out = not Path(os.path.realpath(absolute)).is_relative_to(project)
    if named_inside and absolute.is_symlink() and leads_out:
        try:
            absolute.unlink()  # the link, not what it points to
        except OSError as error:
            raise _cannot(directory, "replace the link", error) from None
    try:
        absolute.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise WriteError(f"{directory}: exists and is not a folder; no report written") from None
    except OSError as error:
        raise _cannot(directory, "create the report folder", error) from None


@contextlib.contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """An exclusive ``flock`` on the folder for the duration (nothing where unsupported)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    handle = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)  # closing releases the lock


def write_all_or_none(texts: dict[Path, str]) -> None:
    """Write every file of ``texts`` (UTF-8, line ends as given), or none of them.

    Every new text is first staged in a temporary file next to its target and flushed to disk,
    so a full disk or a read-only folder fails before anything is replaced; a hard link keeps
    each old file. Only then are the files put in place, each by an atomic rename; if one rename
    fails, the files already replaced get their old content back. A process killed during the
    renames leaves each file whole, old or new (``fix`` repairs the claims such a state leaves
    stale, so running it again converges).
    """
    staged: list[tuple[Path, str, str | None]] = []  # (target, temporary, old kept or None)
    try:
        for path, text in texts.items():
            temporary = _stage(path, text)
            try:
                staged.append((path, temporary, _keep_old(path, temporary)))
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
    except OSError as error:
        _discard(staged)
        raise WriteError(
            f"cannot write {getattr(error, 'filename', None) or path}: "
            f"{error.strerror or error}; no file was changed"
        ) from None
    replaced: list[tuple[Path, str | None]] = []
    try:
        for path, temporary, old in staged:
            os.replace(temporary, path)
            replaced.append((path, old))
    except OSError as error:
        restored = _restore(replaced)
        _discard([entry for entry in staged if entry[0] not in {p for p, _ in replaced}])
        left = "every file was left as it was" if restored else "some files could not be restored"
        raise WriteError(f"cannot replace {path}: {error.strerror or error}; {left}") from None
    _discard([(path, "", old) for path, _, old in staged])


def _keep_old(path: Path, temporary: str) -> str | None:
    """A hard link to the file at ``path`` (a copy where hard links fail), named after the
    staged ``temporary``; None when there is no file yet."""
    if not path.exists():
        return None
    old = temporary.removesuffix(".tmp") + ".old"
    try:
        os.link(path, old)
    except OSError:  # a file system without hard links: keep a copy
        shutil.copyfile(path, old)
    return old


def _restore(replaced: list[tuple[Path, str | None]]) -> bool:
    """Put the kept old files back (newest first); True when every one was restored."""
    restored = True
    for path, old in reversed(replaced):
        try:
            if old is None:
                path.unlink()
            else:
                os.replace(old, path)
        except OSError:
            restored = False
    return restored


def _discard(staged: list[tuple[Path, str, str | None]]) -> None:
    for _, temporary, old in staged:
        for leftover in (temporary, old):
            if leftover:
                Path(leftover).unlink(missing_ok=True)


def read_regular_file(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; ValueError (with a reason, but
    not the path) for anything else. ``/dev/zero``, a FIFO or ``/proc/...`` behind a symlink
    must not hang the run or fill its memory, so the file type is checked before opening and
    the read is bounded even when the size on disk is wrong (``/proc`` files report 0)."""
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise ValueError("not a regular file")
    if info.st_size > limit:
        raise ValueError(f"larger than {limit:,} bytes")
    with path.open("rb") as stream:
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"larger than {limit:,} bytes")
    return data


class NotText(ValueError):
    """Bytes that are not UTF-8 text; each caller words the message for its own file."""

    def __init__(
        self,
        *,
        start: int | None,
        byte: bytes = b"",
        utf16: bool = False,
        line: int = 0,
        column: int = 0,
    ) -> None:
        super().__init__(
            "not a text file (contains NUL bytes)"
            if start is None
            else f"not valid UTF-8 (byte 0x{byte.hex()}); save the file as UTF-8"
        )
        self.start = start
        """Offset of the first invalid byte; None when the data holds NUL bytes."""
        self.byte = byte
        """The invalid byte itself."""
        self.utf16 = utf16
        """True when NUL bytes come with a UTF-16 byte-order mark."""
        self.line = line
        """1-based line of the invalid byte, as an editor counts lines (at ``\\n``); 0 for NULs."""
        self.column = column
        """1-based column of the invalid byte: the characters before it on its line, plus one."""


def decode_text(data: bytes) -> str:
    """``data`` as UTF-8 text (a byte-order mark dropped); :class:`NotText` when it holds NUL
    bytes (a binary or UTF-16 file) or is not valid UTF-8 (then it says where)."""
    if b"\x00" in data:
        raise NotText(start=None, utf16=data[:2] in (b"\xff\xfe", b"\xfe\xff"))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        before = data[: error.start].decode("utf-8-sig")  # valid up to the invalid byte
        line_start = before.rfind("\n") + 1
        raise NotText(
            start=error.start,
            byte=data[error.start : error.start + 1],
            line=before.count("\n", 0, line_start) + 1,
            column=len(before) - line_start + 1,
        ) from None


def real_path(path: Path) -> Path:
    """``path.resolve()``, or the absolute path when resolving fails: a symlink loop
    (``loop.md -> loop.md``) raises RuntimeError in Python 3.11 instead of returning."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return Path(os.path.abspath(path))


def real_working_folder() -> Path:
    """``real_path(Path.cwd())``, resolved once per working folder: every lesson asks for it
    (does a link lead out of the folder, how is the lesson named). The working folder's name
    as the system gives it already holds no link, so a later link under that name cannot make
    the cached answer wrong: the folder would then be given by another name."""
    return _real_folder(os.getcwd())


@lru_cache(maxsize=16)
def _real_folder(folder: str) -> Path:
    return real_path(Path(folder))


def escapes(path: Path, root: Path) -> bool:
    """True when ``path`` (through symlinks) is not inside ``root``."""
    try:
        return not path.resolve().is_relative_to(real_path(root))
    except (OSError, RuntimeError):  # a symlink loop
        return True


def inside(root: Path, relative: str) -> Path | None:
    """``root / relative`` resolved, when it stays inside ``root`` through any links; else None."""
    try:
        base = root.resolve()
        path = (base / relative).resolve()
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop
        return None
    return path if path.is_relative_to(base) else None


def search_root(path: Path) -> Path:
    """The folder a claim file's lesson is looked up to (never above it): the nearest folder
    above the claim file holding ``.git`` or ``pyproject.toml``, else the working folder when
    the file is in it, else the folder above ``claims/``. Without this bound, ``lesson:
    etc/passwd`` would be found in ``/``."""
    where = os.path.abspath(path)  # symlinks are not followed: where it was found
    found = _marked_folder(where, PROJECT_MARKERS)
    if found is not None:
        return Path(found)
    # Without following a link the file itself may be.
    absolute = Path(where)
    cwd = Path(os.getcwd())
    if absolute.is_relative_to(cwd):
        return cwd
    return absolute.parent.parent if absolute.parent.name == "claims" else absolute.parent


def report_root(path: Path) -> Path:
    """The folder every report path of ``path`` (a claim file, a lesson, or a folder of them)
    is relative to: the repository it is in — the nearest folder holding ``.git``, what
    SARIF's ``%SRCROOT%`` and GitHub's annotations resolve against — else :func:`search_root`.

    The same whichever folder the run starts from (``pytest claims/`` or ``pytest
    course/claims/``), and never the folder a lesson happened to be found in."""
    absolute = os.path.abspath(path)  # where it was found: a link is not followed
    folder = absolute if os.path.isdir(absolute) and not os.path.islink(absolute) else None
    found = _marked_folder(os.path.join(absolute, "") if folder else absolute, (".git",))
    return real_path(Path(found) if found is not None else search_root(path))


def _marked_folder(absolute: str, markers: Sequence[str]) -> str | None:
    """The nearest folder above the absolute path ``absolute`` (a path ending in a separator
    starts at that folder itself) holding one of ``markers``, or None. String paths and
    ``os.path``: this runs for every folder above every lesson, where building a ``Path``
    for each folder and marker cost a twentieth of a scan outside the recognisers."""
    folder = os.path.dirname(absolute)
    while True:
        for marker in markers:  # a loop, not any(): this is a stat or two for every folder
            if os.path.exists(os.path.join(folder, marker)):
                return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def run_root(paths: Sequence[Path]) -> Path:
    """The :func:`report_root` shared by the paths a run was given (its reports embed lessons
    from there), or the working folder when they have none in common."""
    roots = {report_root(path) for path in paths}
    return roots.pop() if len(roots) == 1 else real_working_folder()


def resolve_in_project(near: Path, name: str, what: str) -> tuple[Path, Path] | str:
    """(file, the folder it was found in) for a relative ``name`` written in the file ``near``
    (a claim file's ``lesson:``), looked up next to it and in every folder above it up to the
    project root; or why the name is unacceptable. ``what`` names the file in messages."""
    relative = Path(name)
    if relative.is_absolute() or ".." in relative.parts or "\x00" in name:
        return f"{what} path {name!r} must be relative to the project and stay inside it"
    bound = real_path(search_root(near))
    start = Path(os.path.abspath(near)).parent
    for folder in (start, *start.parents):
        if not real_path(folder).is_relative_to(bound):
            break  # never look above the project
        candidate = folder / relative
        if not candidate.is_file() and (candidate.is_symlink() or candidate.exists()):
            return f"{what} {name!r} is not a regular file"
        if candidate.is_file():
            if escapes(candidate, bound):
                return f"{what} {name!r} is a link to a file outside the project"
            return candidate, real_path(folder)
    return f"{what} {name!r} not found next to {near.name} or in any folder above it"


def link_outside_working_folder(path: Path) -> str | None:
    """Why a path inside the working folder must not be followed, or None.

    The operator names lessons (``content/*.md``), but the files come from a pull request: a
    committed link ``content/x.md -> /etc/passwd`` (or ``claims -> /tmp``) must not make CI read
    or write outside the checkout. A path the operator names outside the folder is their
    choice and is used as given.
    """
    here = Path(os.path.abspath(Path.cwd()))
    if not Path(os.path.abspath(path)).is_relative_to(here):
        return None
    try:
        target = path.resolve()
    except (OSError, RuntimeError):
        return "is a symbolic link that never reaches a file (a loop)"
    if not target.is_relative_to(real_working_folder()):
        return "is a link to a file outside the project"
    return None


_LESSON_NUMBER = re.compile(r"^(\d{1,4})(?!\d)")
MAX_SIBLINGS = 500
"""Most entries of a lesson's folder looked at to find the lesson numbered before it."""


def numbered_predecessor(path: Path) -> Path | None:
    """The lesson numbered just before ``path`` in its folder (``04_the_gate.md`` for
    ``05_combining_experts.md``: the greatest number below its own, same suffix), or None when
    its name is not numbered, no such file exists, two files share that number, or the folder
    holds more than :data:`MAX_SIBLINGS` entries. Only the folder is listed; nothing is read."""
    own = _LESSON_NUMBER.match(path.name)
    if own is None:
        return None
    below: dict[int, list[str]] = {}
    try:
        with os.scandir(path.parent) as entries:
            for count, entry in enumerate(entries):
                if count >= MAX_SIBLINGS:
                    return None
                number = _LESSON_NUMBER.match(entry.name)
                if number is None or not entry.name.endswith(path.suffix):
                    continue
                value = int(number.group(1))
                if value < int(own.group(1)) and entry.is_file(follow_symlinks=False):
                    below.setdefault(value, []).append(entry.name)
    except OSError:
        return None
    if not below:
        return None
    names = below[max(below)]
    return path.parent / names[0] if len(names) == 1 else None


def not_a_lesson(path: Path, root: Path) -> str | None:
    """Why ``path`` is not a lesson file of the project at ``root``, or None: the one rule for
    what may be read, embedded, quoted or rewritten as a lesson.

    A lesson file lies inside ``root``, in no hidden folder below it (``.git``, ``.github``,
    ``.venv``: a checkout's ``.git/config`` holds the CI job's token), is not itself hidden, and
    its name ends in one of :data:`LESSON_SUFFIXES`. A symbolic link is a lesson file only when
    both the link and the file it leads to are: ``content/x.md -> ../.git/config`` is not.
    """
    base = real_path(root)
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):  # missing, or a link loop: nothing to read, the reader says so
        return None
    # Where it was found, the link not followed: the target itself unless the file is a link
    # (resolving its folder again would walk every folder above it a second time).
    plain = path.name not in ("", ".", "..") and not os.path.islink(path)
    written = target if plain else real_path(path.parent) / path.name
    for prefix, candidate in (("is", written), ("is a link whose target is", target)):
        if prefix != "is" and target == written:
            break
        if not candidate.is_relative_to(base):
            return f"{prefix} outside the project"
        below = candidate.relative_to(base).parts
        hidden = next((part for part in below if part.startswith(".")), None)
        if below and hidden == below[-1]:
            return f"{prefix} a hidden file"
        if hidden is not None:
            return f"{prefix} in the hidden folder {hidden}"
        if candidate.suffix.lower() not in LESSON_SUFFIXES:
            return f"{prefix} not a lesson file ({', '.join(LESSON_SUFFIXES)})"
    return None


def resolve_lesson(near: Path, name: str) -> tuple[Path, Path] | str:
    """(lesson file, the folder it was found in) for a claim file's ``lesson: name``, looked up
    as :func:`resolve_in_project` does, or why it is not acceptable (:func:`not_a_lesson`)."""
    found = resolve_in_project(near, name, "lesson")
    if isinstance(found, str):
        return found
    refused = not_a_lesson(found[0], search_root(near))
    if refused is not None:
        return f"lesson {name!r} {refused}; only lesson files are read"
    return found


# ------------------------------------------------------------------------------ paths globs


def glob_match(path: str, pattern: str) -> bool:
    """Whether the ``/``-separated relative ``path`` matches the glob ``pattern``: ``**`` any
    folders (or none), ``*`` and ``?`` within one path part, a trailing ``/`` everything below
    that folder, a leading ``./`` ignored. The one reading of path globs (the configuration's
    ``ignore``, ``include``, ``exclude``)."""
    return _glob_regex(pattern).fullmatch(path) is not None


@lru_cache(maxsize=1024)
def _glob_regex(pattern: str) -> re.Pattern[str]:
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


_MAGIC = re.compile(r"[*?\[]")


class NoMatch(ValueError):
    """A glob that matches no file, a folder holding none of the files asked for, or a walk
    beyond :data:`MAX_WALKED` entries; the message names the pattern or folder."""


@dataclass(frozen=True)
class Selection:
    """Which files a folder or a glob named on the command line yields (:func:`collect`)."""

    suffixes: tuple[str, ...]
    """How the files' names end (:data:`LESSON_SUFFIXES`, :data:`CLAIM_SUFFIXES`), lower case."""
    what: str
    """What they are, for messages: ``lesson files``, ``claim files``."""
    include: tuple[str, ...] = ()
    """Globs (relative to ``base``) a file must match, when any are given."""
    exclude: tuple[str, ...] = ()
    """Globs (relative to ``base``) of files never taken."""
    base: Path | None = None
    """The folder ``include`` and ``exclude`` are relative to (the configuration's); files
    outside it are taken on their suffix alone. None: the working folder."""
    skip: tuple[Path, ...] = ()
    """Folders never entered (the claims folder, when walking for lessons)."""
    required: bool = False
    """A folder holding none of the files is an error (for lessons: scanning an empty folder
    must not pass silently), not an empty list."""

    def takes(self, path: Path) -> bool:
        """Whether a file found in a folder or by a glob is one of those asked for."""
        if path.name.startswith(".") or path.suffix.lower() not in self.suffixes:
            return False
        if not (self.include or self.exclude):
            return True
        base = Path(os.path.abspath(self.base or Path.cwd()))
        absolute = Path(os.path.abspath(path))
        if not absolute.is_relative_to(base):
            return True
        relative = PurePosixPath(absolute.relative_to(base)).as_posix()
        if self.include and not any(glob_match(relative, p) for p in self.include):
            return False
        return not any(glob_match(relative, p) for p in self.exclude)


CLAIM_FILES = Selection(CLAIM_SUFFIXES, "claim files")
"""What a folder or glob of claim files yields."""


def collect(
    inputs: Sequence[Path], selection: Selection, problems: list[str] | None = None
) -> list[Path]:
    """The files a command was given: every file named as it was named (the operator chose it:
    its own reader says when it cannot be read), every folder walked and every glob expanded to
    the files ``selection`` takes; in the order given, each folder's and glob's files sorted,
    no file twice. A path that exists nowhere is kept (the command says it is missing), and so
    is a folder whose name ends in one of ``selection.suffixes`` (``directory.md/``): its name
    says it is a file, and its reader says it is not a regular one.

    A walk enters no hidden folder, none of :data:`SKIPPED_FOLDERS`, none of
    ``selection.skip``, and follows no link to a folder (a committed link must not lead a walk
    out of the checkout or round in a loop). A glob that matches no file, a folder holding none
    when ``selection.required``, or a walk beyond :data:`MAX_WALKED` entries is a
    :class:`NoMatch`: raised, or with ``problems`` given, its message appended there and the
    other inputs still collected (one bad input must not stop the rest)."""
    skip = {real_path(folder) for folder in selection.skip}
    found: list[Path] = []
    budget = [MAX_WALKED]
    for given in inputs:
        try:
            found.extend(_collect_one(given, selection, skip, budget))
        except NoMatch as error:
            if problems is None:
                raise
            problems.append(str(error))
    return list(dict.fromkeys(found))


def _collect_one(
    given: Path, selection: Selection, skip: set[Path], budget: list[int]
) -> list[Path]:
    if given.is_dir() and given.suffix.lower() not in selection.suffixes:
        files = _walk(given, selection, skip, budget)
        if not files and selection.required:
            raise NoMatch(f"{given}: no {selection.what} ({', '.join(selection.suffixes)})")
        return files
    if given.exists() or given.is_symlink() or not _MAGIC.search(str(given)):
        return [given]
    files = _expand(str(given), selection, skip, budget)
    if not files:
        raise NoMatch(f"{given}: the pattern matches no {selection.what}")
    return files


def _walk(top: Path, selection: Selection, skip: set[Path], budget: list[int]) -> list[Path]:
    found: list[Path] = []
    for folder, folders, names in os.walk(top):  # links to folders are not followed
        budget[0] -= len(folders) + len(names)
        if budget[0] < 0:
            raise NoMatch(f"{top}: more than {MAX_WALKED:,} entries to look at; name a folder")
        # A folder named like one of the files (``directory.yaml/``) is taken as the file its
        # name says, not entered: its reader then says it is not a regular file.
        posing = {name for name in folders if selection.takes(Path(folder) / name)}
        folders[:] = sorted(
            name
            for name in folders
            if name not in posing
            and not name.startswith(".")
            and name not in SKIPPED_FOLDERS
            and real_path(Path(folder) / name) not in skip
        )
        found.extend(Path(folder) / name for name in posing)
        found.extend(p for p in map(Path(folder).joinpath, names) if selection.takes(p))
    return sorted(found)


def _expand(pattern: str, selection: Selection, skip: set[Path], budget: list[int]) -> list[Path]:
    """The files a glob names (``**`` spans folders; hidden names match only a pattern that
    starts them with a dot), folders it names walked; skipped folders stay skipped."""
    found: list[Path] = []
    for match in glob.iglob(pattern, recursive=True):
        budget[0] -= 1
        if budget[0] < 0:
            raise NoMatch(f"{pattern}: more than {MAX_WALKED:,} entries to look at")
        path = Path(match)
        folders = path.parts[:-1]
        if any(
            part in SKIPPED_FOLDERS or (part.startswith(".") and part not in (".", ".."))
            for part in folders
        ):
            continue
        if any(real_path(Path(*path.parts[: i + 1])) in skip for i in range(len(folders))):
            continue
        if path.is_dir():
            if real_path(path) not in skip:
                found.extend(_walk(path, selection, skip, budget))
        elif selection.takes(path):
            found.append(path)
    return sorted(dict.fromkeys(found))


# ------------------------------------------------------------------------------ claim paths


def claim_file_candidates(
    lesson: Path, claims_dir: Path, roots: Sequence[Path], base: Path
) -> list[Path]:
    """Where the claims of ``lesson`` may live, the preferred place first (see the README,
    "Claim files"). The lesson's path below its lesson root, under ``claims_dir``, with
    ``.yaml`` for its suffix: ``site/week1/index.md`` → ``claims/week1/index.yaml``. The lesson
    root is the deepest of ``roots`` (the configuration's ``lesson-roots``) holding it, else
    the first folder below ``base`` on its path (``content/``, ``docs/``: where courses keep
    lessons), else ``base`` for a lesson directly in it. Then the lesson's whole path below
    ``base`` (where ``extract`` writes when the first place holds another lesson's claims:
    ``site/intro.md`` and ``blog/intro.md``), then the flat name of earlier versions,
    ``claims/<name>.yaml``, still read. A lesson outside ``base`` has the flat name only.

    The rule depends on the lesson alone, never on which other lessons a run names, so the
    same lesson always maps to the same file."""
    absolute = real_path(lesson.parent) / lesson.name
    project = real_path(base)
    flat = claims_dir / f"{lesson.stem}.yaml"
    if not absolute.is_relative_to(project):
        return [flat]
    below = absolute.relative_to(project)
    holding = [real_path(root) for root in roots if absolute.is_relative_to(real_path(root))]
    if holding:
        relative = absolute.relative_to(max(holding, key=lambda root: len(root.parts)))
    else:
        relative = Path(*below.parts[1:]) if len(below.parts) > 1 else below
    candidates = [
        claims_dir / relative.with_suffix(".yaml"),
        claims_dir / below.with_suffix(".yaml"),
        flat,
    ]
    return list(dict.fromkeys(candidates))
