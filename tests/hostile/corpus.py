"""The hostile corpus: lessons and claim files written to break lessoncheck, and the scratch
project they are checked in.

Small inputs are files next to this module (``lessons/*.md``, ``claimfiles/*.yaml``, each claim
file naming a lesson as ``content/<name>.md``). Inputs too large to keep in the repository,
inputs made of invisible or invalid characters, and inputs that are symbolic links, FIFOs or
directories are made by :func:`build` when a test needs them.

Every payload that would execute code tries to create a file named ``CANARY-<something>`` in
the working folder; the scratch project also gets an audit hook (``sitecustomize.py``) that
creates ``CANARY-audit-<event>`` when a process it starts spawns a program, opens a socket,
writes outside the project or reads the planted secret. Tests assert no canary ever appears.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "BIG_CLAIM_FILES",
    "BIG_LESSONS",
    "SECRET",
    "SPECIAL_CLAIM_FILES",
    "SPECIAL_LESSONS",
    "Scratch",
    "build",
    "canaries",
    "forged_names",
]

HERE = Path(__file__).resolve().parent
SECRET = "SECRET-TOKEN-7f3a9c"
"""Content of the file planted outside the project; it must never show up in any output."""

MIB = 1024 * 1024


@dataclass(frozen=True)
class Scratch:
    """A throw-away project holding the corpus."""

    root: Path
    """The project: ``content/``, ``claims/``; the working folder of every run."""
    outside: Path
    """A folder next to the project, holding ``secret.md``; never to be read."""
    hooks: Path
    """The folder with ``sitecustomize.py`` (the audit hook), for ``PYTHONPATH``."""

    def env(self) -> dict[str, str]:
        """Environment for a child process: audit hook on, nothing written outside."""
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("GITHUB_", "PYTEST_", "HYPOTHESIS", "COV_"))
        }
        env.update(
            PYTHONPATH=str(self.hooks),
            PYTHONDONTWRITEBYTECODE="1",
            PYTHONHASHSEED="0",
            TMPDIR=str(self.root / "tmp"),
            HOSTILE_SCRATCH=str(self.root),
            HOSTILE_OUTSIDE=str(self.outside),
            OPENBLAS_NUM_THREADS="1",
            OMP_NUM_THREADS="1",
            COLUMNS="120",
        )
        return env


def canaries(root: Path) -> list[Path]:
    """Every ``CANARY*`` file under ``root``: proof that a payload ran."""
    return sorted(root.rglob("CANARY*"))


_SITECUSTOMIZE = '''"""Audit hook of the hostile-input tests: what no lessoncheck run may do."""

import atexit
import os
import sys

_SCRATCH = os.path.realpath(os.environ["HOSTILE_SCRATCH"])
_OUTSIDE = os.path.realpath(os.environ["HOSTILE_OUTSIDE"])
_FORBIDDEN = {
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
    "subprocess.Popen", "socket.connect", "socket.bind", "socket.getaddrinfo",
    "socket.gethostbyname", "urllib.Request", "pickle.find_class", "ctypes.dlsym",
}
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
_busy = []


def _flag(what):
    _busy.append(1)
    try:
        name = "CANARY-audit-" + "".join(c if c.isalnum() else "-" for c in what)[:60]
        os.close(os.open(os.path.join(_SCRATCH, name), os.O_CREAT | os.O_WRONLY, 0o644))
    finally:
        _busy.pop()


def _hook(event, args):
    if _busy:
        return
    if event in _FORBIDDEN:
        _flag(event)
    elif event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
        path = os.path.realpath(os.fsdecode(args[0]))
        mode, flags = (args + (None, 0))[1:3]
        writing = bool(set(str(mode or "")) & set("wax+")) or bool((flags or 0) & _WRITE_FLAGS)
        if path == _OUTSIDE or path.startswith(_OUTSIDE + os.sep) or path == "/etc/passwd":
            _flag("read-outside")
        elif writing and not (path.startswith(_SCRATCH + os.sep) or path == "/dev/null"):
            _flag("write-outside")


sys.addaudithook(_hook)


def _peak_memory():
    # VmHWM: this program's own peak resident memory. (ru_maxrss would also count the pages
    # of the test process this one was forked from, before it exec'd Python.)
    target = os.environ.get("HOSTILE_HWM_FILE")
    if target:
        with open("/proc/self/status", encoding="ascii") as status:
            kilobytes = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
        with open(target, "w", encoding="ascii") as out:
            out.write(kilobytes)


atexit.register(_peak_memory)
'''


def _write(path: Path, data: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8", newline="")


def _filled(size: int, piece: Callable[[int], str]) -> str:
    """``piece(0) + piece(1) + …``, stopping once ``size`` characters are reached."""
    parts, total, k = [], 0, 0
    while total < size:
        parts.append(piece(k))
        total += len(parts[-1])
        k += 1
    return "".join(parts)


def _claim_file(lesson: str, claims: str) -> str:
    """A claim file for ``content/<lesson>`` whose ``claims:`` list is ``claims`` (YAML)."""
    return f"lesson: content/{lesson}\nclaims:\n{claims}"


# ------------------------------------------------------------------------------ lessons


def _unicode_tricks() -> str:
    lines = [
        "# Unicode tricks",
        "Right-to-left override: \u202e1 + 1 = 3\u202c reads differently than it computes.",
        "Zero-width space inside a number: 1\u200b0 + 1 = 11.",
        "Zero-width joiner: 2\u200d0 × 2 = 40, and a soft hyphen: 1\u00ad0 + 1 = 11.",
        "Full-width digits: １＋１＝２ and １＋１＝３, ０．５×０．５\u3000＝\u3000０．２５.",
        "Arabic-Indic digits: \u0661 + \u0661 = \u0662; Devanagari: \u0967 + \u0967 = \u0968.",
        "Mathematical bold digits: \U0001d7cf + \U0001d7cf = \U0001d7d0.",
        "Superscript tower: 2" + "\u2079" * 12 + " = 1.",
        "Combining marks: 1\u0338 + 1 = 2; byte-order mark: \ufeff1 + 1 = 2.",
        "Non-characters: 1 + 1 = 2 \ufffe \uffff; private use: \ue000 + 1 = 1.",
        "Look-alikes: 5 \u2010 2 = 3, 5 \u2212 2 = 3, 2 \u0445 3 = 6, 2 \u2a2f 3 = 6.",
        "Vulgar fractions: ½ + ¼ = 0.75 and 3½ + 1 = 4.5.",
        "A lone combining mark starts this line: \u0301 = 1 + 1 = 2.",
    ]
    return "\n\n".join(lines) + "\n"


def _escapes() -> str:
    lines = [
        "# Terminal and CI escapes",
        "::endgroup:: 1 + 1 = 3",
        "::error file=README.md,line=1::forged annotation 2 + 2 = 5",
        "::add-mask::1 and ::stop-commands::token 3 + 3 = 7",
        "An ANSI clear screen \x1b[2J\x1b[H and colour \x1b[31m 4 + 4 = 9 \x1b[0m",
        "A carriage return hides text: innocent 5 + 5 = 10\revil 5 + 5 = 11",
        "A bell \x07 and a backspace \x08 in 6 + 6 = 13; form feed \x0c and vertical tab \x0b.",
        "`%0A::error::injected via URL encoding` 7 + 7 = 15",
        "Escape then newline in a quote: \x1b]0;title\x07 8 + 8 = 17",
    ]
    return "\n\n".join(lines) + "\n"


def _many_equations() -> str:
    # Distinct equations, one per paragraph, just under the lesson size limit (1 MB).
    return _filled(950_000, lambda k: f"Step {k}: {k} + 1 = {k + 2}\n\n")


def _near_limit_line() -> str:
    # One line of distinct equations just under the limit: the recognisers' budget is hit.
    return _filled(990_000, lambda k: f"{k} + {k} = {2 * k + 1}, ") + "\n"


def _deep_lists() -> str:
    return "".join(
        "  " * level + f"- level {level}: {level} + 1 = {level + 2}\n" for level in range(400)
    )


def _wide_table() -> str:
    columns = 10_000
    header = "|" + "|".join(f"c{i}" for i in range(columns)) + "|\n"
    rule = "|" + "|".join("-" for _ in range(columns)) + "|\n"
    row = "|" + "|".join(f"{i} + 1 = {i + 2}" for i in range(columns)) + "|\n"
    return header + rule + row * 3


def _long_table() -> str:
    header = "| model | layers | heads | hidden |\n|---|---|---|---|\n"
    return header + "| GPT-3 | 96 | 96 | 12288 |\n" * 20_000


def _pe_lines() -> str:
    return "d_model = 4\n\n" + "PE(1, 2) = sin(1 / 10000^(2/4)) = sin(0.01) ≈ 0.84\n\n" * 15_000


def _markdown_mix() -> str:
    return "\n\n".join(
        [
            "*a **b " * 20_000,
            "[a](" * 20_000,
            "`" * 50_000,
            "<div>" * 20_000,
            "a\n=\n" * 5_000,
            "".join(f"[l{i}]: http://example.invalid/{i}\n" for i in range(5_000)),
            "```\nunclosed fence 1 + 1 = 3\n" * 2,
            "> " * 5_000 + "1 + 1 = 3",
            "$$\n" + "1 + 1 = 2\n" * 1_000,
            "| a |\n|---|\n" + "| 1 + 1 = 3 |\n" * 5_000,
        ]
    )


def _front_matter_bomb() -> str:
    laughs = "\n".join(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 10))
    return (
        "---\nl0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        + laughs
        + "\nrun: !!python/object/apply:os.system ['touch CANARY-front-matter']\n---\n\n"
        + "After the front matter: 0.6×0.4 + 0.2×0.7 = 0.38\n"
    )


def _redos_claims() -> str:
    # Four wrong numbers, the last of which the quote lacks: the fix suggestion's regular
    # expression would try every way to place three of the 1 200 "0.5"s before giving up.
    quote = "0.5 " * 1_200 + "end"
    return (
        "lesson: content/redos.md\nclaims:\n  - id: redos\n    kind: arithmetic\n"
        f"    quote: '{quote}'\n    expression: '[1, 1, 1, 1]'\n"
        "    claimed: ['0.5', '0.5', '0.5', '0.7']\n"
    )


BIG_LESSONS: dict[str, Callable[[], str | bytes]] = {
    "redos.md": lambda: "# Backtracking bait\n\n" + "0.5 " * 1_200 + "end\n",
    "huge_line_5mb.md": lambda: "1 + 1 = 3 " * (5 * MIB // 10 + 1),
    "near_limit_line.md": _near_limit_line,
    "many_equations.md": _many_equations,
    "repeated_quote.md": lambda: "1 + 1 = 3\n\n" * 20_000,
    "deep_parens.md": lambda: "(" * 100_000 + "1" + ")" * 100_000 + " = 1\n",
    "deep_sqrt_and_signs.md": lambda: "√" * 50_000 + "2 = 1\n\n" + "-" * 100_000 + "1 = -1\n",
    "deep_lists.md": _deep_lists,
    "deep_quotes.md": lambda: ">" * 100_000 + " 1 + 1 = 3\n",
    "deep_brackets.md": lambda: "[" * 100_000 + "1 + 1 = 3" + "]" * 100_000 + "\n",
    "latex_bomb.md": lambda: (
        "$" + "\\frac{" * 20_000 + "1" + "}{2}" * 20_000 + " = 1$\n\n$" + "{" * 100_000 + "$\n"
    ),
    "wide_table.md": _wide_table,
    "long_table.md": _long_table,
    "pe_lines.md": _pe_lines,
    "digit_run.md": lambda: "1" * 500_000 + "\n\n" + "2," * 200_000 + "\n",
    "space_run.md": lambda: "a" + " " * 900_000 + "b which is about 1 + 1 = 3\n",
    "markdown_mix.md": _markdown_mix,
}
"""Lessons made at test time: huge, deeply nested or quadratic-bait (name → content)."""

SPECIAL_LESSONS: dict[str, Callable[[], str | bytes]] = {
    "unicode_tricks.md": _unicode_tricks,
    "escapes.md": _escapes,
    "front_matter_bomb.md": _front_matter_bomb,
    "crlf_and_cr.md": lambda: "# CR\r\rThe sum 1 + 1 = 3\r\rand 2 + 2 = 4\r\n\r\n3 + 3 = 7\r\n",
    "invalid_utf8.md": lambda: b"# Latin-1, not UTF-8\n\ncaf\xe9 1 + 1 = 3\n\xc3\x28 \xff\n",
    "utf16_bom.md": lambda: "# UTF-16\n\n1 + 1 = 3\n".encode("utf-16"),
    "binary_nul.md": lambda: bytes(range(256)) * 64,
    "empty.md": lambda: b"",
    "whitespace_only.md": lambda: "\n \t\n\u3000\n\r\n",
    "utf8_bom.md": lambda: "\ufeff# BOM\n\nThe sum 0.6×0.4 + 0.2×0.7 = 0.38.\n",
}
"""Lessons made at test time because their bytes are invisible, invalid or binary."""

# ------------------------------------------------------------------------------ claim files


def _many_problems() -> str:
    return _claim_file("good.md", "- {}\n" * 50_000)


def _many_values_lesson() -> str:
    return "".join(f"Value {i}: v{i} = {i}\n\n" for i in range(10_000))


def _many_valid() -> str:
    claims = "".join(
        f"- {{id: c{i}, kind: arithmetic, quote: 'v{i} = {i}', expression: '{i}',"
        f" claimed: '{i}'}}\n"
        for i in range(6_000)
    )
    return _claim_file("many_values.md", claims)


def _stale_many() -> str:
    # 6 000 claims whose quotes are gone: each would look for the closest line.
    claims = "".join(
        f"- {{id: s{i}, kind: arithmetic, quote: 'v{i} = {i + 1}', expression: '1',"
        " claimed: '1'}\n"
        for i in range(6_000)
    )
    return _claim_file("many_values.md", claims)


def _uses_chain() -> str:
    # c0 uses c1 uses c2 ... : checking c0 first walks the whole chain.
    claims = []
    for i in range(5_000):
        uses = f", uses: {{x: c{i + 1}}}" if i + 1 < 5_000 else ""
        claims.append(
            f"- {{id: c{i}, kind: arithmetic, quote: 'v{i} = {i}', expression: '{i}',"
            f" claimed: '{i}'{uses}}}\n"
        )
    return _claim_file("many_values.md", "".join(claims))


def _huge_vector() -> str:
    items = ", ".join(["0.5"] * 45_000)
    return _claim_file(
        "good.md",
        '  - id: huge-vector\n    kind: softmax\n    quote: "0.6×0.4 + 0.2×0.7 = 0.38"\n'
        f"    scores: [{items}]\n    claimed: [{items}]\n",
    )


BIG_CLAIM_FILES: dict[str, Callable[[], str | bytes]] = {
    "redos.yaml": _redos_claims,
    "deep_flow.yaml": lambda: "lesson: content/good.md\nclaims: " + "[" * 100_000 + "]" * 100_000,
    "deep_block.yaml": lambda: _claim_file(
        "good.md", "".join("  " * i + "- \n" for i in range(1, 200))
    ),
    "many_problems.yaml": _many_problems,
    "many_valid.yaml": _many_valid,
    "stale_many.yaml": _stale_many,
    "uses_chain.yaml": _uses_chain,
    "huge_vector.yaml": _huge_vector,
    "too_big.yaml": lambda: "lesson: content/good.md\n# " + "x" * (5 * MIB // 2) + "\nclaims: []\n",
    "long_string.yaml": lambda: (
        "lesson: content/good.md\nclaims:\n  - id: long\n"
        "    kind: arithmetic\n    quote: '"
        + "q" * 1_900_000
        + "'\n    expression: 1\n    claimed: 1\n"
    ),
}
"""Claim files made at test time: large, deep or numerous (name → content)."""

SPECIAL_CLAIM_FILES: dict[str, Callable[[], str | bytes]] = {
    "invalid_utf8.yaml": lambda: b"lesson: content/good.md\nclaims: []\n# caf\xe9\n",
    "utf16.yaml": lambda: "lesson: content/good.md\nclaims: []\n".encode("utf-16"),
    "control_character.yaml": lambda: (
        "lesson: content/good.md\nclaims:\n  - id: backspace\n    kind: arithmetic\n"
        '    quote: "0.6×0.4 + 0.2×0.7 =\b 0.38"\n    expression: 0.6×0.4 + 0.2×0.7\n'
    ),
    "binary.yaml": lambda: bytes(range(256)) * 16,
    "empty.yaml": lambda: b"",
    "whitespace.yaml": lambda: "\n  \n\t\n",
    "utf8_bom.yaml": lambda: (
        "\ufefflesson: content/good.md\nclaims:\n  - id: bom-right\n    kind: arithmetic\n"
        '    quote: "0.6×0.4 + 0.2×0.7 = 0.38"\n    expression: 0.6×0.4 + 0.2×0.7\n'
        "    claimed: 0.38\n"
    ),
    "unicode.yaml": lambda: (
        "lesson: content/good.md\nclaims:\n"
        '  - id: "rtl\u202eevil"\n    kind: arithmetic\n'
        '    quote: "0.6×0.4 + 0.2×0.7 = 0.38"\n    expression: 0.6×0.4 + 0.2×0.7\n'
        "    claimed: 0.38\n"
        "  - id: zero-width\n    kind: arithmetic\n"
        '    quote: "0.6×0.4 + 0.2×0.7 = 0.\u200b38"\n    expression: 0.6×0.4 + 0.2×0.7\n'
        "    claimed: 0.38\n"
        "  - id: full-width\n    kind: arithmetic\n"
        '    quote: "０．６×０．４ + ０．２×０．７ = ０．３８"\n'
        "    expression: ０．６×０．４ + ０．２×０．７\n"
        "    claimed: ０．３８\n"
        "  - id: cyrillic-key\n    kind: arithmetic\n"
        '    quote: "0.6×0.4 + 0.2×0.7 = 0.38"\n    \u0435xpression: 1\n    claimed: 0.38\n'
    ),
}
"""Claim files made at test time because their bytes are invisible, invalid or binary."""


def _links(scratch: Scratch) -> None:
    """Symbolic links, a FIFO and directories posing as files (what a pull request can hold,
    and, for the FIFO and devices, what it cannot but a careless runner might meet)."""
    content, claims = scratch.root / "content", scratch.root / "claims"
    secret = scratch.outside / "secret.md"
    (content / "secret-link.md").symlink_to(secret)
    (content / "git-config.md").symlink_to("../.git/config")  # inside, but not a lesson
    (content / "passwd-link.md").symlink_to("/etc/passwd")
    (content / "zero.md").symlink_to("/dev/zero")
    (content / "loop.md").symlink_to("loop.md")
    (content / "directory.md").mkdir()
    os.mkfifo(content / "fifo.md")
    (claims / "secret-link.yaml").symlink_to(secret)
    (claims / "passwd-link.yaml").symlink_to("/etc/passwd")
    (claims / "zero-link.yaml").symlink_to("/dev/zero")
    (claims / "loop.yaml").symlink_to("loop.yaml")
    (claims / "directory.yaml").mkdir()
    os.mkfifo(claims / "fifo.yaml")


def build(
    base: Path,
    *,
    claim_files: bool | list[str] = True,
    big: bool | list[str] = True,
    links: bool = True,
) -> Scratch:
    """Write the corpus into ``base/project`` and return it.

    ``claim_files`` selects the hand-written claim files (True: all), ``big`` the generated
    large lessons and claim files (by name; True: all), ``links`` the symlinks and FIFOs.
    """
    scratch = Scratch(base / "project", base / "outside", base / "hooks")
    for folder in (scratch.root / "content", scratch.root / "claims", scratch.root / "tmp"):
        folder.mkdir(parents=True, exist_ok=True)
    _write(scratch.outside / "secret.md", f"# Not part of the project\n\n{SECRET} = 1 + 1 = 2\n")
    _write(scratch.hooks / "sitecustomize.py", _SITECUSTOMIZE)
    # What actions/checkout leaves in a checkout: the job's token, in a line a quote resembles.
    _write(
        scratch.root / ".git" / "config",
        f"[http]\n\textraheader = AUTHORIZATION: basic {SECRET}\n"
        f"0.5×0.5 + 0.5×0.5 = 0.52 {SECRET}\n",
    )
    for lesson in sorted((HERE / "lessons").glob("*.md")):
        shutil.copyfile(lesson, scratch.root / "content" / lesson.name)
    for name, make in SPECIAL_LESSONS.items():
        _write(scratch.root / "content" / name, make())
    _write(scratch.root / "content" / "many_values.md", _many_values_lesson())
    if claim_files:
        for claim_file in sorted((HERE / "claimfiles").glob("*.yaml")):
            if claim_files is True or claim_file.name in claim_files:
                shutil.copyfile(claim_file, scratch.root / "claims" / claim_file.name)
        for name, make in SPECIAL_CLAIM_FILES.items():
            if claim_files is True or name in claim_files:
                _write(scratch.root / "claims" / name, make())
    if big:
        for name, make in {**BIG_LESSONS, **BIG_CLAIM_FILES}.items():
            if big is True or name in big:
                where = "content" if name.endswith(".md") else "claims"
                _write(scratch.root / where / name, make())
    if links:
        _links(scratch)
    return scratch


# ------------------------------------------------------------------------------ forged output

FORGED_LESSON = "::error file=README.md,line=1::forged.md"
"""A lesson at the project root whose path, printed first on a line, is a workflow command."""
FORGED_CLAIMS = "claims/e\x1b]0;title\x07\n::stop-commands::pwned.yaml"
"""A claim file whose name sets the terminal title and, after its newline, stops the runner's
command processing (pytest prints node ids raw); it quotes :data:`BELL_LESSON`."""
BELL_LESSON = "content/bell\x07\rover\x1b[2K.md"
"""A lesson whose name rings the bell, returns the carriage and erases the line."""
_FORGED_TEXT = (
    "# Forged commands\n\n"
    "::warning file=README.md::a context line of a diff\n"
    # Not "the wrong sum": a statement its author calls wrong is reported as marked, not failed.
    "The sum as printed: 2 + 2 = 5 ##[add-mask]legacy syntax, anywhere in a line\n"
    "\n"
    "A right one: 0.6×0.4 + 0.2×0.7 = 0.38\n"
    "\n"
    "One for scan to draft: 1 + 1 = 3\n"
)


def forged_names(scratch: Scratch) -> None:
    """Files whose names or text forge GitHub workflow commands or drive the terminal, and the
    claim files that quote them (one by a name that is a workflow command itself)."""
    _write(scratch.root / FORGED_LESSON, _FORGED_TEXT)
    _write(scratch.root / BELL_LESSON, _FORGED_TEXT)
    claims = (
        "lesson: '{lesson}'\nclaims:\n"
        "  - id: forged-wrong\n    kind: arithmetic\n"
        "    quote: '2 + 2 = 5 ##[add-mask]legacy syntax'\n"
        "    expression: 2 + 2\n    claimed: 5\n"
        "  - id: forged-right\n    kind: arithmetic\n"
        "    quote: '0.6×0.4 + 0.2×0.7 = 0.38'\n"
        "    expression: 0.6×0.4 + 0.2×0.7\n    claimed: 0.38\n"
    )
    _write(scratch.root / "claims" / "forged.yaml", claims.format(lesson=FORGED_LESSON))
    bell = BELL_LESSON.encode("unicode_escape").decode("ascii")  # YAML reads \x07 in "…"
    _write(scratch.root / FORGED_CLAIMS, claims.replace("'{lesson}'", f'"{bell}"'))
