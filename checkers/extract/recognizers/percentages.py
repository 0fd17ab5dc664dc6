"""Recogniser ``percentages``: savings, increases and ratios stated from two counts.

Recognises, within one sentence:

* two counts with the same unit word and a saving stated as a percentage after them:
  ``不缓存的话累计 15 次，缓存之后只要 5 次，省 67%`` → 1 − 5/15;
  ``from 20 steps to 5 steps, a saving of 75%``;
* ``from A to B`` / ``从 A 降到 B`` with a percentage: a decrease 1 − B/A, an increase B/A − 1
  (``提升``, ``增加``, ``increase``, ``more``, ``faster``, ``growth``);
* the same two counts with a ratio ``N×`` / ``N 倍`` / ``N-fold`` (``shrinks by 8×``,
  ``快 3 倍``): the larger count over the smaller;
* shares with their part and whole in one clause: ``39 of 141 layers (28%)``, ``37B of 671B
  total, i.e. 5.5%``, a fraction with its percentage in brackets (``ratio 13/47 (28%)``,
  ``17B/400B (4.25%)``), ``141 层中有 39 层，占 28%`` and ``39 层，占全部 141 层的 28%``;
* a share between two quantities the section has named with their values: ``warmup $w =
  2000$ 步，总步数 $T = 12000$`` … ``warmup 占总步数的 16.7%`` (``A 占 B 的 P%``, ``A is P% of
  B``, ``A takes up P% of B``): A / B, each value read from where the section assigned it
  (``name = N``, ``name N``, ``name (symbol) = N``) before the statement;
* a difference stated against a second quantity of the same unit: ``the 7B model is 50%
  smaller than the 14B one`` (1 − 7/14), ``24 GB is 50% more than 16 GB`` (24/16 − 1).

Sentences with more or fewer than two such counts are left alone: which two a percentage
compares would be a guess. The relation must be stated, in one clause of one sentence:

* the percentage or ratio follows the second count with no other number between them, and a
  word of change (``saving``, ``省``, ``faster``…) stands in that stretch or right after it;
  a ratio's word must fit the counts (``faster`` compares times, not sizes);
* it is one value, not a bound (``less than 1%``, ``超过 50%``) or a range (``60-80%``), and
  not itself the start of another change (``… from 18% to 6%``);
* the counts are quantities: not years (``from 2010 to 2018``), not percentages themselves
  (``from 12% to 4.5%`` changes by 62.5% relative or by 7.5 points; which one a percentage
  after it means is a guess).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from checkers.extract.document import Document, logical_lines
from checkers.extract.draft import Draft
from checkers.extract.latex import plain
from checkers.numbers import count_scale

__all__ = ["recognize"]

NAME = "percentages"

# A sentence ends at 。！？!? or at a full stop followed by a space and a capital ("… to 4.5%.
# Fine-tuning …"), never at a decimal point or after i.e., e.g., vs. or etc.
_SENTENCE = re.compile(
    r"(?:[^。！？!?.\n]|\.(?:(?<=i\.e\.)|(?<=e\.g\.)|(?<=vs\.)|(?<=etc\.)|(?!\s+[A-Z])))+"
    r"(?:[。！？!?.]|$)"
)
_COUNT = re.compile(
    r"(?<![\d.,^/])(\d[\d,]*(?:\.\d+)?)\s*"
    r"(次|步|个|秒|毫秒|天|小时|分钟|倍数|steps?|times|tokens?|passes|calls|ms|seconds?|s|hours?|minutes?|GB|MB|KB|GiB|MiB)"
    r"(?![A-Za-z])"
)
_FROM_TO = re.compile(
    r"(?:from|从)\s*(\d[\d,]*(?:\.\d+)?)\s*((?:[A-Za-z/]+\s+){0,3}|%|[\u4e00-\u9fff]{1,3})?\s*"
    r"(?:to|降到|降至|减到|减少到|缩到|缩减到|增加到|提升到|升到|到|至)\s*"
    r"(\d[\d,]*(?:\.\d+)?)"
)
# A number is matched from its first digit only ("(?<!\d)"), never again from each later
# digit: the leftmost match is the same, and a lesson line of 500 000 digits stays linear.
_PERCENT = re.compile(r"(?<!\d)(\d+(?:\.\d+)?)\s*%")
# The two counts of a share carry the same scale or unit, or none ("37B of 671B", "39 of 141").
_SCALE_SUFFIX = r"(?:\s*(?:[KMGT]i?B)|[KMBT])?"
_SHARE_OF = re.compile(
    r"(?<!\d)(?<!\d,)(\d[\d,]*(?:\.\d+)?)(" + _SCALE_SUFFIX + r")\s+of\s+(?:the\s+)?"
    r"(\d[\d,]*(?:\.\d+)?)(" + _SCALE_SUFFIX + r")(?![\w.])"
)
# "13/47 (28%)", "17B/400B (4.25%)": a fraction whose percentage follows it in brackets.
_FRACTION_SHARE = re.compile(
    r"(?<![\w.,/])(\d[\d,]*(?:\.\d+)?)([KMBT]?)\s*/\s*(\d[\d,]*(?:\.\d+)?)([KMBT]?)"
    r"\s*[(（]\s*(?:≈\s*|~\s*)?(\d+(?:\.\d+)?)\s*%\s*[)）]"
)
# 占: "141 层中有 39 层，占 28%" (the whole before 中), "39 层，占全部 141 层的 28%" (after 占).
_ZH_WORD = r"[\u4e00-\u9fff]{1,6}?"
_ZH_WHOLE_FIRST = re.compile(
    r"(?<![\d.,])(\d[\d,]*(?:\.\d+)?)\s*(" + _ZH_WORD + r")?\s*(?:之中|中|里|当中)[，,]?\s*"
    r"(?:有|共有)?\s*"
    r"(\d[\d,]*(?:\.\d+)?)\s*(" + _ZH_WORD + r")?\s*[，,]?\s*(?:占|约占)\s*(\d+(?:\.\d+)?)\s*%"
)
_ZH_WHOLE_AFTER = re.compile(
    r"(?<![\d.,])(\d[\d,]*(?:\.\d+)?)\s*(" + _ZH_WORD + r")?\s*[，,]?\s*(?:占|约占)\s*"
    r"(?:全部|总共|总|所有|整个|全体)?\s*(\d[\d,]*(?:\.\d+)?)\s*(" + _ZH_WORD + r")?\s*的\s*"
    r"(\d+(?:\.\d+)?)\s*%"
)
# "4.2M，约占 7B 模型的 0.06%": a scaled count as a share of a scaled whole (parameters of a
# model), the scales read as powers of ten.
_ZH_SCALED_SHARE = re.compile(
    r"(?<![\d.,])(\d[\d,]*(?:\.\d+)?)\s*([KMBT]|万|亿)(?![A-Za-z])\s*(?:个?参数)?\s*[，,]?\s*"
    r"(?:约占|占)\s*(?:全部|总|整个)?\s*(\d[\d,]*(?:\.\d+)?)\s*([KMBT]|万|亿)(?![A-Za-z])\s*"
    r"(?:模型|参数量|参数)?\s*的\s*(?:约\s*)?(\d+(?:\.\d+)?)\s*%"
)
# "A is x% smaller than B": the two quantities with one unit, and nothing else between.
_UNIT_AFTER = r"(\s*(?:[KMGT]i?B|[KMBT](?![A-Za-z])|\s(?:tokens?|parameters|params|layers|steps)))?"
_THAN = re.compile(
    r"(?<![\w.,])(\d[\d,]*(?:\.\d+)?)"
    + _UNIT_AFTER
    + r"[^\d%]{0,40}?\b(?:is|are|was|were|uses?|needs?|has|have)\s+"
    r"(\d+(?:\.\d+)?)\s*%\s+(smaller|less|fewer|lower|cheaper|larger|more|bigger|higher)\s+than\s+"
    r"(?:the\s+|a\s+|an\s+)?(\d[\d,]*(?:\.\d+)?)" + _UNIT_AFTER + r"(?!\w|[.,]\d)"
)
_ANY_NUMBER = re.compile(r"(?<![\d.,])\d[\d,]*(?:\.\d+)?(?![\d%])")
_FRACTION_LEFT = re.compile(
    r"(?:原来的\s*)?(?<!\d)(\d+)\s*分之\s*(一|\d+)|(?:to|为|到|至)\s*(?:原来的\s*)?(\d+)\s*/\s*(\d+)"
)
_RATIO = re.compile(r"(?<!\d)(\d+(?:\.\d+)?)\s*(?:×|x|倍|-fold)(?![\dA-Za-z])")
# Part of every match of _RATIO, without the lookbehind that makes a search of it try every
# character: looked for first, as "%" is for _PERCENT.
_RATIO_MARK = re.compile(r"\d\s*(?:×|x|倍|-fold)")


# "从 32 降到 8，缩小为原来的 1/4", "shrinks to 1/4": the smaller count as a fraction of the larger.
_SHRUNK_TO = re.compile(r"(?:原来的|to|为|到)\s*1\s*/\s*(\d+(?:\.\d+)?)(?![\d./])")


def _percent_or_ratio(text: str) -> bool:
    """True when ``text`` holds a percentage (:data:`_PERCENT`), a ratio (:data:`_RATIO`) or a
    fraction it shrank to (:data:`_SHRUNK_TO`)."""
    if "%" in text and _PERCENT.search(text):
        return True
    if "/" in text and _SHRUNK_TO.search(text):
        return True
    if "×" not in text and "x" not in text and "倍" not in text and "-fold" not in text:
        return False  # no mark of a ratio: the substring tests cost a third of the search
    return _RATIO_MARK.search(text) is not None and _RATIO.search(text) is not None


_DOWN = re.compile(
    r"省|节省|减少|降低|下降|缩小|缩减|saving|saves?|reduc|fewer|less|cut|drop|shrink"
)
_QUADRATIC = re.compile(
    r"attention\s+(?:cost|compute|flops|matrix|scores?)|注意力(?:计算量|矩阵|分数矩阵|成本|开销)"
    r"|n²|n\^2|n\s*[×x]\s*n|平方|quadratic",
    re.IGNORECASE,
)
_UP = re.compile(
    r"提升|增加|增长|提高|加快|increase|more|faster|growth|gain|speed-?up|multipl|grows?"
)
_CHANGE = re.compile(_DOWN.pattern + "|" + _UP.pattern + r"|smaller|larger|bigger|slower|快|慢")


def _fits(unit: str, rest: str, ratio: re.Match[str]) -> bool:
    """A speed ratio (``2× faster``) compares times; any other ratio compares the counts."""
    words = rest[: ratio.start()] + " ".join(rest[ratio.end() :].split()[:_AFTER_WORDS])
    return (unit.strip() in _TIME_UNITS) == bool(_SPEED.search(words)) or not unit.strip()


_BOUND = re.compile(
    r"(?:less|more|fewer|greater|higher|lower)\s+than\s*$|(?:under|over|up\s+to|at\s+least|"
    r"at\s+most|nearly|almost|below|above|beyond|within)\s*$|[<>≤≥＜＞]\s*$|"
    r"(?:不到|超过|至少|最多|高达|低于|高于|以上|以下|近)\s*$",
    re.IGNORECASE,
)
_RANGE_BEFORE = re.compile(r"\d\s*(?:[-–—~～]|to)\s*$")
_RANGE_AFTER = re.compile(r"\s*%?\s*(?:[-–—~～]|to)\s*\d")
_CHANGE_START = re.compile(r"(?:from|从|由)\s*$", re.IGNORECASE)
_YEAR = re.compile(r"(?:19|20)\d\d")
_AFTER_WORDS = 3  # words after the value that may still name the change ("75% fewer steps")
_TIME_UNITS = {"秒", "毫秒", "天", "小时", "分钟", "ms", "s", "second", "seconds", "hour", "hours"}
_TIME_UNITS |= {"minute", "minutes"}
_SPEED = re.compile(r"faster|slower|speed|latency|快|慢|延迟|耗时", re.IGNORECASE)


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _single_value(text: str, match: re.Match[str]) -> bool:
    """A percentage or ratio that states one value: not a bound, a range or a new change."""
    before, after = text[max(0, match.start() - 40) : match.start()], text[match.end() :]
    return not (
        _BOUND.search(before)
        or _RANGE_BEFORE.search(before)
        or _RANGE_AFTER.match(after)
        or _CHANGE_START.search(before)
    )


def _quantity(text: str, unit: str) -> bool:
    """A count the text compares: not a year, not a percentage of its own."""
    return unit.strip() != "%" and not (_YEAR.fullmatch(text) and not unit.strip())


def _stated(rest: str, value: re.Match[str], words: re.Pattern[str]) -> bool:
    """The change is stated with the value: no other number between the second count and it,
    and a word of change in that stretch or among the few words after it."""
    between = rest[: value.start()]
    after = " ".join(rest[value.end() :].split()[:_AFTER_WORDS])
    return not re.search(r"\d", between) and bool(words.search(between) or words.search(after))


def _draft(
    sentence: str, line: int, first: str, second: str, rest: str, unit: str = ""
) -> Draft | None:
    first, second = first.rstrip(","), second.rstrip(",")  # "from 32 to 8, so …"
    a, b = _number(first), _number(second)
    if a <= 0 or b <= 0 or a == b:
        return None
    percent = _PERCENT.search(rest)
    shrunk = _SHRUNK_TO.search(rest) if "/" in rest else None
    ratio = _RATIO.search(rest)
    if percent is not None and not _single_value(rest, percent):
        percent = None
    if ratio is not None and not _single_value(rest, ratio):
        ratio = None
    if percent is not None and b < a and _stated(rest, percent, _DOWN):
        expression, claimed, end = f"1 − {second}/{first}", percent.group(0), percent.end()
    elif percent is not None and b > a and _stated(rest, percent, _UP):
        expression, claimed, end = f"{second}/{first} − 1", percent.group(0), percent.end()
    elif ratio is not None and _stated(rest, ratio, _CHANGE) and _fits(unit, rest, ratio):
        big, small = (first, second) if a > b else (second, first)
        # Attention's cost grows with the square of the length: "from 1,024 to 8,192 tokens
        # multiplies the attention cost by 64×".
        power = "²" if _QUADRATIC.search(sentence) else ""
        expression, claimed, end = f"({big}/{small}){power}", ratio.group(1) + "×", ratio.end()
    elif shrunk is not None and b < a and _stated(rest, shrunk, _DOWN):
        # 1/N of the original: the claim is N, the larger count over the smaller
        expression, claimed, end = f"{first}/{second}", shrunk.group(1), shrunk.end()
    else:
        return None
    start = sentence.find(first)
    quote = sentence[start : len(sentence) - len(rest) + end].strip()
    return Draft(
        kind="arithmetic",
        quote=quote,
        line=line,
        fields={"expression": expression, "claimed": claimed},
        confidence=0.7,
        recognizer=NAME,
        slug=expression,
    )


_RELATIVE = re.compile(
    r"(?:relative(?:ly)?\s+(?:increase|decrease|gain|drop|reduction|improvement|change)?|"
    r"相对(?:提升|提高|增长|增加|下降|降低|减少)?)\s*(?:了|为|是|of|by)?\s*"
    r"(?<!\d)(\d+(?:\.\d+)?)\s*%",
    re.IGNORECASE,
)


def _relative_change(sentence: str, line: int, span: re.Match[str]) -> Draft | None:
    """``准确率从 80% 提升到 84%，相对提升为 5%``: a change between two percentages is a
    relative change only where the text says so (otherwise it may be in points)."""
    relative = _RELATIVE.search(sentence, span.end())
    first, second = span.group(1), span.group(3)
    if relative is None or _YEAR.fullmatch(first) or _number(first) <= 0:
        return None
    if _number(second) == _number(first):
        return None
    claimed = relative.group(1) + "%"
    if _number(second) < _number(first):
        expression = f"1 − {second}/{first}"
    else:
        expression = f"{second}/{first} − 1"
    return Draft(
        kind="arithmetic",
        quote=sentence[span.start() : relative.end()].strip(),
        line=line,
        fields={"expression": expression, "claimed": claimed},
        confidence=0.7,
        recognizer=NAME,
        slug=expression,
    )


def _share(sentence: str, line: int) -> Draft | None:
    """``36 of 64 entries are kept, leaving 28 masked, i.e. 35% of the matrix``: a percentage
    of the whole named by "of N", for the count nearest before it."""
    whole = _SHARE_OF.search(sentence)
    percent = _PERCENT.search(sentence, whole.end()) if whole else None
    if whole is None or percent is None or len(_SHARE_OF.findall(sentence)) != 1:
        return None
    if whole.group(2).strip() != whole.group(4).strip():
        return None  # "3 of 7B": the part and the whole are not counted alike
    if not _single_value(sentence, percent):
        return None  # "161 of 500 tasks …, scores of 23–59%": a range is no share
    total = whole.group(3)
    between = list(_ANY_NUMBER.finditer(sentence, whole.end(), percent.start()))
    if len(between) > 1 or any(_RANGE_AFTER.match(sentence, m.end()) for m in between):
        return None  # which of several numbers the percentage divides would be a guess
    part = between[0].group(0) if between else whole.group(1)
    if _number(part) > _number(total) or _number(total) == 0:
        return None
    return Draft(
        kind="arithmetic",
        quote=sentence[whole.start() : percent.end()].strip(),
        line=line,
        fields={"expression": f"{part}/{total}", "claimed": percent.group(0)},
        confidence=0.6,
        recognizer=NAME,
        slug=f"{part}-of-{total}",
    )


def _share_draft(
    quote: str, line: int, part: str, whole: str, percent: str, slug: str
) -> Draft | None:
    if _number(whole) == 0 or _number(part) > _number(whole):
        return None
    return Draft(
        kind="arithmetic",
        quote=quote.strip(),
        line=line,
        fields={"expression": f"{part}/{whole}", "claimed": percent + "%"},
        confidence=0.6,
        recognizer=NAME,
        slug=slug,
    )


def _stated_shares(sentence: str, line: int) -> list[Draft]:
    """Shares whose part and whole the clause names together: ``13/47 (28%)``, ``141 层中有
    39 层，占 28%``, ``39 层，占全部 141 层的 28%`` (a unit word on both counts must agree)."""
    found: list[Draft | None] = []
    for fraction in _FRACTION_SHARE.finditer(sentence):
        if fraction.group(2) == fraction.group(4):
            part, whole, percent = fraction.group(1), fraction.group(3), fraction.group(5)
            found.append(_share_draft(fraction.group(0), line, part, whole, percent, "share"))
    for first in _ZH_WHOLE_FIRST.finditer(sentence):
        if _same_word(first.group(2), first.group(4)):
            part, whole, percent = first.group(3), first.group(1), first.group(5)
            found.append(_share_draft(first.group(0), line, part, whole, percent, "share"))
    for after in _ZH_WHOLE_AFTER.finditer(sentence):
        if _same_word(after.group(2), after.group(4)):
            part, whole, percent = after.group(1), after.group(3), after.group(5)
            found.append(_share_draft(after.group(0), line, part, whole, percent, "share"))
    for scaled in _ZH_SCALED_SHARE.finditer(sentence):
        part = f"({scaled.group(1)}*{count_scale(scaled.group(2))})"
        whole = f"({scaled.group(3)}*{count_scale(scaled.group(4))})"
        if _number(scaled.group(3)) > 0:
            found.append(
                Draft(
                    kind="arithmetic",
                    quote=scaled.group(0).strip(),
                    line=line,
                    # both printed rounded (4.2M of 4,194,304; 7B a model's name)
                    fields={
                        "expression": f"{part}/{whole}",
                        "claimed": scaled.group(5) + "%",
                        "carried": sorted({scaled.group(1), scaled.group(3)}),
                    },
                    confidence=0.6,
                    recognizer=NAME,
                    slug="share",
                )
            )
    return [draft for draft in found if draft is not None]


def _same_word(first: str | None, second: str | None) -> bool:
    """Two counts' unit words agree: equal, one of them left out (``39 层 … 141 层``), or a
    measure word and its noun (``96 个注意力头中有 24 个``)."""
    return not first or not second or first.startswith(second) or second.startswith(first)


def _than(sentence: str, line: int) -> Draft | None:
    """``the 7B model is 50% smaller than the 14B model``: 1 − A/B; ``… 50% more than …``:
    A/B − 1. Both quantities carry the same unit (or none)."""
    match = _THAN.search(sentence)
    if match is None or (match.group(2) or "").strip() != (match.group(6) or "").strip():
        return None
    first, second, percent = match.group(1), match.group(5), match.group(3)
    if _YEAR.fullmatch(first) or _YEAR.fullmatch(second) or _number(second) == 0:
        return None
    down = match.group(4) in ("smaller", "less", "fewer", "lower", "cheaper")
    if down != (_number(first) < _number(second)):
        return None  # "14B is 50% smaller than 7B": not a relation between these two
    expression = f"1 − {first}/{second}" if down else f"{first}/{second} − 1"
    return Draft(
        kind="arithmetic",
        quote=match.group(0).strip(),
        line=line,
        fields={"expression": expression, "claimed": percent + "%"},
        confidence=0.6,
        recognizer=NAME,
        slug=expression,
    )


def _fraction_saving(sentence: str, line: int) -> Draft | None:
    """``缩小为原来的 4 分之一，节省了 75%``: shrinking to 1/N saves 1 − 1/N."""
    fraction = _FRACTION_LEFT.search(sentence)
    percent = _PERCENT.search(sentence, fraction.end()) if fraction else None
    if fraction is None or percent is None or not _DOWN.search(sentence[fraction.end() :]):
        return None
    if fraction.group(1):
        denominator = fraction.group(1)
        numerator = "1" if fraction.group(2) == "一" else fraction.group(2)
    else:
        numerator, denominator = fraction.group(3), fraction.group(4)
    if _number(denominator) == 0:
        return None
    return Draft(
        kind="arithmetic",
        quote=sentence[fraction.start() : percent.end()].strip(),
        line=line,
        fields={"expression": f"1 − {numerator}/{denominator}", "claimed": percent.group(0)},
        confidence=0.6,
        recognizer=NAME,
        slug=f"saving-{numerator}-{denominator}",
    )


_NAME = r"(?:[A-Za-z][A-Za-z-]+(?:\s+[A-Za-z][A-Za-z-]+)?|[\u4e00-\u9fff]{1,6})"
_NAMED_SHARE = re.compile(
    r"(?P<a>"
    + _NAME
    + r")\s*(?:约|大约)?占(?:了)?\s*(?:全部|总共|所有|整个)?\s*(?P<b>"
    + _NAME
    + r")"
    r"\s*的\s*(?:约\s*)?(?P<p>\d+(?:\.\d+)?)\s*%"
    r"|(?<![A-Za-z])(?P<a2>"
    + _NAME
    + r")\s+(?:is|are|takes?(?:\s+up)?|makes?\s+up|accounts?\s+for)"
    r"\s+(?:about\s+|roughly\s+|only\s+)?(?P<p2>\d+(?:\.\d+)?)\s*%\s+of\s+(?:the\s+|all\s+)?"
    r"(?P<b2>" + _NAME + r")(?![A-Za-z])",
)
_ASSIGNED_NAME = re.compile(
    r"(?P<name>"
    + _NAME
    + r")\s*(?:\(?\s*[A-Za-z](?:_\{?\w+\}?)?\s*\)?\s*)?(?:[=＝:：]|为|是|of)\s*"
    r"(?P<value>\d[\d,]*(?:\.\d+)?)(?![\d,]|\.\d|\s*[×*/^]|\s*e[-+]?\d)"
)
_SHARE_WORDS = re.compile(r"占|%\s*of\b")
_SHARE_REACH = 48
"""Characters before a share's 占 or "% of" that its names and value may take."""


