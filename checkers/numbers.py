"""Printed numbers: what a reader takes a number on the page to mean.

A printed number carries its own precision. ``0.78`` means "something that rounds to 0.78", so
[0.775, 0.785]; ``1.5B`` means 1.5 billion ± 0.05 billion; ``67%`` means 0.67 ± 0.005. This module
parses such literals (signs, thousands separators, scientific notation, superscripts, percent,
counts K/M/B/T and 万/亿, bytes with decimal and binary prefixes, ratios such as ``64×`` or
``8 倍``) and compares recomputed values against them, returning the reason as text so that every
verdict can say which tolerance it used and why.

Nothing here evaluates expressions: that is :mod:`checkers.expr`.
"""

from __future__ import annotations

import dataclasses
import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Literal

__all__ = [
    "BYTE_PREFIXES",
    "ROUND_NUMBER_ZEROS",
    "SCIENTIFIC_LITERAL",
    "UNITS",
    "Comparison",
    "NumberError",
    "Printed",
    "Severity",
    "Token",
    "Tolerance",
    "Unit",
    "apply_corrections",
    "byte_units",
    "compare",
    "compare_vector",
    "format_like",
    "group_scientific",
    "is_slip",
    "number_tokens",
    "parse_printed",
    "parse_printed_vector",
    "printed_tolerance",
    "read_binary",
    "read_binary_count",
    "significant_digits",
]


class NumberError(ValueError):
    """A printed value could not be read as a number; ``message`` says what was expected."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Unit:
    """A unit or scale word that may follow a printed number."""

    symbol: str
    """The unit as printed, e.g. ``GB`` or ``亿``."""
    family: str
    """What the unit measures: ``percent``, ``count``, ``bytes``, ``flops``, ``ratio`` or
    ``seconds``."""
    factor: float
    """Multiplier from the printed unit to the family's base unit (bytes, ones, fraction)."""
    binary: bool = False
    """True for KiB/MiB/GiB/TiB (powers of 1024)."""


def _units() -> dict[str, Unit]:
    table: list[Unit] = [
        Unit("%", "percent", 1e-2),
        Unit("‰", "percent", 1e-3),
        Unit("×", "ratio", 1.0),
        Unit("x", "ratio", 1.0),
        Unit("倍", "ratio", 1.0),
        Unit("K", "count", 1e3),
        Unit("k", "count", 1e3),
        Unit("M", "count", 1e6),
        Unit("B", "count", 1e9),
        Unit("T", "count", 1e12),
        Unit("thousand", "count", 1e3),
        Unit("million", "count", 1e6),
        Unit("billion", "count", 1e9),
        Unit("trillion", "count", 1e12),
        Unit("千", "count", 1e3),
        Unit("万", "count", 1e4),
        Unit("百万", "count", 1e6),
        Unit("千万", "count", 1e7),
        Unit("亿", "count", 1e8),
        Unit("万亿", "count", 1e12),
        Unit("byte", "bytes", 1.0),
        Unit("bytes", "bytes", 1.0),
        Unit("字节", "bytes", 1.0),
        Unit("KB", "bytes", 1e3),
        Unit("MB", "bytes", 1e6),
        Unit("GB", "bytes", 1e9),
        Unit("TB", "bytes", 1e12),
        Unit("PB", "bytes", 1e15),
        Unit("KiB", "bytes", 2.0**10, binary=True),
        Unit("MiB", "bytes", 2.0**20, binary=True),
        Unit("GiB", "bytes", 2.0**30, binary=True),
        Unit("TiB", "bytes", 2.0**40, binary=True),
        *(
            Unit(prefix + flop, "flops", factor)
            for prefix, factor in (("", 1.0), ("G", 1e9), ("T", 1e12), ("P", 1e15), ("E", 1e18))
            for flop in ("FLOPs", "FLOP")
        ),
        Unit("s", "seconds", 1.0),
        Unit("ms", "seconds", 1e-3),
    ]
    return {unit.symbol: unit for unit in table}


UNITS: dict[str, Unit] = _units()
"""Every unit a printed number may carry, by its printed symbol."""


