#!/usr/bin/env python3
"""Check the answer keys of the lessoncheck test corpus.

Plain Python 3 (standard library only); it does not import lessoncheck.

For every ``<lesson>.key.yaml`` in the corpus folder (the folder of this script, or the
folder given on the command line, e.g. ``tests/corpus_blind``) it checks that

* the lesson file exists, has 60-200 lines and its language prefix
  (``en-`` / ``zh-``) matches the key's ``language`` field;
* every planted mistake points at a line that contains the ``printed`` text
  (at ``col`` when given), has a known ``category`` (and, when given, a
  ``tier`` of 1-3 and a known ``shape``), and -- when an ``expr`` is given --
  that the expression's value rounds to ``correct`` while ``printed`` is wrong
  when read as rounded or as truncated, and differs from it by at least 2% (so the mistake is wrong
  beyond rounding under any reading of the printed digits);
* no two entries of a key point at the same line and column;
* every entry of ``correct_statements`` points at its printed text and the
  printed value agrees with ``expr`` at the printed precision (rounded, or as
  its ``reading`` field says: ``truncated`` or ``significant`` figures).

Usage:  python3 tests/corpus/verify_keys.py [-v] [CORPUS_DIR]
Exit status is 0 when every check passes.
"""
import glob
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# What is wrong: the first seven are arithmetic or lookup slips visible in the lesson's own
# numbers; `domain` is a formula with a factor left out or wrong (KV heads forgotten, 2·N vs
# 6·N), `fact` a published fact stated in prose that is not the model's.
CATEGORIES = {"chain", "units", "percent", "softmax", "heads", "model_table", "function",
              "domain", "fact"}
# Where the number stands in the lesson (optional field, used by tests/corpus_blind).
SHAPES = {"prose", "list", "table", "latex", "code", "output", "block", "diagram", "multiline"}
# How much a reader needs to see the mistake: 1 on its face, 2 two places read together,
# 3 domain knowledge (a formula or a published fact).
TIERS = {1, 2, 3}
MIN_RELATIVE_ERROR = 0.02


# --------------------------------------------------------------------------
# functions available inside `expr`
# --------------------------------------------------------------------------
def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


def softmax(xs):
    m = max(xs)
    ex = [math.exp(x - m) for x in xs]
    s = sum(ex)
    return [v / s for v in ex]


def relu(x):
    return max(0.0, x)


def gelu(x):  # exact GELU, x * Phi(x)
    return 0.5 * x * (1.0 + math.erf(x / math.sqrt(2.0)))


def gelu_tanh(x):  # tanh approximation used by GPT-2
    return 0.5 * x * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def silu(x):
    return x * sigmoid(x)


EXPR_NS = {
    "__builtins__": {},
    "sqrt": math.sqrt, "exp": math.exp, "log": math.log, "log2": math.log2,
    "log10": math.log10, "sin": math.sin, "cos": math.cos, "tan": math.tan,
    "tanh": math.tanh, "erf": math.erf, "pi": math.pi, "e": math.e,
    "ceil": math.ceil, "floor": math.floor, "abs": abs, "max": max, "min": min, "sum": sum,
    "sigmoid": sigmoid, "softmax": softmax, "relu": relu, "gelu": gelu,
    "gelu_tanh": gelu_tanh, "silu": silu,
}


def evaluate(expr):
    """Value of a key's `expr` (keys are written by the corpus authors, not by lessons)."""
    return float(eval(expr, dict(EXPR_NS)))


def evaluated(expr, what, bad):
    """`evaluate`, reporting a broken expression as a problem instead of a traceback."""
    try:
        return evaluate(expr)
    except Exception as exc:  # any error in an author's expression is a key problem
        bad("%s: expr %r does not evaluate: %s" % (what, expr, exc))
        return None


# --------------------------------------------------------------------------
# printed numbers
# --------------------------------------------------------------------------
FULLWIDTH = str.maketrans("０１２３４５６７８９．，－", "0123456789.,-")
NUM_RE = re.compile(r"[-−]?\d[\d,]*(?:\.\d+)?(?:[eE][-+−]?\d+)?")


def parse_number(text):
    """Value and number of decimals of the first number inside `text`.

    Handles full-width digits, thousands separators (also LaTeX's ``{,}``) and the
    Unicode minus; surrounding units/symbols such as '%', '×', 'GiB' are ignored."""
    t = text.translate(FULLWIDTH).replace("{,}", ",")
    m = NUM_RE.search(t)
    if not m:
        raise ValueError("no number in %r" % text)
    s = m.group(0).replace("−", "-").replace(",", "")
    mantissa, _, exponent = s.lower().partition("e")
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    if exponent:  # 2.60e-4: the last printed digit is worth 10^(exponent - decimals)
        decimals -= int(exponent)
    return float(s), decimals


