"""report.html: one self-contained page; lessons as numbered source lines with marked claims."""

from __future__ import annotations

import importlib.resources
import re
import shutil
import subprocess
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser
from pathlib import Path

import pytest

from checkers.report import html
from tests.report import (
    CARRIER,
    ERROR,
    EVIL,
    FAIL,
    FILE_ERROR,
    FINDINGS,
    LESSON,
    LESSON_PATH,
    PASS,
    PROBLEMS,
    STALE,
)

VOID = {"meta", "link", "input", "br", "img", "hr", "wbr", "source", "area", "base", "col"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str | None]
    children: list[Node | str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text for c in self.children)

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def iter(self) -> list[Node]:
        found = [self]
        for child in self.children:
            if isinstance(child, Node):
                found.extend(child.iter())
        return found


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, dict(attrs))
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(page: str) -> Node:
    builder = _TreeBuilder()
    builder.feed(page)
    builder.close()
    assert builder.stack == [builder.root], "unclosed elements"
    return builder.root


def by_id(root: Node, element_id: str) -> Node:
    matches = [n for n in root.iter() if n.attrs.get("id") == element_id]
    assert len(matches) == 1, element_id
    return matches[0]


def by_class(root: Node, name: str) -> list[Node]:
    return [n for n in root.iter() if name in n.classes]


@pytest.fixture(scope="module")
def page() -> str:
    return html.render(FINDINGS, {LESSON_PATH: LESSON})


@pytest.fixture(scope="module")
def dom(page: str) -> Node:
    return parse(page)


def test_template_ships_with_the_package() -> None:
    template = importlib.resources.files("checkers.report") / "templates" / "report.html.j2"
    assert template.is_file()


def test_page_is_well_formed_and_mobile_ready(dom: Node) -> None:
    metas = [n.attrs for n in dom.iter() if n.tag == "meta"]
    assert {"name": "viewport", "content": "width=device-width, initial-scale=1"} in metas
    assert any(m.get("charset") == "utf-8" for m in metas)
    assert "@media (max-width" in by_tag(dom, "style")[0].text
    assert "overflow-wrap: anywhere" in by_tag(dom, "style")[0].text


def by_tag(root: Node, tag: str) -> list[Node]:
    return [n for n in root.iter() if n.tag == tag]


def test_page_is_self_contained(page: str, dom: Node) -> None:
    for node in dom.iter():
        for name in ("src", "href", "action", "srcset", "poster", "data"):
            value = node.attrs.get(name)
            if value is not None and node.tag != "meta":
                assert value.startswith(("#", "data:")), (node.tag, name, value)
    assert "@import" not in page and "url(" not in page
    assert not re.search(r"https?://", page)
    scripts = by_tag(dom, "script")
    assert len(scripts) == 1 and "src" not in scripts[0].attrs
    csp = next(n for n in by_tag(dom, "meta") if n.attrs.get("http-equiv"))
    assert "default-src 'none'" in (csp.attrs.get("content") or "")


def test_summary_counts(dom: Node) -> None:
    assert by_id(dom, "failure-count").text == str(len(PROBLEMS))
    assert by_id(dom, "count-pass").text == "2"
    assert by_id(dom, "count-fail").text == "2"
    assert by_id(dom, "count-stale").text == "1"
    assert by_id(dom, "count-error").text == "2"
    control = by_id(dom, "filter-failures")
    assert control.tag == "input" and control.attrs.get("type") == "checkbox"


def test_failure_count_when_nothing_fails() -> None:
    for findings in ([PASS], []):
        assert by_id(parse(html.render(findings, {})), "failure-count").text == "0"


def test_every_finding_is_a_block_with_verdict_line_and_anchor(dom: Node) -> None:
    blocks = by_class(dom, "finding")
    assert len(blocks) == len(FINDINGS)
    seen = {(b.attrs["data-id"], b.attrs["data-line"], b.attrs["data-verdict"]) for b in blocks}
    expected = {(f.id, str(f.line) if f.line else "", f.verdict) for f in FINDINGS}
    assert seen == expected
    ids = [b.attrs["id"] for b in blocks]
    assert len(set(ids)) == len(ids)
    assert "claim-claims-demo-yaml-dot-wrong" in ids
    for block_id in ids:
        assert block_id is not None and re.fullmatch(r"claim-[A-Za-z0-9_-]+", block_id)


def test_anchor_id_is_sanitised_and_deduplicated() -> None:
    assert html.anchor_id(EVIL) == "claim-claims-demo-yaml-evil--b--id-"
    twins = [replace(FAIL, id="a/b"), replace(FAIL, id="a.b", line=6)]
    dom = parse(html.render(twins, {}))
    assert [b.attrs["id"] for b in by_class(dom, "finding")] == [
        "claim-claims-demo-yaml-a-b",
        "claim-claims-demo-yaml-a-b-2",
    ]


