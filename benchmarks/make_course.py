"""Synthetic courses for the benchmarks: N lessons, M claims spread over every registered kind.

Claim bodies are the real case tables of the kinds (``tests/fixtures/kinds/<kind>.yaml``): every
case that must pass or fail, with its ``source`` line embedded in the generated lesson as the
quoted text, so every claim anchors. About one claim in ``fail_every`` is a failing case, the
rest pass; which ones is known in advance (:attr:`Course.failing`).

``make_big_lesson`` writes one long lesson (``~1 MB``) of prose, worked examples, code blocks,
tables and formulas with fresh random numbers, for ``lessoncheck scan``.

Run it alone to look at what it makes::

    python benchmarks/make_course.py OUT --lessons 10 --claims 1000
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from checkers import safeyaml
from checkers.kinds import ALL_KINDS

__all__ = ["Case", "Course", "load_cases", "make_big_lesson", "make_course"]

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "kinds"
"""The kinds' case tables the claim bodies come from."""


@dataclass(frozen=True)
class Case:
    """One case of a kind's case table: a realistic claim body and the verdict it must get."""

    kind: str
    """The claim kind."""
    id: str
    """The case id in its table."""
    expect: str
    """``pass`` or ``fail``."""
    source: str
    """The case's worked statement; it becomes the quoted lesson text."""
    body: dict[str, Any]
    """The kind's fields, numbers as the strings a claim file holds."""


@dataclass(frozen=True)
class Course:
    """A generated course on disk."""

    root: Path
    """Project root: ``content/`` and ``claims/`` are inside it."""
    lessons: tuple[Path, ...]
    """The lesson files."""
    claim_files: tuple[Path, ...]
    """The claim files, one per lesson."""
    claims: int
    """How many claims in all."""
    failing: frozenset[str]
    """Node ids (``claims/<file>.yaml::<id>``) of the claims that must fail."""
    kinds: frozenset[str]
    """The kinds the claims use."""


def load_cases(fixtures: Path = FIXTURES) -> dict[str, list[Case]]:
    """Every registered kind's pass and fail cases (error cases are left out), by kind."""
    cases: dict[str, list[Case]] = {}
    for kind in sorted(ALL_KINDS):
        path = fixtures / f"{kind}.yaml"
        data = safeyaml.load(path.read_text(encoding="utf-8")).data
        found = [
            Case(
                kind=kind,
                id=str(item["id"]),
                expect=str(item["expect"]),
                source=" ".join(str(item["source"]).split()),
                body=dict(item["claim"]),
            )
            for item in data
            if item.get("expect") in ("pass", "fail")
        ]
        if not any(c.expect == "pass" for c in found) or not any(c.expect == "fail" for c in found):
            raise ValueError(f"{path}: needs passing and failing cases")
        cases[kind] = found
    return cases


_PROSE = (
    "This section works through the numbers by hand, so every step can be checked.",
    "Each value below is rounded to the digits printed; later steps reuse the printed values.",
    "The model never sees these intermediate numbers, but a reader who recomputes them should "
    "arrive at the same result.",
    "下面的例子一步一步地算出每个数，方便读者自己验算。",
    "注意：中间结果按打印的位数四舍五入，后面的步骤沿用打印出来的值。",
)


def _split(total: int, parts: int) -> list[int]:
    base, extra = divmod(total, parts)
    return [base + (1 if index < extra else 0) for index in range(parts)]


def _claim_id(case: Case, number: int) -> str:
    return f"{case.kind}-{case.id}-{number}"[:120]