def count_scale(word: str) -> str:
    """A count's scale word as the power of ten it stands for, written for an expression
    (``B`` → ``1e9``, ``million`` → ``1e6``, ``亿`` → ``1e8``), from :data:`UNITS`; KeyError
    when the word is no scale of a count."""
    unit = UNITS[word]
    if unit.family != "count":
        raise KeyError(word)
    return f"1e{round(math.log10(unit.factor))}"


BYTE_PREFIXES = ("KB", "MB", "GB", "TB", "PB")
"""Decimal (SI) byte units, which many lessons use for powers of 1024."""


def byte_units(reading: str) -> dict[str, float]:
    """Bytes per unit symbol under a reading: ``decimal`` (KB = 10³) or ``binary`` (KB = 2¹⁰).

    IEC symbols (KiB, MiB, …) are binary under every reading.
    """
    table = {"KiB": 2.0**10, "MiB": 2.0**20, "GiB": 2.0**30, "TiB": 2.0**40}
    for power, symbol in enumerate(BYTE_PREFIXES, start=1):
        table[symbol] = (1024.0 if reading == "binary" else 1000.0) ** power
    return table


def read_binary(printed: Printed) -> Printed:
    """The same printed number with a decimal byte unit read as binary (GB as 2³⁰ bytes)."""
    if printed.unit is None or printed.unit.symbol not in BYTE_PREFIXES:
        return printed
    factor = byte_units("binary")[printed.unit.symbol]
    unit = Unit(printed.unit.symbol, "bytes", factor, binary=True)
    value = printed.value / printed.unit.factor * factor
    return dataclasses.replace(printed, unit=unit, value=value)


def read_binary_count(printed: Printed) -> Printed:
    """The same printed count with K read as 2¹⁰ (a "128K" context is 131,072 tokens).

    Model cards and lessons print context lengths that are powers of two this way (4K, 32K,
    128K); other numbers are returned unchanged.
    """
    if printed.unit is None or printed.unit.symbol not in ("K", "k"):
        return printed
    unit = Unit(printed.unit.symbol, "count", 1024.0, binary=True)
    value = printed.value / printed.unit.factor * 1024.0
    return dataclasses.replace(printed, unit=unit, value=value)


_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_MINUS_SIGNS = "-−–﹣－"

# Longest symbols first, so "KiB" wins over "K" and "万亿" over "万".
_UNIT_PATTERN = "|".join(re.escape(s) for s in sorted(UNITS, key=len, reverse=True))
_NUMBER_RE = re.compile(
    r"""
    ^(?P<approx>(?:≈|~|∼|约|大约|about\s|roughly\s|approximately\s|around\s)\s*)?
    (?P<sign>[-+−–﹣])?\s*
    (?P<mantissa>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)
    (?:
        [eE](?P<exp>[-+−]?\d+)
      | \s*[×x*]\s*10(?:\^\(?(?P<exp_caret>[-+−]?\d+)\)?|(?P<exp_super>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))
    )?
    (?P<space>\s*)(?P<unit>"""
    + _UNIT_PATTERN
    + r""")?\s*$""",
    re.VERBOSE,
)


