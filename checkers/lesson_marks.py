"""What a lesson's own text says about its statements: the ones its author marks wrong, and the
ones a ``lessoncheck: ignore`` comment silences.

Lessons show mistakes on purpose ("Step 3: 52 / 2 = 25 ✗ — wait, 52 / 2 = 26", a block headed
"❌ 错误计算", "原始计算有重大错误:"), and an author may silence a line the way linters allow
(``<!-- lessoncheck: ignore -->``). :func:`read_marks` reads both from a lesson's text once;
:func:`apply_marks` is the one function the runner applies to every finding by its anchored line,
so hand-written claims and ``scan`` drafts are treated alike:

- a statement marked wrong becomes ``marked_wrong`` (never a failure): "marked wrong by the
  author (❌ on line 40): …", or, when it holds after all, "marked wrong by the author (…), but
  it holds: …";
- a failure on a silenced line becomes ``suppressed``, counted as such in every report.

Where a mark reaches:

- **on the statement's line**: a cross (✗ ✘ ✖ ❌ ❎) or a judgement word ("wrong", "incorrect",
  "is wrong", "错误:", "错了", "不对", "有误", "不正确", "有重大错误") marks the statements of its
  own sentence that start before it ("52 / 2 = 25 ✗ wait, 52 / 2 = 26" marks the first only;
  "… = 0.6561. This shows the model was quite wrong." marks nothing); a mark at the start of the
  line or followed by a colon ("Wrong: 2 + 2 = 5", "❌ 0.5 × 4 = 3") marks what follows it, to the
  end of that sentence;
- **a block so headed**: a line that is only a mark and a label ("❌ 错误计算", "**Wrong
  approach:**", "原始计算有重大错误:") marks the block after it — the next paragraph, list or
  fenced block, up to a blank line, a heading or a line marked right (✓ ✅ "正确" "correct");
- **a section so headed**: a Markdown heading with a mark marks its section, up to the next
  heading of the same or a higher level, or a line marked right.

Judgement words are matched as judgements, not as nouns: "错误率" (error rate), "wrong
predictions", "what can go wrong" mark nothing; and table rows are never read for marks (✗ in a
table cell means "no"). A mark that is not there leaves the failure standing, so the patterns
are narrow on purpose: a missed mark costs one visible failure, a false one hides a mistake.

Suppression comments (HTML comments, invisible in rendered Markdown):

- ``<!-- lessoncheck: ignore -->`` alone on a line silences the next non-blank line; after text
  on the same line, that line;
- ``<!-- lessoncheck: ignore-start -->`` … ``<!-- lessoncheck: ignore-end -->`` silences the
  lines between (an unterminated start runs to the end of the lesson);
- text after the directive is kept as the reason: ``<!-- lessoncheck: ignore as printed in the
  paper -->``;
- in MDX, where HTML comments are not allowed, the same directives as JSX comments:
  ``{/* lessoncheck: ignore */}``.

Written by hand: no Markdown library reports where a judgement about a statement reaches; the
scan is one pass over the lines, after one search that most lessons fail (no mark at all).
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from checkers.finding import Finding, Suppression
from checkers.lesson import caseless

__all__ = ["LessonMarks", "WrongMark", "apply_marks", "as_marked_wrong", "read_marks"]


@dataclass(frozen=True)
class WrongMark:
    """Where an author marked a statement wrong, and how far the mark reaches on its line."""

    line: int
    """The line the mark is on."""
    column: int
    """1-based column of the mark on that line."""
    text: str
    """The mark as written (``❌``, ``错误计算``, ``wrong``)."""
    first: int = 1
    """First column on the mark's line at which a statement it covers may start."""
    last: int = sys.maxsize
    """Last such column. A mark covers its own sentence: the statements before it
    ("52 / 2 = 25 ✗"), or after it when it starts the line or precedes a colon
    ("Wrong: 2 + 2 = 5"), never the next sentence ("… ✗ Wait, 52 / 2 = 26"); a mark heading a
    block or section covers the whole of each line in it."""

    def describe(self) -> str:
        """``❌ on line 40`` — what a message names."""
        return f"{self.text} on line {self.line}"