def test_fail_block_shows_claimed_recomputed_tolerance_message_and_fix(dom: Node) -> None:
    block = by_id(dom, "claim-claims-demo-yaml-dot-wrong")
    text = " ".join(block.text.split())
    for part in (
        "FAIL",
        "0.52",
        "0.5 → 0.50",
        "±0.005: 2 printed decimals",
        "0.5×0.5 + 0.5×0.5 is 0.5 → 0.50, not 0.52",
        "score = 0.5×0.5 + 0.5×0.5 = 0.50",
        "content/demo.md:5",
    ):
        assert part in text, part


def test_lesson_is_shown_as_numbered_source_lines_with_marks(dom: Node) -> None:
    lines = [n for n in by_class(dom, "line") if n.tag == "div"]
    assert len(lines) == LESSON.count("\n")
    assert [by_class(n, "ln")[0].text for n in lines] == [str(i) for i in range(1, 12)]
    assert by_class(lines[0], "text")[0].text == "# Demo lesson"  # not rendered as a heading
    marks = {int(by_class(n, "ln")[0].text): by_class(n, "mark")[0].text for n in lines}
    assert marks[3] == "PASS" and marks[5] == "FAIL" and marks[7] == "FAIL"
    assert marks[9] == "PASS" and marks[1] == ""
    # The finding block follows its line.
    line5 = by_id(dom, "lesson-content-demo-md-L5")
    assert {"marked", "v-fail"} <= line5.classes


def test_claim_file_problems_are_listed_apart(dom: Node) -> None:
    unplaced = by_class(dom, "unplaced")
    names = {b.attrs["data-id"] for u in unplaced for b in by_class(u, "finding")}
    assert names == {STALE.id, ERROR.id, FILE_ERROR.id}
    broken = by_id(dom, "lesson-claims-broken-yaml")
    assert "not available" in broken.text


def test_lesson_text_and_claims_are_escaped(page: str, dom: Node) -> None:
    assert "<script>alert" not in page
    assert "<img" not in page and "<b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    line7 = by_id(dom, "lesson-content-demo-md-L7")
    assert by_class(line7, "text")[0].text == EVIL.quote
    block = next(b for b in by_class(dom, "finding") if b.attrs["data-id"] == EVIL.id)
    assert EVIL.message in block.text


def test_inherited_error_links_to_the_upstream_claim(dom: Node) -> None:
    block = by_id(dom, "claim-claims-demo-yaml-scaled")
    assert block.attrs["data-verdict"] == "pass"
    links = [a.attrs["href"] for a in by_tag(block, "a")]
    assert "#claim-claims-demo-yaml-dot-wrong" in links
    assert CARRIER.details[0] in block.text


def test_failures_only_keeps_context_lines(dom: Node) -> None:
    near = {
        int(by_class(n, "ln")[0].text)
        for n in by_class(dom, "line")
        if n.tag == "div" and "near" in n.classes
    }
    assert near == {3, 4, 5, 6, 7, 8, 9}  # two lines around 5 and 7
    summary = by_id(dom, "lesson-content-demo-md")
    assert summary.attrs["data-problems"] == "4"


