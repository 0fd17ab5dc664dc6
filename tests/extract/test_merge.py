"""``lessoncheck extract`` keeps what people wrote byte for byte; reads what ``check`` reads."""

from __future__ import annotations

import codecs
import difflib
from pathlib import Path

import pytest
import yaml

from checkers import safeyaml
from checkers.claims import load_claims_file
from checkers.cli import main

LESSON = """# Attention by hand

- Q·K = 0.6×0.4 + 0.2×0.7 = 0.38
- Q·K' = 0.5×0.5 + 0.5×0.5 = 0.52

The cache holds 2 × 32 × 4096 × 2 bytes = 512 KB per token.
"""

REVIEWED = """# claims reviewed by hand; keep this comment
lesson: content/demo.md
claims:
-   id: qk            # indentation of its own
    kind: arithmetic
    quote: "Q·K = 0.6×0.4 + 0.2×0.7 = 0.38"
    expression: 0.6×0.4 + 0.2×0.7
    claimed: 0.38
"""


@pytest.fixture
def course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "content").mkdir()
    (tmp_path / "claims").mkdir()
    (tmp_path / "content" / "demo.md").write_text(LESSON, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _extract(course: Path, before: bytes) -> bytes:
    target = course / "claims" / "demo.yaml"
    target.write_bytes(before)
    assert main(["extract", "content/demo.md"]) == 0
    after = target.read_bytes()
    assert load_claims_file(Path("claims/demo.yaml")).problems == ()
    return after


def _only_lines_added(before: bytes, after: bytes) -> list[bytes]:
    """The lines ``after`` adds to ``before``; fails when any line of ``before`` changed."""
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    opcodes = difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes()
    assert [op for op in opcodes if op[0] not in ("equal", "insert")] == []
    return [line for op in opcodes if op[0] == "insert" for line in new[op[3] : op[4]]]


def test_reviewed_claims_keep_their_indentation_and_comments(course: Path) -> None:
    before = REVIEWED.encode("utf-8")
    after = _extract(course, before)
    assert after.startswith(before)  # appended after the last claim, nothing else touched
    added = _only_lines_added(before, after)
    assert sum(line.startswith(b"-   id: ") for line in added) == 2  # the file's own columns
    assert all(line.startswith((b"-   ", b"    ")) for line in added)


def test_crlf_stays_crlf(course: Path) -> None:
    before = REVIEWED.replace("\n", "\r\n").encode("utf-8")
    after = _extract(course, before)
    assert after.startswith(before)
    assert after.count(b"\n") == after.count(b"\r\n") > before.count(b"\r\n")


def test_a_byte_order_mark_and_a_closing_document_marker_stay(course: Path) -> None:
    before = codecs.BOM_UTF8 + (REVIEWED + "...\n").encode("utf-8")
    after = _extract(course, before)
    assert after.startswith(codecs.BOM_UTF8 + REVIEWED.encode("utf-8"))
    assert after.endswith(b"\n...\n")
    _only_lines_added(before, after)


def test_the_comment_of_a_comment_only_file_stays(course: Path) -> None:
    before = b"# drafts for the attention lesson go here\n"
    after = _extract(course, before)
    assert after.startswith(before)
    assert after.count(b"origin: auto") == 3


def test_a_file_without_a_final_line_break(course: Path) -> None:
    before = REVIEWED.rstrip("\n").encode("utf-8")
    after = _extract(course, before)
    assert after.startswith(before + b"\n-   id: ")


@pytest.mark.parametrize("empty", ["claims:", "claims: []", "claims: null  # none yet"])
def test_an_empty_claims_list_gets_its_first_items(course: Path, empty: str) -> None:
    before = f"# header\nlesson: content/demo.md\n{empty}\n".encode()
    after = _extract(course, before)
    assert after.startswith(b"# header\nlesson: content/demo.md\nclaims:")
    assert after.count(b"origin: auto") == 3
    assert (b"# none yet" in after) == (b"# none yet" in before)


def test_only_the_lines_of_a_vanished_auto_claim_go(course: Path) -> None:
    main(["extract", "content/demo.md"])
    target = course / "claims" / "demo.yaml"
    text = target.read_text(encoding="utf-8").replace("\n", "\r\n")
    text = text.replace("claims:\r\n", "claims:\r\n  # the drafts, untouched by hand\r\n", 1)
    target.write_bytes(text.encode("utf-8"))
    before = target.read_bytes()
    lesson = course / "content" / "demo.md"
    lesson.write_text(LESSON.replace("= 0.52", "= 0.50"), encoding="utf-8")
    assert main(["extract", "content/demo.md"]) == 0
    after = target.read_bytes()
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    opcodes = difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes()
    deleted = [
        line for op in opcodes if op[0] in ("delete", "replace") for line in old[op[1] : op[2]]
    ]
    inserted = [
        line for op in opcodes if op[0] in ("insert", "replace") for line in new[op[3] : op[4]]
    ]
    assert any(b"= 0.52" in line for line in deleted)
    assert any(b"= 0.50" in line for line in inserted)
    assert not any(b"0.38" in line or b"512 KB" in line or b"#" in line for line in deleted)
    assert after.count(b"\n") == after.count(b"\r\n")


def test_removing_every_claim_leaves_an_empty_list(course: Path) -> None:
    main(["extract", "content/demo.md"])
    (course / "content" / "demo.md").write_text("# Nothing to check\n", encoding="utf-8")
    assert main(["extract", "content/demo.md"]) == 0
    text = (course / "claims" / "demo.yaml").read_text(encoding="utf-8")
    assert text == "lesson: content/demo.md\nclaims: []\n"


# ------------------------------------------------------------------------------ item 6


VALID = """lesson: content/demo.md
claims:
  - id: qk  # reviewed
    kind: arithmetic
    quote: "Q·K = 0.6×0.4 + 0.2×0.7 = 0.38"
    expression: 0.6×0.4 + 0.2×0.7
    claimed: 0.38
    note: |
      checked by hand
"""
INSERTIONS = ["\t", "|#", "\x85", "\u2028"]


def _inserted_into(before: str, after: str) -> str:
    """What ``after`` inserts into ``before`` in one place; fails when anything else differs."""
    pairs = enumerate(zip(before, after, strict=False))
    same = next((i for i, (old, new) in pairs if old != new), min(len(before), len(after)))
    assert after.endswith(before[same:]) and len(after) >= len(before), (before, after)
    return after[same : len(after) - (len(before) - same)]


def _mutations() -> list[str]:
    return [
        VALID[:at] + inserted + VALID[at:]
        for inserted in INSERTIONS
        for at in range(len(VALID) + 1)
    ]


@pytest.mark.parametrize(
    "text",
    [
        VALID.replace("  # reviewed", "\t# reviewed"),  # a tab before a comment
        VALID.replace("note: |", "note: |#"),  # a comment right after the indicator
        VALID.replace("    claimed: 0.38\n", "    claimed: 0.38\x85"),  # NEL ends the line
        VALID.replace("kind: arithmetic\n", "kind: arithmetic\u2028"),  # so does U+2028
    ],
    ids=["tab", "bar-hash", "nel", "u2028"],
)
def test_extract_reads_what_check_reads(course: Path, text: str) -> None:
    """Texts libyaml reads and PyYAML (hence ruamel.yaml) refuses: ``check`` accepts them, so
    ``extract`` updates them, keeping every character that was there."""
    target = course / "claims" / "demo.yaml"
    target.write_bytes(text.encode("utf-8"))
    assert safeyaml.load(text).data["claims"][0]["id"] == "qk"
    assert main(["extract", "content/demo.md"]) == 0
    assert _inserted_into(text, target.read_bytes().decode("utf-8")).count("origin: auto") == 2


@pytest.mark.slow  # 1,200 extract runs
def test_extract_reads_every_one_character_mutation_as_check_does(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Insert a tab, ``|#``, NEL or U+2028 at every position of a valid claim file: ``extract``
    either updates the file (keeping what was there) or refuses it with one located error, as
    ``check`` reads it; it never fails with an internal error, and the next lesson still runs."""
    (course / "content" / "other.md").write_text("Twice: 2 × 3 = 6\n", encoding="utf-8")
    target = course / "claims" / "demo.yaml"
    outcomes = {"updated": 0, "refused": 0}
    for text in _mutations():
        target.write_text(text, encoding="utf-8", newline="")
        (course / "claims" / "other.yaml").unlink(missing_ok=True)
        code = main(["extract", "content/demo.md", "content/other.md"])
        captured = capsys.readouterr()
        assert "internal error" not in captured.err, (repr(text), captured.err)
        assert (course / "claims" / "other.yaml").exists(), repr(text)  # the next lesson ran
        try:
            safeyaml.load(text)
        except safeyaml.YamlError:
            assert code == 2 and "claims/demo.yaml:" in captured.err, repr(text)
            assert target.read_bytes().decode("utf-8") == text
            outcomes["refused"] += 1
            continue
        if code == 2:  # read, but its claims cannot be edited line by line: said so, untouched
            assert "claims/demo.yaml" in captured.err and "nothing was changed" in captured.err
            assert target.read_bytes().decode("utf-8") == text
            outcomes["refused"] += 1
            continue
        assert code == 0, (repr(text), captured.err)
        _inserted_into(text, target.read_bytes().decode("utf-8"))
        outcomes["updated"] += 1
    assert outcomes["updated"] > outcomes["refused"] > 0


def test_a_flow_list_of_claims_is_left_alone_with_a_reason(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (
        "lesson: content/demo.md\n"
        "claims: [{id: qk, kind: arithmetic, quote: 'Q·K = 0.6×0.4 + 0.2×0.7 = 0.38',"
        " expression: 0.6×0.4 + 0.2×0.7, claimed: 0.38}]\n"
    ).encode()
    target = course / "claims" / "demo.yaml"
    target.write_bytes(before)
    assert main(["extract", "content/demo.md"]) == 2
    assert target.read_bytes() == before
    error = capsys.readouterr().err
    assert "claims/demo.yaml" in error and "[...] list" in error and "nothing was changed" in error


# ------------------------------------------------------------------- drafts a claim already covers

WRAPPED = """# Cache budget

The cache for one token is small, and we can work it out
step by step: 2 × 16 × 2048 × 2 bytes = 131,072 bytes, which
is 128 KB per token; for four tokens 4 × 128 = 512 KB.

```text
total = 3 × 5
      = 15
```
"""

HAND_WRAPPED = """lesson: content/cache.md
claims:
  # written by hand; the quote is on the second line of a wrapped paragraph
  - id: per-token
    kind: arithmetic
    quote: "2 × 16 × 2048 × 2 bytes = 131,072 bytes"
    expression: 2 × 16 × 2048 × 2
    claimed: 131072
  # a quote over two lines of a fenced block; its number is on the second
  - id: total
    kind: arithmetic
    quote: "total = 3 × 5 = 15"
    expression: 3 × 5
    claimed: 15
"""


def _claims_of(path: Path) -> list[dict[str, object]]:
    data = safeyaml.load(path.read_text(encoding="utf-8")).data
    return list(data["claims"])


def test_a_claim_on_a_wrapped_line_or_over_lines_gets_no_auto_duplicate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "content").mkdir()
    (tmp_path / "claims").mkdir()
    (tmp_path / "content" / "cache.md").write_text(WRAPPED, encoding="utf-8")
    target = tmp_path / "claims" / "cache.yaml"
    target.write_text(HAND_WRAPPED, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["extract", "content/cache.md"]) == 0
    claims = _claims_of(target)
    auto = [c for c in claims if c.get("origin") == "auto"]
    # The statements nobody claimed are drafted (their lines are in the same paragraph) ...
    quotes = sorted(str(c["quote"]) for c in auto)
    assert quotes == ["131,072 bytes, which is 128 KB", "4 × 128 = 512 KB"]
    # ... the two hand-written ones are not drafted again, whichever line their number is on.
    assert [c["id"] for c in claims if c.get("origin") != "auto"] == ["per-token", "total"]
    assert main(["extract", "--check", "content/cache.md"]) == 0


def test_a_claim_on_part_of_a_statement_covers_its_draft_and_an_unrelated_one_does_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "content").mkdir()
    (tmp_path / "claims").mkdir()
    (tmp_path / "content" / "cache.md").write_text(WRAPPED, encoding="utf-8")
    target = tmp_path / "claims" / "cache.yaml"
    # A claim on the result alone ("= 15", on line 9) stands on part of the chain's span; a
    # claim whose quote is elsewhere in the paragraph ("is 128 KB per token") covers nothing.
    target.write_text(
        "lesson: content/cache.md\nclaims:\n"
        "  - id: fifteen\n    kind: arithmetic\n    quote: '= 15'\n"
        "    expression: 3 × 5\n    claimed: 15\n"
        "  - id: per-token-kb\n    kind: arithmetic\n    quote: is 128 KB per token\n"
        "    expression: 131072 / 1024\n    claimed: 128\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    assert main(["extract", "content/cache.md"]) == 0
    auto = sorted(str(c["quote"]) for c in _claims_of(target) if c.get("origin") == "auto")
    # ("131,072 bytes, which is 128 KB" overlaps the hand claim's quote without standing within
    # it or around it: it is drafted too.)
    assert auto == [
        "131,072 bytes, which is 128 KB",
        "2 × 16 × 2048 × 2 bytes = 131,072 bytes",
        "4 × 128 = 512 KB",
    ]


MASKED = """# Masking

Scores, then the causal mask:

```text
     p0    p1    p2
p0   0.5   0.3   0.2
p1   0.1   0.6   0.3
p2   0.2   0.2   0.6
```

Masked:

```text
     p0    p1    p2
p0   0.5   -inf  -inf
p1   0.1   0.6   -inf
p2   0.2   0.2   0.6
```
"""


def test_a_claim_checking_the_same_fields_elsewhere_covers_its_draft(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand claim that quotes the sentence before a matrix and checks what a draft quoting
    the matrix's first row would check (same kind, same inputs) gets no second claim."""
    (tmp_path / "content").mkdir()
    (tmp_path / "claims").mkdir()
    (tmp_path / "content" / "mask.md").write_text(MASKED, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["scan", "content/mask.md"]) in (0, 1)
    assert main(["extract", "content/mask.md"]) == 0
    drafted = _claims_of(tmp_path / "claims" / "mask.yaml")
    assert drafted, "the recognisers draft something for the masked matrix"
    # The same checks written by hand on another quote: nothing is drafted again.
    hand = [
        {**claim, "id": f"hand-{index}", "quote": "Scores, then the causal mask:"}
        for index, claim in enumerate(drafted)
    ]
    for claim in hand:
        claim.pop("origin", None)
        claim.pop("confidence", None)
        claim.pop("occurrence", None)
    target = tmp_path / "claims" / "mask.yaml"
    target.write_text(safeyaml_dump({"lesson": "content/mask.md", "claims": hand}), "utf-8")
    assert main(["extract", "--check", "content/mask.md"]) == 0
    # A hand claim with other inputs covers nothing: the drafts come back.
    for claim in hand:
        claim["kind"] = "arithmetic" if claim["kind"] != "arithmetic" else "identity"
    target.write_text(safeyaml_dump({"lesson": "content/mask.md", "claims": hand}), "utf-8")
    assert main(["extract", "--check", "content/mask.md"]) == 1


def safeyaml_dump(data: object) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


FIXABLE = """# Scores

The first score is worked out on the next line, as a
sum of two products: 0.5×0.4 + 0.3×0.2 = 0.30 for the pair.

Then 6 × 7 = 41 closes the example.
"""


def test_fix_write_then_extract_check_is_clean(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "content").mkdir()
    (tmp_path / "claims").mkdir()
    (tmp_path / "content" / "scores.md").write_text(FIXABLE, encoding="utf-8")
    target = tmp_path / "claims" / "scores.yaml"
    # One claim written by hand (its quote on a wrapped line), the other left to extract.
    target.write_text(
        "lesson: content/scores.md\nclaims:\n"
        "  - id: score\n    kind: arithmetic\n    quote: 0.5×0.4 + 0.3×0.2 = 0.30\n"
        "    expression: 0.5×0.4 + 0.3×0.2\n    claimed: 0.30\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    assert main(["extract", "content/scores.md"]) == 0
    before = _claims_of(target)
    assert len(before) == 2
    assert main(["check", "-q"]) == 1  # 0.30 (0.26) and 41 (42) are wrong
    assert main(["fix", "--write"]) == 0
    lesson = (tmp_path / "content" / "scores.md").read_text(encoding="utf-8")
    assert "= 0.26 for the pair" in lesson and "6 × 7 = 42" in lesson
    assert main(["extract", "--check", "content/scores.md"]) == 0
    after = _claims_of(target)
    assert [c["id"] for c in after] == [c["id"] for c in before]
    assert [c.get("origin") for c in after] == [None, "auto"]


REPEATED = """# Products

First we work it out: 6 × 7 = 42 for the grid.

Later the text repeats it: 6 × 7 = 42, and adds 6 × 8 = 48.

A third time with a mistake: 6 × 7 = 43.
"""


def test_a_claim_stating_the_same_numbers_elsewhere_covers_a_draft_and_a_changed_number_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand claim anchored on one place (a caption, the first of two identical statements)
    covers a draft of the same kind with the same inputs and printed values, numbers compared as
    printed (0.10 = 0.1 = 0.100); a draft whose printed value differs is still drafted."""
    (tmp_path / "content").mkdir()
    (tmp_path / "claims").mkdir()
    (tmp_path / "content" / "products.md").write_text(REPEATED, encoding="utf-8")
    target = tmp_path / "claims" / "products.yaml"
    target.write_text(
        "lesson: content/products.md\nclaims:\n"
        "  - id: grid\n    kind: arithmetic\n    quote: 'First we work it out:'\n"
        "    expression: 6 × 7\n    claimed: 42.0\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    assert main(["extract", "content/products.md"]) == 0
    auto = [c for c in _claims_of(target) if c.get("origin") == "auto"]
    assert sorted(str(c["claimed"]) for c in auto) == ["43", "48"]
    assert main(["extract", "--check", "content/products.md"]) == 0
    assert main(["check", "-q"]) == 1  # 6 × 7 = 43 is drafted, and fails