@dataclass(frozen=True)
class LessonMarks:
    """The marks of one lesson, by the line they apply to."""

    wrong: Mapping[int, tuple[WrongMark, ...]]
    """Line → the wrong-marks that reach it."""
    ignored: Mapping[int, str]
    """Line → the ``ignore`` comment that silences it (``<!-- lessoncheck: ignore --> on line
    12``, with its reason when one was written)."""
    ignored_ranges: tuple[tuple[int, int, str], ...] = ()
    """(first line, last line, the ``ignore-start`` comment) of each silenced region."""

    def ignored_by(self, line: int) -> str | None:
        """The suppression comment that silences ``line``, or None."""
        single = self.ignored.get(line)
        if single is not None:
            return single
        return next(
            (why for first, last, why in self.ignored_ranges if first <= line <= last), None
        )

    def marked_wrong(self, line: int, column: int | None) -> WrongMark | None:
        """The mark that makes the statement starting at (line, column) marked wrong, or None."""
        for mark in self.wrong.get(line, ()):
            if mark.line != line or column is None or mark.first <= column <= mark.last:
                return mark
        return None


NO_MARKS = LessonMarks({}, {}, ())
"""The marks of a lesson that has none (most lessons)."""

_CROSSES = "✗✘✖❌❎"
_TICKS = "✓✔✅☑"

# A judgement that a statement is wrong, as authors write it. English words count only where
# they judge ("is wrong", "Wrong:", "(incorrect)", "wrong calculation"), not where they count
# ("3 wrong answers"), and never after "not"; Chinese 错误 only as a judgement ("错误:",
# "有重大错误", "错误计算"), never in compounds such as 错误率 (error rate) or 错误处理, and
# 不对 / 有误 not in 不对称 (asymmetric) or 有误差 (has a margin of error).
_WRONG_WORD = re.compile(
    r"""
      (?<![A-Za-z])(?<!not\ )(?<!n't\ )(?<!never\ )
      (?:
          (?:is|are|was|were|looks|seems|that's|this\ is|it's)\s+(?:(?!not\b|never\b)\w+\s+)?
          (?:wrong|incorrect|mistaken)\b
        | (?:wrong|incorrect)(?=\s*[:!)\]—*]|\s*$|\s*\.(?:\s|$))
        | (?:wrong|incorrect|erroneous|mistaken)\s+
          (?:calculation|computation|math|result|approach|way|answer|version|example|attempt)\b
      )
    | (?<!没有)(?<!并无)(?<![没无])错误(?=\s*[*_]*\s*[:：!！）)】\]]|\s*[*_]*\s*$)
    | (?<![没无不])(?:有|存在|犯了?|出现了?|是)[^\s，。,.:：]{0,4}?错误
    | 错误(?:的(?:计算|做法|写法|示例|答案|结果|推导|例子|版本)
          |计算|示例|示范|做法|写法|答案|结果|推导)
    | 错了 | (?<!对)不对(?![称齐等应])| 有误(?![差导]) | 不正确 | 是错的
    """,
    re.VERBOSE | re.IGNORECASE,
)
_CROSS = re.compile(f"[{_CROSSES}]")
_WORD_HINT = re.compile("wrong|incorrect|mistaken|erroneous|错|不对|有误|不正确", re.IGNORECASE)
_GOES_WRONG = re.compile(r"\b(?:go|goes|went|going|gone)\s+wrong\b", re.IGNORECASE)
_RIGHT_WORD = re.compile(
    r"正确|修正|更正|改正|应为|应该是|(?<![A-Za-z])(?:correct(?:ed|ion)?|fixed|right)\s*[*_]*\s*[:：]"
    r"|(?<![A-Za-z])correct\s+(?:calculation|computation|answer|result|version|approach|way)\b",
    re.IGNORECASE,
)
_MARK_WORDS = (*_CROSSES, "lessoncheck", "wrong", "incorrect", "erroneous", "mistaken")
_MARK_WORDS += ("错", "不对", "有误", "不正确")
"""What every mark and directive holds, in lower case: a lesson with none of them has no marks."""
_INTERESTING_WORDS = (*_MARK_WORDS, *_TICKS, "correct", "fixed", "right")
_INTERESTING_WORDS += ("正确", "修正", "更正", "改正", "应为", "应该是")
"""What a line holding a mark, a right-mark or a directive holds (a superset), in lower case."""
_DIRECTIVE = re.compile(
    r"(<!--|\{/\*)\s*lessoncheck\s*:\s*(ignore(?:-start|-end)?)\b(.*?)(?:-->|\*/\})"
)
_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:\s+|$)")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_COLON_AFTER = re.compile(r"\s*[*_]*\s*[:：]")
_SENTENCE_END = re.compile(r"[。！？；]|[.!?;](?=\s|$)")
_AFTER_MARK = re.compile(r"[\s*_:：!！.。)）\]】—-]*")
_CONTENT = re.compile(r"[^\s>*_#\-+.:：()（）\[\]【】!！、]")
MAX_MARKED_LINES = 10_000
"""Lines read for marks in one lesson; marks after them are not read, so their failures stand
(a missed mark costs a visible failure, never a hidden one) and a hostile lesson of a million
crosses costs a bounded time."""
MAX_MARKS_PER_LINE = 16
"""Marks read on one line (the first ones decide; a hostile line of a million crosses must
not cost a million passes over itself)."""