def test_script_is_valid_javascript(dom: Node, tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = tmp_path / "report.js"
    script.write_text(by_tag(dom, "script")[0].text, encoding="utf-8")
    subprocess.run([node, "--check", str(script)], check=True, capture_output=True)


def test_missing_lesson_text_still_lists_its_findings() -> None:
    dom = parse(html.render([PASS, FAIL], {}))
    assert len(by_class(dom, "finding")) == 2
    assert "not available" in by_id(dom, "lesson-content-demo-md").text


def test_finding_beyond_the_lesson_end_is_listed_apart() -> None:
    late = replace(FAIL, line=500)
    dom = parse(html.render([late], {LESSON_PATH: LESSON}))
    assert len(by_class(by_class(dom, "unplaced")[0], "finding")) == 1


def test_crlf_and_bom_lessons(tmp_path: Path) -> None:
    lesson = tmp_path / LESSON_PATH
    lesson.parent.mkdir()
    lesson.write_bytes(b"\xef\xbb\xbf" + LESSON.replace("\n", "\r\n").encode("utf-8"))
    texts = html.read_lessons([FAIL], tmp_path)
    dom = parse(html.render([FAIL], texts))
    line1 = by_id(dom, "lesson-content-demo-md-L1")
    assert by_class(line1, "text")[0].text == "# Demo lesson"


def test_read_lessons_stays_inside_root(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "content").mkdir(parents=True)
    (root / LESSON_PATH).write_text(LESSON, encoding="utf-8")
    secret = tmp_path / "secret.md"
    secret.write_text("token", encoding="utf-8")
    (root / "content" / "link.md").symlink_to(secret)
    findings = [
        FAIL,
        replace(FAIL, source="../secret.md"),
        replace(FAIL, source=str(secret)),
        replace(FAIL, source="content/link.md"),
        replace(FAIL, source="content/missing.md"),
        replace(FAIL, source="content"),
    ]
    assert html.read_lessons(findings, root) == {LESSON_PATH: LESSON}


def test_read_lessons_tolerates_unreadable_files(tmp_path: Path) -> None:
    (tmp_path / "content").mkdir()
    (tmp_path / LESSON_PATH).write_bytes(b"caf\xe9\n")
    assert html.read_lessons([FAIL], tmp_path) == {LESSON_PATH: "caf\ufffd\n"}


def test_write_reads_lessons_relative_to_root(tmp_path: Path) -> None:
    (tmp_path / "content").mkdir()
    (tmp_path / LESSON_PATH).write_text(LESSON, encoding="utf-8")
    target = tmp_path / "out" / "report.html"
    html.write(target, FINDINGS, tmp_path)
    assert "Q我·K我 = 0.6×0.4 + 0.2×0.7 = 0.38" in target.read_text(encoding="utf-8")
    assert [p.name for p in target.parent.iterdir()] == ["report.html"]


def test_page_opens_on_an_index_of_lessons_failures_first(page: str, dom: Node) -> None:
    index = by_id(dom, "lesson-index")
    assert page.index('id="lesson-index"') < page.index('class="lesson"')  # before the lessons
    rows = [n for n in by_tag(index, "tr") if "data-lesson" in n.attrs]
    assert [r.attrs["data-lesson"] for r in rows] == [LESSON_PATH, FILE_ERROR.claims_file]
    cells = [[c.text for c in by_tag(row, "td")[1:]] for row in rows]
    assert cells == [["2", "1", "1", "2"], ["0", "0", "1", "0"]]  # fail, stale, error, pass
    assert [a.attrs["href"] for a in by_tag(rows[0], "a")] == ["#lesson-content-demo-md"]
    # The lessons below follow the index's order.
    sections = [n.attrs["id"] for n in by_class(dom, "lesson") if n.tag == "section"]
    assert sections == ["lesson-content-demo-md", "lesson-claims-broken-yaml"]


def test_lessons_with_more_problems_come_first() -> None:
    quiet = [replace(PASS, source="content/a.md"), replace(FAIL, source="content/z.md")]
    rows = [
        n.attrs["data-lesson"]
        for n in by_tag(by_id(parse(html.render(quiet, {})), "lesson-index"), "tr")
        if "data-lesson" in n.attrs
    ]
    assert rows == ["content/z.md", "content/a.md"]


def test_passing_claims_are_collapsed_and_the_others_open(dom: Node) -> None:
    for block in by_class(dom, "finding"):
        (card,) = by_tag(block, "details")
        assert ("open" in card.attrs) == (block.attrs["data-verdict"] != "pass"), block.attrs
        assert by_tag(card, "summary")[0].text.split()[0] == block.attrs["data-verdict"].upper()


def test_the_corrected_number_is_highlighted_in_its_line_and_fix(dom: Node) -> None:
    line5 = by_id(dom, "lesson-content-demo-md-L5")
    assert [m.text for m in by_tag(line5, "mark")] == ["0.52"]
    assert by_class(line5, "text")[0].text == FAIL.quote  # the line itself is unchanged
    block = by_id(dom, "claim-claims-demo-yaml-dot-wrong")
    (fix,) = [n for n in by_tag(block, "dd") if "fix" in n.classes]
    assert [m.text for m in by_tag(fix, "mark")] == ["0.50"] and fix.text == FAIL.fix
    # A quote that is not where the finding says (column 3 here) marks nothing in the line.
    line7 = by_id(dom, "lesson-content-demo-md-L7")
    assert by_tag(line7, "mark") == []
    # A passing line has no mark.
    assert by_tag(by_id(dom, "lesson-content-demo-md-L3"), "mark") == []


def test_slips_and_quiet_findings_are_badged_counted_and_filtered() -> None:
    from tests.report import QUIET

    dom = parse(html.render(QUIET, {LESSON_PATH: LESSON}))
    findings = {n.attrs["data-id"]: n for n in dom.iter() if "finding" in n.classes}
    badge = {key: by_class(node, "badge")[0].text for key, node in findings.items()}
    assert badge["share-truncated"] == "SLIP" and badge["dot-wrong"] == "FAIL"
    assert badge["legacy"] == "SUPPRESSED" and badge["quarter-four"] == "MARKED WRONG"
    assert findings["share-truncated"].attrs["data-severity"] == "slip"
    quiet = {key for key, node in findings.items() if "data-quiet" in node.attrs}
    assert quiet == {"dot-right", "legacy", "old", "quarter-four", "quarter-eight"}
    assert by_id(dom, "failure-count").text == "2"  # the slip and the error
    assert by_id(dom, "count-slip").text == "1"
    assert by_id(dom, "count-suppressed").text == "2"
    assert by_id(dom, "count-marked_wrong").text == "2"
    assert "but it holds" in findings["quarter-eight"].text
    assert ".lessoncheck.toml: ignore" in findings["old"].text