READINGS = {"rounded", "truncated", "significant"}


def significant_unit(text):
    """One unit of the last significant digit of the number printed in `text`.

    Trailing zeros of an integer are not significant (``3,000`` has one significant
    digit, so its unit is 1000); digits after a decimal point always are."""
    t = text.translate(FULLWIDTH).replace("{,}", ",")
    s = NUM_RE.search(t).group(0).replace("−", "-").replace(",", "").lstrip("-")
    if "e" in s.lower():
        return 10 ** (-parse_number(s)[1])
    if "." in s:
        return 10 ** (-len(s.split(".")[1]))
    return 10 ** (len(s) - len(s.rstrip("0"))) if s.strip("0") else 1


def agrees(text, value, reading="rounded"):
    """True when `value` reads as the number printed in `text`.

    ``rounded`` (the default): `value` rounds to the printed digits; a value exactly
    half-way between two printed values agrees with both (0.2205 may be printed as
    0.220 or 0.221). ``truncated``: the printed digits are `value` cut off towards
    zero (an "about 7.3" for 7.389). ``significant``: rounded to the printed number of
    significant figures (``≈ 3,000`` for 2,971)."""
    printed, decimals = parse_number(text)
    if reading == "truncated":
        unit = 10 ** (-decimals)
        return abs(printed) - 1e-12 <= abs(value) < abs(printed) + unit * (1 - 1e-9) and (
            printed == 0 or (printed > 0) == (value > 0))
    unit = significant_unit(text) if reading == "significant" else 10 ** (-decimals)
    return abs(printed - value) <= 0.5 * unit * (1 + 1e-9) + 1e-12


# --------------------------------------------------------------------------
# minimal reader for the key format (no PyYAML needed)
# --------------------------------------------------------------------------
def _scalar(raw):
    raw = raw.strip()
    if raw.startswith('"'):
        return json.loads(raw)
    if raw.startswith("'"):
        return raw[1:-1].replace("''", "'")
    if " #" in raw:
        raw = raw.split(" #", 1)[0].strip()
    if raw == "[]":
        return []
    if re.fullmatch(r"-?\d+", raw):
        return int(raw)
    return raw


def load_key(path):
    data, cur_list, cur_item = {}, None, None
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m_top = re.match(r"^([A-Za-z_]+):\s*(.*)$", line.rstrip("\n"))
            m_item = re.match(r"^\s+-\s+([A-Za-z_]+):\s*(.*)$", line.rstrip("\n"))
            m_cont = re.match(r"^\s+([A-Za-z_]+):\s*(.*)$", line.rstrip("\n"))
            if m_top:
                k, v = m_top.group(1), m_top.group(2)
                if v.strip() == "":
                    cur_list = data[k] = []
                else:
                    data[k] = _scalar(v)
                    cur_list = None
                cur_item = None
            elif m_item and cur_list is not None:
                cur_item = {m_item.group(1): _scalar(m_item.group(2))}
                cur_list.append(cur_item)
            elif m_cont and cur_item is not None:
                cur_item[m_cont.group(1)] = _scalar(m_cont.group(2))
            else:
                raise ValueError("%s:%d: cannot parse %r" % (path, lineno, line))
    return data