@dataclass(frozen=True)
class Printed:
    """A number as printed in a lesson, with the precision its digits promise."""

    text: str
    """The literal exactly as printed, e.g. ``0.78`` or ``1.5B``."""
    value: float
    """Its value in the unit family's base (bytes, ones, fraction for percent)."""
    decimals: int
    """Digits printed after the decimal point of the mantissa."""
    exponent: int
    """Power of ten from scientific notation (``1e-4`` → -4), 0 when none."""
    unit: Unit | None
    """The unit printed after the number, if any."""
    uses_unicode_minus: bool = False
    """True when the sign was printed as ``−`` rather than ``-`` (kept in suggested fixes)."""
    thousands: bool = False
    """True when the mantissa used thousands separators (``4,096``)."""
    spaced_unit: bool = False
    """True when a space stood between number and unit (``14 GB``), kept in suggested fixes."""
    approx: str = ""
    """The approximation mark printed before the number (``≈ ``, ``about ``, ``约``), kept in
    suggested fixes; empty when the number is printed plainly."""
    significant: int = 0
    """Significant figures of the mantissa when they, not the printed digits, set its precision
    (an approximate number, or a round whole number: :func:`_significance`); 0 else."""
    insignificant_zeros: int = 0
    """Trailing zeros of a whole number that are not significant (``≈ 300``: 2, ``590,000``:
    4); 0 for every other number."""

    @property
    def approximate(self) -> bool:
        """True when printed after an approximation mark (``≈ ~ 约 大约 about roughly``)."""
        return bool(self.approx)

    @property
    def scale(self) -> float:
        """Base units per unit of the printed mantissa."""
        return (self.unit.factor if self.unit else 1.0) * 10.0**self.exponent

    @property
    def place(self) -> int:
        """Power of ten of the last digit that counts: ``-decimals``, or the trailing zeros of
        an approximate whole number (``≈ 300`` → 2)."""
        return self.insignificant_zeros or -self.decimals

    @property
    def half_width(self) -> float:
        """Half of the last counted digit's place, in base units: the rounding tolerance."""
        return 0.5 * 10.0**self.place * self.scale

    def precision_reason(self) -> str:
        """Why the tolerance is what it is, in words a reader checks at a glance."""
        figures = "figure" if self.significant == 1 else "figures"
        if self.approx and self.significant:
            # "about 0.8" and "≈ 300": the reader takes them to the figures that are significant.
            mark = self.approx.strip()
            digits = f"{self.significant} significant {figures} (printed as approximate: {mark!r})"
        elif self.significant:
            digits = (
                f"read to {self.significant} significant {figures} (a round number: its "
                "trailing zeros need not be significant)"
            )
        elif self.decimals == 0:
            digits = "printed as a whole number"
        elif self.decimals == 1:
            digits = "1 printed decimal"
        else:
            digits = f"{self.decimals} printed decimals"
        if self.unit is not None and self.unit.family != "ratio":
            digits += f" of {self.unit.symbol}"
        if self.exponent:
            digits += f" at ×10^{self.exponent}"
        return digits


SCIENTIFIC_LITERAL = re.compile(
    r"(?<![\w.^])\d+(?:\.\d+)?\s*[×xX]\s*10(?:\^\(?[-+−]?\d+\)?|[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)"
)
"""A printed scientific literal such as ``6×10^6`` or ``1.67 x 10⁶``. ``*`` and ``**`` are
left out: ``1e13 / 6*10**6`` is code, where the operators bind as Python binds them."""


def group_scientific(text: str) -> str:
    """``text`` with each scientific literal in brackets: a reader takes ``6×10^6`` as one
    number, so ``10^13 / 6×10^6`` is 10¹³ / (6×10⁶), not (10¹³ / 6)×10⁶."""
    return SCIENTIFIC_LITERAL.sub(lambda m: f"({m.group(0)})", text)


def parse_printed(text: str | int | float) -> Printed:
    """Read one printed number such as ``0.78``, ``−0.42``, ``1.5B``, ``67%`` or ``14 GB``."""
    if isinstance(text, bool):
        raise NumberError(f"expected a printed number, got {text!r}")
    raw = str(text)
    plain = _PLAIN_DECIMAL.fullmatch(raw)
    if plain is not None and (plain[1] is not None or not raw.endswith("0" * ROUND_NUMBER_ZEROS)):
        # Most printed numbers are plain decimals (0.78, -3): the general reading below gives
        # exactly this, at five times the cost (tests/test_numbers.py compares the two). Round
        # whole numbers (590000) take the general reading, which counts significant figures.
        return Printed(
            text=raw, value=float(raw), decimals=len(plain[1] or ""), exponent=0, unit=None
        )
    return _parse_general(raw)


_PLAIN_DECIMAL = re.compile(r"-?[0-9]+(?:\.([0-9]+))?", re.ASCII)