def _named_values(lines: list[tuple[str, int]], before: int) -> dict[str, tuple[str, int]]:
    """Names the lines assign a value to before line ``before`` (``warmup $w = 2000$``,
    ``总步数 T = 12000``) → (value as printed, line); a name given two values is dropped."""
    found: dict[str, tuple[str, int]] = {}
    twice: set[str] = set()
    for text, line in lines:
        if line >= before:
            break
        for match in _ASSIGNED_NAME.finditer(plain(text)[0]):
            name = match.group("name").strip().lower()
            value = match.group("value")
            for key in {name, name.split()[-1]}:  # "we use warmup = 500": also "warmup"
                if key in found and found[key][0] != value:
                    twice.add(key)
                found.setdefault(key, (value, line))
    return {name: where for name, where in found.items() if name not in twice}


def _named_shares(document: Document) -> Iterator[Draft]:
    """Shares between two named quantities (see the module docstring), within a section."""
    section_of: dict[int, int] | None = None
    by_section: dict[int, list[tuple[str, int]]] = {}
    for text, number in logical_lines(document):
        if "%" not in text or not _SHARE_WORDS.search(text):
            continue
        sentence_text = plain(text)[0]
        # The pattern is tried only around each 占 / "% of" (a window each side), not at every
        # character of the line: most lines with a percentage state no share of two names.
        found: dict[int, re.Match[str]] = {}
        for mark in _SHARE_WORDS.finditer(sentence_text):
            start = max(0, mark.start() - _SHARE_REACH)
            window = _NAMED_SHARE.search(sentence_text, start, mark.end() + _SHARE_REACH)
            if window is not None:
                found.setdefault(window.start(), window)
        for match in found.values():
            if section_of is None:
                section_of = {row.number: block.section for block, row in document.lines()}
                for line_text, line in logical_lines(document):
                    by_section.setdefault(section_of.get(line, -1), []).append((line_text, line))
            names = _named_values(by_section.get(section_of.get(number, -1), []), number + 1)
            a = (match.group("a") or match.group("a2")).strip().lower()
            b = (match.group("b") or match.group("b2")).strip().lower()
            percent = match.group("p") or match.group("p2")
            if a not in names:
                a = a.split()[-1]  # "so warmup is 5% of …": the name is the last word
            if a not in names or b not in names or a == b:
                continue
            (part, part_line), (whole, whole_line) = names[a], names[b]
            if _number(whole) == 0 or _number(part) > _number(whole):
                continue
            quote = match.group(0).strip()
            line = next(
                (n for n in range(number, number + 40) if quote in document.source_line(n)),
                number,
            )  # the source line of the statement, in a paragraph of several
            yield Draft(
                kind="arithmetic",
                quote=quote,
                line=line,
                fields={"expression": f"{part}/{whole}", "claimed": percent + "%"},
                confidence=0.6,
                recognizer=NAME,
                slug=f"{part}-of-{whole}",
                note=f"{a} {part} (line {part_line}); {b} {whole} (line {whole_line})",
            )


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``arithmetic`` claim for a percentage or ratio stated from two counts."""
    yield from _named_shares(document)
    for text, number in logical_lines(document):
        if not _percent_or_ratio(text):
            continue  # no sentence of the line can match either (most lines of a lesson)
        for match in _SENTENCE.finditer(text):
            sentence = match.group(0)
            if not _percent_or_ratio(sentence):
                continue
            share = _share(sentence, number)
            special = [share] if share is not None else _stated_shares(sentence, number)
            if not special:
                other = _than(sentence, number) or _fraction_saving(sentence, number)
                special = [other] if other is not None else []
            if special:
                yield from special
                continue
            span = _FROM_TO.search(sentence)
            if span is not None:
                rest = sentence[span.end() :]
                unit = span.group(2) or ""
                if not (
                    _quantity(span.group(1), unit)
                    and _quantity(span.group(3), "%" if rest.lstrip()[:1] == "%" else unit)
                ):
                    draft = _relative_change(sentence, number, span)
                else:
                    draft = _draft(sentence, number, span.group(1), span.group(3), rest, unit)
            else:
                by_unit: dict[str, list[re.Match[str]]] = {}
                for count in _COUNT.finditer(sentence):
                    by_unit.setdefault(count.group(2), []).append(count)
                pairs = [found for found in by_unit.values() if len(found) == 2]
                if len(pairs) != 1 or any(len(f) > 2 for f in by_unit.values()):
                    continue
                counts = pairs[0]
                draft = _draft(
                    sentence,
                    number,
                    counts[0].group(1),
                    counts[1].group(1),
                    sentence[counts[1].end() :],
                    counts[0].group(2),
                )
            if draft is not None:
                yield draft