def _marks_on(line: str, number: int) -> list[WrongMark]:
    """The wrong-marks written on one line, left to right (none on a table row)."""
    if line.lstrip().startswith("|"):
        return []
    found: list[tuple[int, int, str]] = [
        (m.start(), m.end(), m.group())
        for m in itertools.islice(_CROSS.finditer(line), MAX_MARKS_PER_LINE)
    ]
    if _WORD_HINT.search(line):
        gone = [m.span() for m in itertools.islice(_GOES_WRONG.finditer(line), MAX_MARKS_PER_LINE)]
        words = (
            m
            for m in _WRONG_WORD.finditer(line)
            if not any(start <= m.start() < end for start, end in gone)
        )
        for match in itertools.islice(words, MAX_MARKS_PER_LINE):
            found.append((match.start(), match.end(), match.group().strip()))
    if not found:
        return []
    content = _CONTENT.search(line)
    first = content.start() if content is not None else len(line)
    ends = [m.end() for m in _SENTENCE_END.finditer(line)]  # offsets just after each sentence
    marks = []
    for start, end, text in sorted(found)[:MAX_MARKS_PER_LINE]:
        at_start = start <= first  # only bullets, quote markers or emphasis before the mark
        colon = _COLON_AFTER.match(line, end) is not None
        index = bisect.bisect_right(ends, start)
        sentence_start = ends[index - 1] if index else 0
        if at_start or colon:  # what follows the mark, to the end of that sentence
            # "Wrong! 2 + 2 = 5": the punctuation right after the mark ends no sentence.
            after = _AFTER_MARK.match(line, end)
            index = bisect.bisect_right(ends, after.end() if after else end)
            sentence_end = ends[index] if index < len(ends) else len(line)
            marks.append(WrongMark(number, start + 1, text, sentence_start + 1, sentence_end))
        else:  # what precedes it in its sentence
            marks.append(WrongMark(number, start + 1, text, sentence_start + 1, start))
    return marks


def _whole_lines(mark: WrongMark) -> WrongMark:
    """The mark as it reaches the lines of the block or section it heads: all of each."""
    return dataclasses.replace(mark, first=1, last=sys.maxsize)