def _parse_general(raw: str) -> Printed:
    folded = _fold(raw)
    match = _NUMBER_RE.match(folded)
    if match is None:
        raise NumberError(
            f"expected a printed number such as 0.78, −0.42, 1,024, 1.5B, 67% or 14 GB, got {raw!r}"
        )
    mantissa = match["mantissa"]
    thousands = "," in mantissa
    mantissa = mantissa.replace(",", "")
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    exponent_text = (
        match["exp"] or match["exp_caret"] or (match["exp_super"] or "").translate(_SUPERSCRIPTS)
    )
    exponent = int(exponent_text.replace("−", "-")) if exponent_text else 0
    if abs(exponent) > 300:
        raise NumberError(f"exponent {exponent} in {raw!r} is outside the range a lesson prints")
    unit = UNITS[match["unit"]] if match["unit"] else None
    sign_text = match["sign"] or ""
    negative = sign_text in _MINUS_SIGNS and sign_text != ""
    significant, zeros = _significance(mantissa, approximate=bool(match["approx"]))
    mantissa_value = float(mantissa)
    scale = (unit.factor if unit else 1.0) * 10.0**exponent
    value = (-1.0 if negative else 1.0) * mantissa_value * scale
    return Printed(
        text=raw.strip(),
        value=value,
        decimals=decimals,
        exponent=exponent,
        unit=unit,
        uses_unicode_minus=sign_text == "−",
        thousands=thousands,
        spaced_unit=bool(match["space"]) and unit is not None,
        approx=match["approx"] or "",
        significant=significant,
        insignificant_zeros=zeros,
    )


ROUND_NUMBER_ZEROS = 3
"""Trailing zeros that make a whole number printed plainly read as rounded (``= 590,000`` for
589,824): a reader takes a number that round as a rounding, not a count to the unit."""


def _significance(mantissa: str, *, approximate: bool) -> tuple[int, int]:
    """(significant figures, trailing zeros that are not) when they set the precision, else
    (0, 0). The one rule for both readings:

    * printed as approximate (``about 0.8``, ``≈ 300``, ``约 2.50``): every figure but a whole
      number's trailing zeros (``0.80`` → (2, 0), ``300`` → (1, 2));
    * printed plainly: only a round whole number, with at least :data:`ROUND_NUMBER_ZEROS`
      trailing zeros and two figures before them (``590,000`` → (2, 4)); ``9800`` and
      ``1,000,000`` still mean exactly what they print.

    Leading zeros never count; trailing zeros count after a decimal point."""
    digits = mantissa.replace(",", "").replace(".", "").lstrip("0")
    if "." in mantissa or not digits:
        return (max(len(digits), 1), 0) if approximate else (0, 0)
    kept = digits.rstrip("0")
    zeros = len(digits) - len(kept)
    if approximate or (zeros >= ROUND_NUMBER_ZEROS and len(kept) >= 2):
        return len(kept), zeros
    return 0, 0


def parse_printed_vector(items: Sequence[str | int | float] | str) -> tuple[Printed, ...]:
    """Read a printed vector, either a YAML list or a string like ``[0.84, 0.54, 0.0001, 1.0]``."""
    if isinstance(items, str):
        body = _fold(items).strip()
        if not (body.startswith("[") and body.endswith("]")):
            raise NumberError(f"expected a vector such as [0.84, 0.54], got {items!r}")
        parts = [p for p in body[1:-1].split(",")]
        if parts == [""]:
            raise NumberError("expected at least one element in the vector, got []")
        items = [p.strip() for p in parts]
    return tuple(parse_printed(item) for item in items)


_FULL_WIDTH = {
    **{code: unicodedata.normalize("NFKC", chr(code)) for code in range(0xFF01, 0xFF5F)},
    0x3000: " ",
    0x00A0: " ",
}


def _fold(text: str) -> str:
    """Full-width digits and signs to ASCII and odd spaces to plain ones, keeping superscripts
    and CJK unit words."""
    return text.translate(_FULL_WIDTH).strip()


@dataclass(frozen=True)
class Tolerance:
    """How far a recomputed value may sit from the printed one, and why."""

    absolute: float
    """Allowed absolute difference, in base units."""
    relative: float
    """Allowed difference as a fraction of the printed value (0 when unused)."""
    reason: str
    """Human explanation shown in every verdict, e.g. ``±0.005: 2 printed decimals``."""
    last_place: float = 0.0
    """One unit in the last printed place, in base units, when this tolerance is the rounding of
    printed digits (``0.01`` for ``0.78``): a miss closer than that is a slip (:func:`is_slip`).
    0 when the tolerance is not a rounding (a claim's override with a reason, exact counts, an
    estimate's ±10%), so every miss under it is an error."""

    def allows(self, printed: float, recomputed: float) -> bool:
        """True when ``recomputed`` is within the tolerance of ``printed`` (boundary included)."""
        limit = max(self.absolute, self.relative * abs(printed))
        # A value exactly on a rounding boundary (0.2205 printed as 0.221) is a correct rounding;
        # the tiny slack keeps binary floating point from turning it into a failure.
        slack = 1e-9 * limit + 1e-15
        return math.isfinite(recomputed) and abs(recomputed - printed) <= limit + slack