def make_course(
    root: Path,
    *,
    lessons: int,
    claims: int,
    fail_every: int = 10,
    cases: dict[str, list[Case]] | None = None,
) -> Course:
    """Write ``root/content/lesson-NNNN.md`` and ``root/claims/lesson-NNNN.yaml``.

    Claims go round-robin over the kinds (so a course of at least as many claims as kinds uses
    every kind), cycling through each kind's cases; every ``fail_every``-th claim is one of its
    kind's failing cases, the others pass.
    """
    if lessons < 1 or claims < 0:
        raise ValueError("need at least one lesson and a non-negative number of claims")
    table = cases if cases is not None else load_cases()
    kinds = sorted(table)
    passing = {kind: [c for c in table[kind] if c.expect == "pass"] for kind in kinds}
    failing = {kind: [c for c in table[kind] if c.expect == "fail"] for kind in kinds}
    content, claims_dir = root / "content", root / "claims"
    content.mkdir(parents=True, exist_ok=True)
    claims_dir.mkdir(parents=True, exist_ok=True)
    lesson_paths: list[Path] = []
    claim_paths: list[Path] = []
    must_fail: set[str] = set()
    used_kinds: set[str] = set()
    taken: dict[tuple[str, bool], int] = {}
    number = 0
    for lesson_index, count in enumerate(_split(claims, lessons), start=1):
        stem = f"lesson-{lesson_index:04d}"
        lines = [
            f"# Synthetic lesson {lesson_index}",
            "",
            "Generated by benchmarks/make_course.py: every example below is quoted by one claim "
            f"in claims/{stem}.yaml.",
            "",
        ]
        entries: list[dict[str, Any]] = []
        for slot in range(count):
            kind = kinds[number % len(kinds)]
            fails = number % fail_every == fail_every - 1
            pool = failing[kind] if fails else passing[kind]
            case = pool[taken.get((kind, fails), 0) % len(pool)]
            taken[kind, fails] = taken.get((kind, fails), 0) + 1
            number += 1
            if slot % 10 == 0:
                lines += [f"## Part {slot // 10 + 1}", "", _PROSE[slot // 10 % len(_PROSE)], ""]
            quote = f"Example {number}: {case.source}"
            lines += [quote, ""]
            claim_id = _claim_id(case, number)
            entries.append({"id": claim_id, "kind": kind, "quote": quote, **case.body})
            used_kinds.add(kind)
            if case.expect == "fail":
                must_fail.add(f"claims/{stem}.yaml::{claim_id}")
        lesson_path = content / f"{stem}.md"
        lesson_path.write_text("\n".join(lines), encoding="utf-8")
        claim_path = claims_dir / f"{stem}.yaml"
        claim_path.write_text(
            yaml.safe_dump(
                {"lesson": f"content/{stem}.md", "claims": entries},
                allow_unicode=True,
                sort_keys=False,
                width=10_000,
            ),
            encoding="utf-8",
        )
        lesson_paths.append(lesson_path)
        claim_paths.append(claim_path)
    return Course(
        root=root,
        lessons=tuple(lesson_paths),
        claim_files=tuple(claim_paths),
        claims=claims,
        failing=frozenset(must_fail),
        kinds=frozenset(used_kinds),
    )


# --- one long lesson for `scan` -------------------------------------------------------------

_EN_PROSE = (
    "Attention lets every token look at every other token and decide how much each one matters.",
    "The scores are scaled before the softmax so that their spread does not grow with the "
    "head size.",
    "A residual connection adds the input of a sub-layer back to its output.",
    "Layer normalisation keeps the activations of each token at a comparable scale.",
    "The feed-forward network is applied to each position separately and identically.",
    "Positional encodings give the model a sense of order, which attention alone lacks.",
    "In practice these steps run as large matrix multiplications on the accelerator.",
    "It is worth recomputing a few of these numbers by hand at least once.",
)
_ZH_PROSE = (
    "注意力机制让每个词都能看到句子里的其他词，并决定各自的重要程度。",
    "在进入 softmax 之前先做缩放，这样分数的方差不会随着维度增大而变大。",
    "残差连接把子层的输入直接加回到它的输出上，让梯度更容易传回去。",
    "层归一化让每个位置的激活值保持在相近的尺度上，训练因此更加稳定。",
    "前馈网络对每个位置单独、相同地做一次两层的变换。",
    "位置编码告诉模型词的先后顺序，单靠注意力是分不出顺序的。",
)
_MODELS = (
    ("GPT-2 (124M)", 12, 12, 768, 1024),
    ("GPT-2 XL", 48, 25, 1600, 1024),
    ("GPT-3 (175B)", 96, 96, 12288, 2048),
)


def _round(value: float, places: int) -> str:
    return f"{value:.{places}f}"


def _section(rng: random.Random, index: int) -> list[str]:
    """One lesson section laid out like the seed lessons: a heading, short lines, a bullet
    list, a block of vectors and one worked example (about one wrong value in five)."""

    def maybe_wrong(value: float, places: int) -> str:
        if rng.random() < 0.2:
            value += rng.choice((-1, 1)) * 10 ** (-places) * rng.randint(2, 5)
        return _round(value, places)

    def vector() -> str:
        return "[" + ", ".join(_round(rng.uniform(0.05, 0.95), 2) for _ in range(2)) + "]"

    lines = [f"### {index // 10 + 1}.{index % 10} Worked example {index}", ""]
    for _ in range(rng.randint(1, 3)):
        lines += [rng.choice(_EN_PROSE if rng.random() < 0.5 else _ZH_PROSE), ""]
    for _ in range(rng.randint(2, 4)):
        lines += [f"• {rng.choice(_EN_PROSE if rng.random() < 0.5 else _ZH_PROSE)[:40]}", ""]
    if rng.random() < 0.5:
        words = ("猫", "追", "老鼠", "the", "cat", "sat")
        lines += ["```text", *(f"V_{w} = {vector()}" for w in words[: rng.randint(2, 4)]), "```"]
        lines += [""]
    if rng.random() < 0.2:
        lines += [f"> 提示：{rng.choice(_ZH_PROSE)}", ""]
    choice = rng.randrange(8)
    a, b, c, d = (round(rng.uniform(0.05, 0.95), 2) for _ in range(4))
    if choice == 0:
        p, q = a * b, c * d
        lines += [
            f"score = {a}×{b} + {c}×{d} = {_round(p, 4)} + {_round(q, 4)} = "
            f"{maybe_wrong(p + q, 2)}",
            "",
        ]
    elif choice == 1:
        lines += [
            "```text",
            f"Q[{index % 4}] = {a}×{b} + {c}×{d}",
            f"     = {_round(a * b, 4)} + {_round(c * d, 4)}",
            f"     = {maybe_wrong(a * b + c * d, 2)}",
            "```",
            "",
        ]
    elif choice == 2:
        total, kept = rng.randint(10, 90), rng.randint(2, 9)
        lines += [
            f"不缓存的话累计 {total} 次，缓存之后只要 {kept} 次，省 "
            f"{maybe_wrong(100 * (1 - kept / total), 0)}%。",
            "",
        ]
    elif choice == 3:
        d_model = rng.choice((4, 8, 16))
        pos, dim = rng.randint(1, 9), 2 * rng.randint(0, d_model // 2 - 1)
        angle = pos / 10000 ** (dim / d_model)
        lines += [
            f"Take d_model = {d_model}.",
            "",
            f"PE({pos}, {dim}) = sin({pos} / 10000^({dim}/{d_model})) = sin({_round(angle, 4)}) "
            f"≈ {maybe_wrong(math.sin(angle), 3)}",
            "",
        ]
    elif choice == 4:
        name, layers, heads, hidden, context = rng.choice(_MODELS)
        if rng.random() < 0.2:
            layers += 1
        lines += [
            "| 模型 | 层数 | 头数 | 隐藏维度 | 上下文 |",
            "|---|---|---|---|---|",
            f"| {name} | {layers} | {heads} | {hidden} | {context} |",
            "",
        ]
    elif choice == 5:
        k = rng.choice((16, 32, 64, 128, 256))
        lines += [
            f"√{k} ≈ {maybe_wrong(math.sqrt(k), 2)}，exp({a}) = {maybe_wrong(math.exp(a), 2)}",
            "",
        ]
    elif choice == 6:
        heads = rng.choice((4, 8, 12, 16))
        size = rng.choice((32, 64, 128))
        lines += ["$$", f"{heads * size} = {heads} × {size}", "$$", ""]
    else:
        params = rng.randint(1, 70)
        lines += [
            f"{params}B parameters × 2 bytes = {maybe_wrong(params * 2, 0)} GB of weights in fp16.",
            "",
        ]
    return lines


def make_big_lesson(path: Path, *, size: int = 990_000, seed: int = 0) -> Path:
    """Write a lesson of at most ``size`` bytes (UTF-8) of fresh worked examples and prose.

    The default stays under the largest lesson read (``checkers.files.MAX_LESSON_BYTES``).
    """
    rng = random.Random(seed)
    lines = ["# A long synthetic lesson", ""]
    written = sum(len(line.encode("utf-8")) + 1 for line in lines)
    index = 0
    while True:
        index += 1
        section = _section(rng, index)
        more = sum(len(line.encode("utf-8")) + 1 for line in section)
        if written + more > size:
            break
        written += more
        lines += section
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """``python benchmarks/make_course.py OUT --lessons N --claims M``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("out", type=Path, help="project folder to write content/ and claims/ into")
    parser.add_argument("--lessons", type=int, default=10)
    parser.add_argument("--claims", type=int, default=1000)
    parser.add_argument("--fail-every", type=int, default=10)
    parser.add_argument("--big-lesson", type=int, metavar="BYTES", help="also write big.md")
    args = parser.parse_args(argv)
    course = make_course(
        args.out, lessons=args.lessons, claims=args.claims, fail_every=args.fail_every
    )
    print(
        f"{course.claims} claims ({len(course.failing)} failing) of {len(course.kinds)} kinds "
        f"in {len(course.lessons)} lessons under {course.root}"
    )
    if args.big_lesson:
        big = make_big_lesson(args.out / "content" / "big.md", size=args.big_lesson)
        print(f"{big}: {big.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