# --------------------------------------------------------------------------
def main(argv):
    verbose = "-v" in argv
    dirs = [a for a in argv if not a.startswith("-")]
    if len(dirs) > 1:
        print("usage: verify_keys.py [-v] [CORPUS_DIR]")
        return 2
    corpus = os.path.abspath(dirs[0]) if dirs else HERE
    if not os.path.isdir(corpus):
        print("%s: not a directory" % corpus)
        return 2
    problems = []
    per_cat, per_lang, per_tier, per_shape, goods = {}, {}, {}, {}, 0
    key_files = sorted(glob.glob(os.path.join(corpus, "*.key.yaml")))
    if not key_files:
        print("no key files found in %s" % corpus)
        return 1

    for kp in key_files:
        kname = os.path.basename(kp)
        try:
            key = load_key(kp)
        except ValueError as exc:
            problems.append(str(exc))
            continue
        try:  # optional cross-check with PyYAML when it happens to be installed
            import yaml  # noqa: F401
            with open(kp, encoding="utf-8") as fh:
                if yaml.safe_load(fh) != key:
                    problems.append("%s: PyYAML reads the key differently" % kname)
        except ImportError:
            pass

        def bad(msg):
            problems.append("%s: %s" % (kname, msg))

        lesson = key.get("lesson")
        if lesson != kname.replace(".key.yaml", ".md"):
            bad("lesson field %r does not match key file name" % lesson)
        lp = os.path.join(corpus, str(lesson))
        if not os.path.exists(lp):
            bad("lesson file missing")
            continue
        with open(lp, encoding="utf-8") as fh:
            lines = fh.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if not 60 <= len(lines) <= 200:
            bad("lesson has %d lines (expected 60-200)" % len(lines))
        lang = key.get("language")
        if lang not in ("en", "zh") or not str(lesson).startswith(lang + "-"):
            bad("language %r does not match file name" % lang)

        def locate(entry, what):
            ln, printed = entry.get("line"), entry.get("printed")
            if not isinstance(ln, int) or not 1 <= ln <= len(lines):
                bad("%s: line %r out of range" % (what, ln))
                return False
            text = lines[ln - 1]
            if printed not in text:
                bad("%s: %r not found on line %d: %r" % (what, printed, ln, text))
                return False
            col = entry.get("col")
            if col is not None and not text[col - 1:].startswith(printed):
                bad("%s: %r not at col %d of line %d" % (what, printed, col, ln))
                return False
            return True

        seen = set()

        def once(entry, what):
            where = (entry.get("line"), entry.get("col"))
            if where in seen:
                bad("%s: line %s col %s is already listed" % (what, where[0], where[1]))
            seen.add(where)

        mistakes = key.get("mistakes") or []
        for i, mk in enumerate(mistakes, 1):
            what = "mistake #%d (line %s)" % (i, mk.get("line"))
            locate(mk, what)
            once(mk, what)
            cat = mk.get("category")
            if cat not in CATEGORIES:
                bad("%s: unknown category %r" % (what, cat))
            if "tier" in mk:
                if mk["tier"] not in TIERS:
                    bad("%s: tier %r is not one of 1, 2, 3" % (what, mk["tier"]))
                per_tier[mk["tier"]] = per_tier.get(mk["tier"], 0) + 1
            if "shape" in mk:
                if mk["shape"] not in SHAPES:
                    bad("%s: unknown shape %r" % (what, mk["shape"]))
                per_shape[mk["shape"]] = per_shape.get(mk["shape"], 0) + 1
            for field in ("printed", "correct", "note"):
                if not mk.get(field):
                    bad("%s: missing %s" % (what, field))
            per_cat[cat] = per_cat.get(cat, 0) + 1
            per_lang[lang] = per_lang.get(lang, 0) + 1
            v = evaluated(mk["expr"], what, bad) if mk.get("expr") else None
            if v is not None:
                if not agrees(mk["correct"], v):
                    bad("%s: correct %r does not match %s = %r" % (what, mk["correct"], mk["expr"], v))
                # significant figures are a reading only where a statement says so (≈ 3,000);
                # applied to every integer it would excuse "300" for 326.
                right_under = [r for r in ("rounded", "truncated") if agrees(mk["printed"], v, r)]
                if right_under:
                    bad("%s: printed %r is actually right when %s (%s = %r)"
                        % (what, mk["printed"], " or ".join(right_under), mk["expr"], v))
                elif abs(parse_number(mk["printed"])[0] - v) < MIN_RELATIVE_ERROR * abs(v):
                    bad("%s: printed %r is within 2%% of %s = %r" % (what, mk["printed"], mk["expr"], v))
                if verbose:
                    print("  %-34s L%-4d printed %-10s correct %-10s (%s = %.6g)"
                          % (lesson, mk["line"], mk["printed"], mk["correct"], mk["expr"], v))

        for j, cs in enumerate(key.get("correct_statements") or [], 1):
            what = "correct statement #%d (line %s)" % (j, cs.get("line"))
            once(cs, what)
            if "shape" in cs and cs["shape"] not in SHAPES:
                bad("%s: unknown shape %r" % (what, cs["shape"]))
            reading = cs.get("reading", "rounded")
            if reading not in READINGS:
                bad("%s: unknown reading %r" % (what, reading))
            elif locate(cs, what) and cs.get("expr"):
                v = evaluated(cs["expr"], what, bad)
                if v is not None and not agrees(cs["printed"], v, reading):
                    bad("%s: printed %r but %s = %r (%s)" % (what, cs["printed"], cs["expr"], v, reading))
            goods += 1

        if verbose:
            print("%s: %d lines, %d mistakes, %d correct statements"
                  % (lesson, len(lines), len(mistakes), len(key.get("correct_statements") or [])))

    print("corpus: %s" % os.path.basename(corpus))
    print("keys checked: %d" % len(key_files))
    print("planted mistakes per language: %s" % dict(sorted(per_lang.items())))
    print("planted mistakes per category: %s" % dict(sorted(per_cat.items())))
    if per_tier:
        print("planted mistakes per tier: %s" % dict(sorted(per_tier.items())))
    if per_shape:
        print("planted mistakes per shape: %s" % dict(sorted(per_shape.items())))
    print("annotated correct statements: %d" % goods)
    if problems:
        print("\nPROBLEMS (%d):" % len(problems))
        for p in problems:
            print("  - " + p)
        return 1
    print("all keys OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