def printed_tolerance(printed: Printed) -> Tolerance:
    """The tolerance a reader infers from the printed digits alone: half the last printed
    digit, or half the last significant one where trailing zeros are not significant
    (:func:`_significance`)."""
    half = printed.half_width
    return Tolerance(
        absolute=half,
        relative=0.0,
        reason=(
            f"±{_short(half / printed.scale)}{_unit_suffix(printed)}: {printed.precision_reason()}"
        ),
        last_place=2 * half,
    )


def significant_digits(printed: Printed) -> int | None:
    """How many significant figures a whole number's printed digits carry when its trailing
    zeros are not significant (``≈ 9800``: 2, ``590,000``: 2), or None when every printed
    digit counts (``9800``, ``0.50``)."""
    return printed.significant if printed.insignificant_zeros else None


Severity = Literal["error", "slip"]
"""How wrong a printed value that does not hold is: ``error``, wrong beyond every reading, or
``slip``, only its last printed digit is off (:func:`is_slip`). Errors fail a run; slips are
reported and fail it only when asked (``--strict``)."""


def is_slip(printed: Printed, recomputed: float, tolerance: Tolerance) -> bool:
    """The one rule that tells a slip from an error, for a printed value that does not hold.

    A slip is a value whose last printed digit is off and nothing else: the printed value is one
    of the two numbers at its printed precision that bracket the true value, so it is closer to
    the truth than one unit in its last place (``0.19`` for 0.1978 is a truncation, ``27%`` for
    27.66% too; ``0.89`` for 0.8962 rounds the wrong way). Everything else is an error: two or
    more units off (``0.78`` for 0.7966), and an exact value printed one unit off (``25`` for
    52 / 2 = 26), which no rounding or truncation produces. The unit is the one the tolerance
    rounds to (:attr:`Tolerance.last_place`); a tolerance that is not a rounding has none, and
    every miss under it is an error.
    """
    place = tolerance.last_place
    if place <= 0 or not math.isfinite(recomputed) or tolerance.allows(printed.value, recomputed):
        return False
    # Strictly closer than one unit: a value exactly one unit away is exact at this precision.
    return abs(recomputed - printed.value) < place * (1 - 1e-9)


def _unit_suffix(printed: Printed) -> str:
    if printed.unit is None:
        return "" if printed.exponent == 0 else f"e{printed.exponent}"
    if printed.unit.symbol in ("%", "‰", "×", "倍", "x"):
        return printed.unit.symbol
    return printed.unit.symbol if printed.unit.family == "count" else f" {printed.unit.symbol}"


@dataclass(frozen=True)
class Comparison:
    """The verdict of one printed value against its recomputation."""

    ok: bool
    """True when the printed value is a correct rounding of the recomputed one."""
    printed: Printed
    """The printed value that was checked."""
    recomputed: float
    """The recomputed value, in base units."""
    tolerance: Tolerance
    """The tolerance used."""
    corrected: str
    """The recomputed value written the way the lesson printed its number (same decimals, unit)."""
    slip: bool = False
    """A miss in the last printed digit only (:func:`is_slip`)."""

    def describe(self) -> str:
        """``0.7966 → 0.80``: the full recomputed value, then as it should be printed."""
        full = _short(self.recomputed / self.printed.scale, digits=4)
        return f"{full}{_unit_suffix(self.printed)} → {self.corrected}"


def compare(printed: Printed, recomputed: float, tolerance: Tolerance | None = None) -> Comparison:
    """Compare a recomputed value (base units) against a printed one."""
    used = tolerance if tolerance is not None else printed_tolerance(printed)
    ok = used.allows(printed.value, recomputed)
    return Comparison(
        ok=ok,
        printed=printed,
        recomputed=recomputed,
        tolerance=used,
        corrected=format_like(printed, recomputed),
        slip=not ok and is_slip(printed, recomputed, used),
    )