def _heads_block(line: str, marks: list[WrongMark]) -> bool:
    """A line that labels what follows as wrong, stating nothing itself: it ends with a colon
    ("原始计算有重大错误:", "Step 3 is wrong:"), or it starts with a judgement word and prints
    no number ("❌ 错误计算", "**Wrong approach**"). A cross alone does not head a block: in a
    list, "✗ Expensive" means "no", not "what follows is wrong"."""
    if not marks:
        return False
    if line.rstrip().rstrip("*_ ").endswith((":", "：")):
        return True
    words = [m for m in marks if m.text not in _CROSSES]
    if not words or marks[0].first != 1:
        return False
    rest = line
    for mark in sorted(marks, key=lambda m: -m.column):
        rest = rest[: mark.column - 1] + rest[mark.column - 1 + len(mark.text) :]
    return re.search(r"\d", rest) is None


def _marked_right(line: str) -> bool:
    return any(ch in line for ch in _TICKS) or _RIGHT_WORD.search(line) is not None


@dataclass
class _Scopes:
    """The wrong-marked block and section a line may be in, while :func:`read_marks` walks."""

    section: tuple[int, WrongMark] | None = None
    """(level of the heading, its mark) of a section headed by a wrong-mark."""
    block: WrongMark | None = None
    """The mark heading the block being read."""
    block_started: bool = False
    """The block has had a non-blank line."""
    block_fenced: bool = False
    """The block is a fenced block, which ends at its closing fence, not at a blank line."""

    def open_block(self, mark: WrongMark) -> None:
        self.block, self.block_started, self.block_fenced = mark, False, False

    def current(self) -> list[WrongMark]:
        return [m for m in (self.block, self.section[1] if self.section else None) if m]


def _ignore_directives(line: str, number: int) -> tuple[list[tuple[str, str]], bool]:
    """The suppression directives on a line as (name, "… on line N (reason)"), and whether the
    line holds anything besides them."""
    directives = []
    for match in _DIRECTIVE.finditer(line):
        opener, name, reason = match.group(1), match.group(2), " ".join(match.group(3).split())
        closer = "-->" if opener == "<!--" else "*/}"
        where = f"{opener} lessoncheck: {name} {closer} on line {number}" + (
            f" ({reason})" if reason else ""
        )
        directives.append((name, where))
    return directives, bool(directives) and bool(_DIRECTIVE.sub("", line).strip())


@lru_cache(maxsize=64)
def read_marks(text: str) -> LessonMarks:
    """Every wrong-mark and suppression comment of a lesson, by the line it applies to
    (remembered per text: the runner asks once per finding)."""
    lowered = caseless(text)
    if not any(word in lowered for word in _MARK_WORDS):
        return NO_MARKS
    lines = text.split("\n")
    interesting = _interesting_lines(lowered)
    wrong: dict[int, list[WrongMark]] = {}
    ignored: dict[int, str] = {}
    ranges: list[tuple[int, int, str]] = []
    pending: str | None = None  # an "ignore" waiting for its next non-blank line
    region: tuple[int, str] | None = None  # an open "ignore-start": (first line, what)
    fence: str | None = None
    scopes = _Scopes()
    for number, line in enumerate(lines, start=1):
        marked_here = number in interesting
        if not marked_here and pending is None and scopes.block is None and scopes.section is None:
            # Most lines: nothing to read but whether a fenced block opens or closes.
            if "`" in line or "~" in line:
                fence = _track_fence(line, fence)
            continue
        stripped = line.strip()
        if marked_here:
            directives, with_text = _ignore_directives(line, number)
            for name, where in directives:
                if name == "ignore" and with_text:
                    ignored[number] = where
                elif name == "ignore":
                    pending = where
                elif name == "ignore-start" and region is None:
                    region = (number + 1, where)
                elif name == "ignore-end" and region is not None:
                    ranges.append((region[0], number - 1, region[1]))
                    region = None
            if directives and not with_text:
                continue
        if stripped and pending is not None:
            ignored.setdefault(number, pending)
            pending = None

        in_fence = fence is not None
        fence_match = _FENCE.match(line) if "`" in line or "~" in line else None
        if fence_match is not None:
            fence = _track_fence(line, fence)
        marks = _marks_on(line, number) if marked_here else []
        right = marked_here and not marks and _marked_right(line)
        heading = None if in_fence or "#" not in line else _HEADING.match(line)
        if heading is not None:
            level = len(heading.group(1))
            if scopes.section is not None and level <= scopes.section[0]:
                scopes.section = None
            scopes.block = None
            if marks:
                scopes.section = (level, _whole_lines(marks[0]))
        if right:
            scopes.section = scopes.block = None
        if scopes.block is not None and not stripped and scopes.block_started:
            scopes.block = scopes.block if scopes.block_fenced else None
        reach = scopes.current() if stripped else []
        if scopes.block is not None and stripped:
            if not scopes.block_started and fence_match is not None and not in_fence:
                scopes.block_fenced = True
            elif scopes.block_fenced and in_fence and fence is None:
                scopes.block = None  # the fenced block closed on this line
            scopes.block_started = True
        if heading is None and _heads_block(line, marks):
            scopes.open_block(_whole_lines(marks[0]))
        if reach or marks:
            wrong.setdefault(number, []).extend([*reach, *marks])
    if region is not None:
        ranges.append((region[0], len(lines), region[1]))
    return LessonMarks({k: tuple(v) for k, v in wrong.items()}, ignored, tuple(ranges))