def compare_vector(
    printed: Sequence[Printed], recomputed: Sequence[float], tolerance: Tolerance | None = None
) -> tuple[Comparison, ...]:
    """Element-by-element comparison of vectors, in order; lengths must already agree."""
    if len(printed) != len(recomputed):
        raise NumberError(f"expected {len(recomputed)} printed values, got {len(printed)}")
    return tuple(compare(p, r, tolerance) for p, r in zip(printed, recomputed, strict=True))


def format_like(printed: Printed, value: float) -> str:
    """Write ``value`` (base units) as the lesson would have printed it: same decimals and unit."""
    if not math.isfinite(value):
        return "undefined" if math.isnan(value) else ("∞" if value > 0 else "−∞")
    mantissa = value / printed.scale
    place = printed.place
    try:
        quantum = Decimal(1).scaleb(min(place, 0))
        step = Decimal(1).scaleb(max(place, 0))  # ≈ 300: rounded to hundreds, printed whole
        rounded = (Decimal(repr(mantissa)) / step).quantize(quantum, rounding=ROUND_HALF_UP)
        rounded = (rounded * step).quantize(quantum)
    except InvalidOperation:
        return _short(mantissa)
    if rounded == 0:
        rounded = abs(rounded)
    text = f"{rounded:,f}" if printed.thousands else f"{rounded:f}"
    if text.startswith("-") and printed.uses_unicode_minus:
        text = "−" + text[1:]
    if printed.exponent:
        text += f"e{printed.exponent}"
    if printed.unit is not None:
        text += (" " if printed.spaced_unit else "") + printed.unit.symbol
    return printed.approx + text


def _short(value: float, digits: int = 4) -> str:
    """A compact rendering of a value with ``digits`` significant digits."""
    if value == 0 or not math.isfinite(value):
        return format_like_plain(value)
    magnitude = math.floor(math.log10(abs(value)))
    if -5 <= magnitude < 15:
        decimals = max(0, digits - 1 - magnitude)
        text = f"{value:.{decimals}f}"
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        return text
    return f"{value:.{digits - 1}e}"


def format_like_plain(value: float) -> str:
    """Render zero and non-finite values."""
    if math.isnan(value):
        return "undefined"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return "0"


# Printed numbers in running text: where they sit in a quote, and the quote with some replaced.


@dataclass(frozen=True)
class Token:
    """A printed number inside a text: ``text[start:end]``."""

    start: int
    """Offset of its first character."""
    end: int
    """Offset just after its last character."""
    text: str
    """The number as printed (full-width digits and a unicode minus kept)."""

    @property
    def norm(self) -> str:
        """The number as compared: full-width folded, unicode minus as ``-``, the spaces of a
        grouped number (``1 048 576``) removed, as quotes are folded."""
        folded = self.text.translate(_TOKEN_FOLD)
        return "".join(folded.split()) if " " in folded or "\u2009" in folded else folded


_TOKEN_FOLD = {**_FULL_WIDTH, ord("−"): "-", ord("–"): "-"}
_DIGIT = "0-9０-９"
_TOKEN = re.compile(
    rf"(?<![{_DIGIT}A-Za-z_.．])"  # not inside another number or a name such as w1
    rf"(?:(?<![{_DIGIT}A-Za-z_)\]）］])[-−])?"  # a sign, unless it is a binary minus
    rf"[{_DIGIT}]+(?:[.．][{_DIGIT}]+)?"
)


# A whole part written in groups of three: "4,096", LaTeX's "262{,}144", or thin spaces
# ("1 048 576", U+2009/U+202F; plain spaces only with two groups or more, since "batch 1 048"
# does not occur but "sizes 8 256" may). The first group has no leading zero, and a group of
# more than three digits after a separator ("1,0000") is no grouping at all.
_GROUPED = re.compile(
    rf"[1-9１-９][{_DIGIT}]{{0,2}}"
    rf"(?:(?:(?:,|，|\{{,\}})[{_DIGIT}]{{3}})+|(?:[\u2009\u202f][{_DIGIT}]{{3}})+"
    rf"|(?: [{_DIGIT}]{{3}}){{2,}})"
    rf"(?![{_DIGIT}])(?!(?:[,，]|\{{,\}}|[\u2009\u202f ])[{_DIGIT}])"
)
_GROUPED_TOKEN = re.compile(
    rf"(?<![{_DIGIT}A-Za-z_.．])(?:(?<![{_DIGIT}A-Za-z_)\]）］])[-−])?"
    + _GROUPED.pattern
    + rf"(?:[.．][{_DIGIT}]+)?"
)


def number_tokens(text: str) -> list[Token]:
    """The printed numbers of ``text`` in order (``x1``, ``W₂`` and ``10⁻⁵``'s exponent are not).

    A number written with thousands separators (``4,096``, ``262{,}144``, ``1 048 576``) is one
    token, as :mod:`checkers.expr` reads it, except where a comma separates items: inside
    ``[…]`` or a call's ``f(…)`` (``[1,000, 2]``, ``range(1,100)``), as in the expression
    grammar.
    """
    tokens = [Token(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(text)]
    if not _SEPARATOR.search(text):
        return tokens  # most texts: no separator between digits, so no grouped number
    candidates = list(_GROUPED_TOKEN.finditer(text))
    in_lists = _in_item_lists(text, [m.start() for m in candidates])
    grouped = [m for m, in_list in zip(candidates, in_lists, strict=True) if not in_list]
    if not grouped:
        return tokens
    merged: list[Token] = []
    index = 0
    for match in grouped:
        while index < len(tokens) and tokens[index].end <= match.start():
            merged.append(tokens[index])
            index += 1
        while index < len(tokens) and tokens[index].start < match.end():
            index += 1  # the pieces of the grouped number
        merged.append(Token(match.start(), match.end(), match.group()))
    merged.extend(tokens[index:])
    return merged


_SEPARATOR = re.compile(rf"[{_DIGIT}](?:[,，\u2009\u202f ]|\{{,\}})[{_DIGIT}]")


_BRACKET_OR_BREAK = re.compile(r"[()\[\]（）［］\n]")


def _in_item_lists(text: str, positions: list[int]) -> list[bool]:
    """For each of the sorted ``positions``: True when it is inside ``[…]`` or a call's
    ``(…)``, where commas separate items. One pass over the brackets of ``text`` (a bracket
    never spans lines), so a hostile line of 40 000 grouped numbers stays linear."""
    found: list[bool] = []
    stack: list[bool] = []  # per open bracket: is it an item list?
    events = _BRACKET_OR_BREAK.finditer(text)
    event = next(events, None)
    for position in positions:
        while event is not None and event.start() < position:
            char, at = event.group(), event.start()
            if char == "\n":
                stack.clear()
            elif char in "([（［":
                before = text[at - 1 : at]
                stack.append(char in "[［" or before.isalnum() or before == "_")
            elif stack:
                stack.pop()
            event = next(events, None)
        found.append(bool(stack) and stack[-1])
    return found


_NUMBER_EDGE = r"(?<![\d.])"
_NUMBER_END = r"(?![\d])"


def apply_corrections(quote: str, corrections: Sequence[tuple[str, str]]) -> str | None:
    """The quote with each printed number replaced by its correction, or None if not found.

    Corrections are matched in order, as one pattern, at the last place in the quote where they
    all occur: a claimed value usually ends its sentence (``… = 0.78``), after the inputs.
    A correction's printed text may carry its unit (``14 GB``, ``50%``), so it is matched as
    written rather than through :func:`number_tokens`.
    """
    if not corrections:
        return None
    # From the right: the last occurrence of the last number, then of the one before it to its
    # left, and so on — one linear scan per correction, whatever the quote looks like.
    spans: list[tuple[int, int]] = []
    limit = len(quote)
    for old, _ in reversed(corrections):
        pattern = re.compile(f"{_NUMBER_EDGE}{re.escape(old)}{_NUMBER_END}")
        found = [m for m in pattern.finditer(quote, 0, limit) if m.end() <= limit]
        if not found:
            return None
        spans.append((found[-1].start(), found[-1].end()))
        limit = found[-1].start()
    spans.reverse()
    pieces: list[str] = []
    cursor = 0
    for (start, end), (_, new) in zip(spans, corrections, strict=True):
        pieces.append(quote[cursor:start])
        pieces.append(new)
        cursor = end
    pieces.append(quote[cursor:])
    return "".join(pieces)