def _track_fence(line: str, fence: str | None) -> str | None:
    """The fence still open after ``line`` (a run of backticks or tildes), or None."""
    match = _FENCE.match(line)
    if match is None:
        return fence
    token = match.group(1)
    if fence is None:
        return token[0] * len(token)
    return None if line.strip().startswith(fence) else fence


def _interesting_lines(lowered: str) -> set[int]:
    """Numbers of the lines that hold a mark, a right-mark or a directive (a superset), at most
    the first :data:`MAX_MARKED_LINES`: lines without any are only checked for fences (and
    scopes). ``lowered`` is the lesson as :func:`checkers.lesson.caseless` gives it."""
    starts: set[int] = set()  # where each such line starts
    for word in _INTERESTING_WORDS:
        at, found = lowered.find(word), 0
        while at != -1 and found < MAX_MARKED_LINES:  # a word's later lines come too late
            starts.add(lowered.rfind("\n", 0, at) + 1)
            found += 1
            end = lowered.find("\n", at)
            at = lowered.find(word, end + 1) if end != -1 else -1  # on from the next line
    lines: set[int] = set()
    number, position = 1, 0
    for start in sorted(starts)[:MAX_MARKED_LINES]:
        number += lowered.count("\n", position, start)
        position = start
        lines.add(number)
    return lines


def as_marked_wrong(finding: Finding, how: str) -> Finding:
    """A passing or failing ``finding`` reported as marked wrong by the author (``how``: the
    mark and where, ``❌ on line 40``), never failing and never "fixed"; when it holds, the
    message says so."""
    said = f"marked wrong by the author ({how})"
    holds = finding.verdict == "pass"
    return dataclasses.replace(
        finding,
        verdict="marked_wrong",
        message=f"{said}, but it holds: {finding.message}"
        if holds
        else f"{said}: {finding.message}",
        fix=None,
        marked=how,
        severity=None if holds else finding.severity,
    )


def apply_marks(finding: Finding, marks: LessonMarks) -> Finding:
    """``finding`` as its lesson's marks make it: ``marked_wrong`` when its statement is marked
    wrong (whether it fails or holds), ``suppressed`` when it fails on a silenced line, else
    unchanged. Findings that do not point at a lesson line, stale claims and errors are never
    changed: an author's comment cannot hide a claim that is out of date or broken."""
    if (
        marks is NO_MARKS
        or finding.location_kind != "lesson"
        or finding.line is None
        or finding.verdict not in ("pass", "fail")
    ):
        return finding
    mark = marks.marked_wrong(finding.line, finding.column)
    if mark is not None:
        return as_marked_wrong(finding, mark.describe())
    silenced = marks.ignored_by(finding.line)
    if silenced is not None and finding.verdict == "fail":
        return dataclasses.replace(
            finding,
            verdict="suppressed",
            message=f"suppressed by {silenced}: {finding.message}",
            suppression=Suppression("inSource", silenced),
        )
    return finding
