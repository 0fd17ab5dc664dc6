"""Planning a ``fix``: rounds of check and rewrite until every failing claim that can be fixed
holds, worked examples carried along (a claim that prints an upstream value is rewritten with
it), a group of claims rewritten as a whole or not at all, and hints about what the rewrite
could not know.

The planner asks a claim's input only what :class:`checkers.kinds.base.KindInput` declares
(:attr:`~checkers.kinds.base.KindInput.printed`, ``expression_text``, ``step_corrections``), so it
knows no kind by name.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from checkers.claims import Claim
from checkers.fix.alignment import align, lesson_ranges, quote_span, renumbered
from checkers.fix.claim_edits import (
    claim_node,
    claimed_source,
    edit_claim_file,
    source_tokens,
)
from checkers.fix.plan import FixPlan, FixProblem, NotFixed, Rewrite, display
from checkers.fix.tokens import norm, number_changes, replace_numbers, styled
from checkers.fix.workspace import Key, Snapshot, Workspace
from checkers.formats import FormatError, apply_edits
from checkers.lesson import Lesson, fold
from checkers.numbers import Printed, Token, number_tokens

__all__ = ["MAX_EDITS_PER_CLAIM", "MAX_ROUNDS", "plan_fix"]

MAX_ROUNDS = 60
"""Rounds of check-and-fix in one attempt (one round per step of the longest worked example)."""
MAX_EDITS_PER_CLAIM = 4
"""A claim fixed this often without settling is left alone (the fix does not converge)."""


class _Groups:
    """Union-find over claims: a worked example is fixed as a whole or not at all."""

    def __init__(self) -> None:
        self.parent: dict[Key, Key] = {}
        self.roots: dict[Key, set[Key]] = {}

    def find(self, key: Key) -> Key:
        self.parent.setdefault(key, key)
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def union(self, a: Key, b: Key) -> Key:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra
            self.roots.setdefault(ra, set()).update(self.roots.pop(rb, set()))
        return ra

    def start(self, key: Key) -> None:
        self.roots.setdefault(self.find(key), set()).add(key)


@dataclass
class _Edit:
    """Everything one claim's fix rewrites."""

    lesson: Path
    replacements: dict[tuple[int, int], str] = field(default_factory=dict)
    fields: dict[Key, dict[str, dict[int, str]]] = field(default_factory=dict)
    values: dict[Key, dict[str, str]] = field(default_factory=dict)
    rewrites: list[Rewrite] = field(default_factory=list)
    touched: list[Key] = field(default_factory=list)


class _RoundIndex:
    """What every edit of one round looks up, built once per round (the texts do not change
    within a round: its edits are applied together at its end). Without it each edit scanned
    every claim of the file and re-read the lesson: ``fix`` was quadratic in claims per file."""

    def __init__(self, planner: _Planner, snapshot: Snapshot) -> None:
        self.planner = planner
        self.snapshot = snapshot
        self.rank = {key: number for number, key in enumerate(snapshot.claims)}
        self.users: dict[Key, list[Key]] = {}
        """(claim file, id) → the claims of that file whose ``uses:`` name it, in file order."""
        for key, claim in snapshot.claims.items():
            for upstream in dict.fromkeys(claim.header.uses.values()):
                self.users.setdefault((key[0], upstream), []).append(key)
        self.with_occurrence = {
            planner.ws.lesson_of.get(key[0])
            for key, claim in snapshot.claims.items()
            if claim.header.occurrence is not None
        }
        """Lessons some claim of which names the occurrence of its quote."""
        self._lessons: dict[Path, Lesson] = {}
        self._spans: dict[Path, tuple[list[int], list[tuple[int, int, Key]], int]] = {}

    def lesson(self, path: Path) -> Lesson:
        """The lesson at ``path`` as this round's texts have it, folded once."""
        found = self._lessons.get(path)
        if found is None:
            found = self._lessons[path] = Lesson.from_text(path, self.planner.text(path))
        return found

    def quotes_over(self, path: Path, start: int, end: int) -> list[Key]:
        """The claims of lesson ``path`` whose quotes (as anchored) overlap ``[start, end)``."""
        begins, spans, longest = self._quote_spans(path)
        low = bisect.bisect_left(begins, start - longest)
        high = bisect.bisect_left(begins, end)
        return [key for begin, stop, key in spans[low:high] if begin < end and stop > start]

    def _quote_spans(self, path: Path) -> tuple[list[int], list[tuple[int, int, Key]], int]:
        found = self._spans.get(path)
        if found is not None:
            return found
        lesson = self.lesson(path)
        spans: list[tuple[int, int, Key]] = []
        for key, claim in self.snapshot.claims.items():
            if self.planner.ws.lesson_of.get(key[0]) != path or claim.anchor is None:
                continue
            quote = claim.header.quote
            try:
                start = quote_span(lesson, quote, claim.header.occurrence, explain=False)
            except FixProblem:
                continue
            end = lesson.offsets[start + len(fold(quote)[0]) - 1] + 1
            spans.append((lesson.offsets[start], end, key))
        spans.sort()
        longest = max((stop - begin for begin, stop, _ in spans), default=0)
        found = self._spans[path] = ([begin for begin, _, _ in spans], spans, longest)
        return found


class _Planner:
    def __init__(self, workspace: Workspace, blocked: dict[Key, str]) -> None:
        self.ws = workspace
        self.blocked = dict(blocked)
        self.texts: dict[Path, str] = {}
        self.groups = _Groups()
        self.touched: set[Key] = set()
        self.edits: dict[Key, int] = {}
        self.rewrites: list[Rewrite] = []
        self.problems: dict[Key, str] = {}
        self.repaired: set[Key] = set()
        """Stale claims whose claim file took the lesson's numbers: they must now hold as they
        are (a repair never leads to rewriting the lesson)."""

    def text(self, path: Path) -> str:
        return self.texts.get(path, self.ws.original[path])

    # -- one round -----------------------------------------------------------------------------

    def run(self) -> Snapshot:
        snapshot = self.ws.check(self.texts)
        for _ in range(MAX_ROUNDS):
            if not self._round(snapshot):
                break
            snapshot = self.ws.check(self.texts)
        return snapshot

    def _pending(self, snapshot: Snapshot, key: Key) -> bool:
        finding = snapshot.findings.get(key)
        return (
            finding is not None
            and (finding.verdict == "fail" or finding.verdict == "stale")
            and key not in self.blocked
            and key not in self.problems
            and key not in self.repaired
        )

    def _round(self, snapshot: Snapshot) -> bool:
        progressed = False
        this_round: set[Key] = set()
        self.index = _RoundIndex(self, snapshot)
        batch: list[_Edit] = []
        rewritten: dict[Path, list[tuple[int, int]]] = {}  # lesson spans this round rewrites
        for key in snapshot.order:
            if not self._pending(snapshot, key) or key in this_round:
                continue
            claim = snapshot.claims.get(key)
            if claim is None:
                continue
            upstream = [(key[0], u) for u in claim.header.uses.values()]
            if any(self._pending(snapshot, u) and u != key for u in upstream):
                continue  # the upstream step is fixed first; this one follows next round
            if self.edits.get(key, 0) >= MAX_EDITS_PER_CLAIM:
                self._refuse(key, "repeated rewriting did not make the claim hold")
                continue
            if any(k in this_round for k in self.index.users.get(key, ())):
                continue  # a claim it feeds changed this round: wait for the next check
            try:
                stale = snapshot.findings[key].verdict == "stale"
                edit = (
                    self._repair(snapshot, key, claim)
                    if stale
                    else self._edit(snapshot, key, claim)
                )
                if any(k in this_round for k in edit.touched) or _crosses(edit, rewritten):
                    continue  # overlaps an edit of this round: wait for the next check
                batch.append(edit)
            except FixProblem as problem:
                if not this_round:
                    self._refuse(key, str(problem))
                # else: the texts moved on since the check; try again after the next one
                continue
            if stale:
                self.repaired.add(key)
            self.edits[key] = self.edits.get(key, 0) + 1
            if key not in self.touched:
                self.groups.start(key)
            for other in edit.touched:
                self.groups.union(key, other)
            self.touched.update(edit.touched)
            this_round.update(edit.touched)
            progressed = True
        self._apply(batch)
        return progressed

    def _refuse(self, key: Key, reason: str) -> None:
        self.problems[key] = reason

    # -- building one edit ---------------------------------------------------------------------

    def _edit(self, snapshot: Snapshot, key: Key, claim: Claim) -> _Edit:
        finding = snapshot.findings[key]
        quote = claim.header.quote
        changes: dict[int, str] = {}
        if finding.fix:
            found = number_changes(quote, finding.fix)
            if found is None:
                raise FixProblem(
                    f"the suggested fix changes more than numbers ({finding.fix!r}); "
                    "edit the lesson by hand"
                )
            changes.update(found)
        expression_changes: dict[int, str] = {}
        expression = claim.input.expression_text
        if expression is not None:
            expression_changes = claim.input.step_corrections(
                self._upstream_values(snapshot, key, claim)
            )
            if expression_changes:
                values = self._upstream_texts(snapshot, key, claim)
                alignment = align(expression, quote, values)
                if alignment is None or any(i not in alignment.literal for i in expression_changes):
                    raise FixProblem(
                        "an intermediate step must be recomputed, but the expression cannot be "
                        "lined up with the quote"
                    )
                for index, new in expression_changes.items():
                    changes[alignment.literal[index]] = new
        if not changes:
            if finding.fix is None:
                raise FixProblem("the checker suggests no fix (not a number in the quote)")
            raise FixProblem("the suggested fix changes no number")
        lesson_path = self.ws.lesson_of.get(key[0])
        if lesson_path is None:
            raise FixProblem("the lesson of the claim file was not found")
        edit = _Edit(lesson_path)
        lesson = self.index.lesson(lesson_path)
        self._rewrite_claim(edit, snapshot, lesson, key, claim, changes)
        if expression_changes:
            edit.fields[key]["expression"] = expression_changes
            edit.values[key]["expression"] = str(expression)
        self._carry(edit, snapshot, lesson, key, claim)
        self._overlaps(edit, snapshot, lesson)
        self._occurrences(edit, snapshot, lesson)
        return edit

    def _repair(self, snapshot: Snapshot, key: Key, claim: Claim) -> _Edit:
        """The claim-file edit for a stale claim whose quote is in its lesson with other numbers
        only (what a ``fix --write`` killed between writing a lesson and its claim file leaves):
        its ``quote:``, ``claimed:`` and the expression's printed numbers take the lesson's. The
        lesson is not touched, and the repair is kept only if the claim then holds."""
        lesson_path = self.ws.lesson_of.get(key[0])
        if lesson_path is None:
            raise FixProblem("the lesson of the claim file was not found")
        quote = claim.header.quote
        changes = renumbered(self.index.lesson(lesson_path), quote)
        edit = _Edit(lesson_path)
        edit.fields[key] = {"quote": changes}
        edit.values[key] = {"quote": quote}
        claimed = self._claimed_changes(key, number_tokens(quote), changes)
        if claimed:
            edit.fields[key]["claimed"] = claimed
        expression = claim.input.expression_text
        alignment = (
            align(expression, quote, self._upstream_texts(snapshot, key, claim))
            if expression is not None
            else None
        )
        if expression is not None and alignment is not None:
            printed = {e: changes[q] for e, q in alignment.literal.items() if q in changes}
            if printed:
                edit.fields[key]["expression"] = printed
                edit.values[key]["expression"] = str(expression)
        edit.touched.append(key)
        return edit

    def _upstream_values(self, snapshot: Snapshot, key: Key, claim: Claim) -> dict[str, float]:
        """The ``uses:`` names of ``claim`` → the upstream claims' printed values."""
        return {name: printed.value for name, printed in self._upstream(snapshot, key, claim)}

    def _upstream_texts(self, snapshot: Snapshot, key: Key, claim: Claim) -> dict[str, str]:
        """The ``uses:`` names of ``claim`` → the upstream claims' values as printed."""
        return {name: printed.text for name, printed in self._upstream(snapshot, key, claim)}

    def _upstream(self, snapshot: Snapshot, key: Key, claim: Claim) -> list[tuple[str, Printed]]:
        found: list[tuple[str, Printed]] = []
        for name, upstream_id in claim.header.uses.items():
            upstream = snapshot.claims.get((key[0], upstream_id))
            claimed = upstream.input.printed if upstream else None
            if isinstance(claimed, Printed):
                found.append((name, claimed))
        return found

    def _rewrite_claim(
        self,
        edit: _Edit,
        snapshot: Snapshot,
        lesson: Lesson,
        key: Key,
        claim: Claim,
        changes: dict[int, str],
    ) -> None:
        """Add the lesson replacements and claim-file updates for ``changes`` to the quote."""
        quote = claim.header.quote
        start = quote_span(lesson, quote, claim.header.occurrence)
        indexes = sorted(changes)
        tokens = number_tokens(quote)
        placed = lesson_ranges(lesson, start, quote, indexes)
        for index, token in zip(indexes, placed, strict=True):
            refused = lesson.source.edit_refusal(token.start)
            if refused is not None:
                raise FixProblem(f"the number {token.text} cannot be rewritten: {refused}")
            new = styled(changes[index], token.text)
            span = (token.start, token.end)
            if edit.replacements.get(span, new) != new:
                raise FixProblem(f"two fixes disagree about the number {token.text}")
            edit.replacements[span] = new
            line = lesson.position(token.start)[0]
            edit.rewrites.append(
                Rewrite(display(edit.lesson), line, token.text, new, self.ws.label(key))
            )
        fields = edit.fields.setdefault(key, {})
        values = edit.values.setdefault(key, {})
        fields.setdefault("quote", {}).update(changes)
        values["quote"] = quote
        claimed = self._claimed_changes(key, tokens, changes)
        if claimed:
            fields["claimed"] = claimed
        if key not in edit.touched:
            edit.touched.append(key)

    def _claimed_changes(
        self, key: Key, quote_tokens: list[Token], changes: dict[int, str]
    ) -> dict[int, str]:
        """The ``claimed:`` numbers that print the changed quote numbers (matched from the end,
        where a claimed value usually stands)."""
        claimed = claimed_source(self.text(key[0]), key[1])
        if not claimed:
            return {}
        matched: dict[int, int] = {}
        position = len(quote_tokens)
        for index in range(len(claimed) - 1, -1, -1):
            position -= 1
            while position >= 0 and quote_tokens[position].norm != claimed[index].norm:
                position -= 1
            if position < 0:
                return {}  # the claimed value is not printed in the quote as such
            matched[index] = position
        return {i: changes[q] for i, q in matched.items() if q in changes}

    def _carry(
        self, edit: _Edit, snapshot: Snapshot, lesson: Lesson, key: Key, claim: Claim
    ) -> None:
        """Rewrite the upstream value where the claims that use this one print it."""
        claimed_changes = edit.fields.get(key, {}).get("claimed", {})
        if not claimed_changes:
            return
        tokens = claimed_source(self.text(key[0]), key[1])
        if len(tokens) != 1:
            return  # only single printed values are used by other claims
        old, new = tokens[0].text, claimed_changes[0]
        for other_key in self.index.users.get(key, ()):
            other = snapshot.claims[other_key]
            if other_key == key:
                continue
            names = [n for n, upstream in other.header.uses.items() if upstream == key[1]]
            quote = other.header.quote
            quote_tokens = number_tokens(quote)
            indexes: list[int] = []
            expression = other.input.expression_text
            alignment = (
                align(expression, quote, self._upstream_texts(snapshot, other_key, other))
                if expression is not None
                else None
            )
            if alignment is not None:
                for name, inside in alignment.names:
                    if name in names:
                        indexes.extend(i for i in inside if quote_tokens[i].norm == norm(old))
            else:
                same = [i for i, t in enumerate(quote_tokens) if t.norm == norm(old)]
                if len(same) > 1:
                    raise FixProblem(
                        f"{self.ws.label(other_key)} uses this value and prints {old} "
                        f"{len(same)} times; cannot tell which one to rewrite"
                    )
                indexes = same
            if indexes:
                self._rewrite_claim(
                    edit, snapshot, lesson, other_key, other, dict.fromkeys(indexes, new)
                )
            elif other_key not in edit.touched:
                edit.touched.append(other_key)  # its result changes, though no text does

    def _overlaps(self, edit: _Edit, snapshot: Snapshot, lesson: Lesson) -> None:
        """Other claims whose quotes contain a rewritten number get the same rewrite."""
        near = {
            key
            for start, end in edit.replacements
            for key in self.index.quotes_over(edit.lesson, start, end)
        }
        for other_key in sorted(near, key=self.index.rank.__getitem__):
            other = snapshot.claims[other_key]
            if other_key in edit.touched:
                continue
            quote = other.header.quote
            try:
                start = quote_span(lesson, quote, other.header.occurrence, explain=False)
            except FixProblem:
                continue
            end_offset = lesson.offsets[start + len(fold(quote)[0]) - 1] + 1
            begin_offset = lesson.offsets[start]
            hits = [
                (span, new)
                for span, new in edit.replacements.items()
                if span[0] < end_offset and span[1] > begin_offset
            ]
            if not hits:
                continue
            quote_tokens = number_tokens(quote)
            changes: dict[int, str] = {}
            for index in range(len(quote_tokens)):
                placed = lesson_ranges(lesson, start, quote, [index])[0]
                for span, new in hits:
                    if (placed.start, placed.end) == span:
                        changes[index] = new
            if len(changes) != len(hits):
                raise FixProblem(
                    f"the rewrite cuts through a number of {self.ws.label(other_key)}'s quote"
                )
            self._rewrite_claim(edit, snapshot, lesson, other_key, other, changes)

    def _occurrences(self, edit: _Edit, snapshot: Snapshot, lesson: Lesson) -> None:
        """Keep ``occurrence: N`` pointing at the same place: a rewritten quote may now occur
        more or fewer times before it."""
        if edit.lesson not in self.index.with_occurrence:
            return  # no claim of this lesson says which occurrence it means
        text = lesson.text
        for (start, end), new in sorted(edit.replacements.items(), reverse=True):
            text = text[:start] + new + text[end:]
        rewritten = lesson.edited(text)

        def moved(offset: int) -> int:
            return offset + sum(
                len(new) - (end - start)
                for (start, end), new in edit.replacements.items()
                if end <= offset
            )

        for key, claim in snapshot.claims.items():
            if claim.header.occurrence is None or self.ws.lesson_of.get(key[0]) != edit.lesson:
                continue
            try:
                start = quote_span(lesson, claim.header.quote, claim.header.occurrence)
            except FixProblem:
                continue
            quote = replace_numbers(claim.header.quote, edit.fields.get(key, {}).get("quote", {}))
            needle = fold(quote)[0]
            starts: list[int] = []
            found = rewritten.folded.find(needle)
            while found != -1:
                starts.append(rewritten.offsets[found])
                found = rewritten.folded.find(needle, found + 1)
            target = moved(lesson.offsets[start])
            if target not in starts:
                raise FixProblem(f"cannot keep the occurrence of {self.ws.label(key)}")
            index = starts.index(target) + 1
            if index != claim.header.occurrence:
                edit.fields.setdefault(key, {})["occurrence"] = {0: str(index)}
                if key not in edit.touched:
                    edit.touched.append(key)

    # -- applying ------------------------------------------------------------------------------

    def _apply(self, batch: Sequence[_Edit]) -> None:
        """Apply a round's edits together: each lesson and each claim file is rewritten once
        per round, not once per edit (their spans and claims do not overlap: see _round)."""
        replacements: dict[Path, dict[tuple[int, int], str]] = {}
        for edit in batch:
            replacements.setdefault(edit.lesson, {}).update(edit.replacements)
        lessons: dict[Path, str] = {}
        refused: dict[Path, str] = {}
        for lesson, spans in replacements.items():
            # The spans are of the lesson's text; its format writes them into the file (a
            # notebook's JSON strings) or refuses, and then none of that lesson's edits is made.
            try:
                lessons[lesson] = apply_edits(lesson, self.text(lesson), spans)
            except FormatError as error:
                refused[lesson] = f"{display(lesson)}: {error}"
        for edit in batch:
            for key in edit.touched if edit.lesson in refused else ():
                self._refuse(key, refused[edit.lesson])
        by_file: dict[Path, dict[str, dict[str, dict[int, str]]]] = {}
        values: dict[Path, dict[str, dict[str, str]]] = {}
        for edit in (edit for edit in batch if edit.lesson not in refused):
            for (path, claim_id), fields in edit.fields.items():
                by_file.setdefault(path, {})[claim_id] = fields
                values.setdefault(path, {})[claim_id] = edit.values.get((path, claim_id), {})
            self.rewrites.extend(edit.rewrites)
        self.texts.update(lessons)
        for path, changes in by_file.items():
            self.texts[path] = edit_claim_file(self.text(path), changes, values[path])


def _crosses(edit: _Edit, rewritten: dict[Path, list[tuple[int, int]]]) -> bool:
    """True when ``edit`` rewrites lesson text that an edit already in this round rewrites;
    otherwise its spans are recorded in ``rewritten`` (sorted, for bisection)."""
    taken = rewritten.setdefault(edit.lesson, [])
    for start, end in edit.replacements:
        at = bisect.bisect_left(taken, (start, end))
        if (at < len(taken) and taken[at][0] < end) or (at and taken[at - 1][1] > start):
            return True
    for span in edit.replacements:
        bisect.insort(taken, span)
    return False


def plan_fix(paths: Sequence[Path]) -> FixPlan:
    """Work out (and verify on the edited texts, in memory) what ``fix`` rewrites; change
    nothing."""
    workspace = Workspace(paths)
    before = workspace.check({})
    blocked: dict[Key, str] = {}
    # Each attempt drops at least one more failing claim (a root of a broken group is never
    # edited again), so this ends; the bound only guards against a bug.
    failing = sum(f.verdict == "fail" for f in before.findings.values())
    for _ in range(failing + 1):
        planner = _Planner(workspace, blocked)
        after = planner.run()
        broken = _broken_groups(planner, before, after)
        if not broken:
            return _result(workspace, planner, before, after, blocked)
        blocked.update(broken)
    for key in before.order:  # pragma: no cover - unreachable unless the bound is wrong
        blocked.setdefault(key, "fix did not settle; nothing was rewritten")
    planner = _Planner(workspace, blocked)
    return _result(workspace, planner, before, planner.run(), blocked)


def _broken_groups(planner: _Planner, before: Snapshot, after: Snapshot) -> dict[Key, str]:
    """Roots of the rewrites to drop, with the reason: a claim they touched (or any claim that
    held before) does not hold afterwards."""
    broken: dict[Key, str] = {}
    for key in after.order:
        finding = after.findings[key]
        if finding.verdict == "pass":
            continue
        was = before.findings.get(key)
        if key in planner.touched:
            groups = [planner.groups.find(key)]
        elif was is not None and was.verdict == "pass":
            groups = list({planner.groups.find(k) for k in planner.touched})
        else:
            continue
        label = planner.ws.label(key)
        for group in groups:
            reason = (
                f"after rewriting, {label} would still be {finding.verdict}: {finding.message}"
                if key in planner.groups.roots.get(group, set())
                else f"rewriting it would leave {label} {finding.verdict}: {finding.message}"
            )
            for root in planner.groups.roots.get(group, set()):
                broken.setdefault(root, reason)
    return broken


def _result(
    workspace: Workspace,
    planner: _Planner,
    before: Snapshot,
    after: Snapshot,
    blocked: dict[Key, str],
) -> FixPlan:
    failing_before = {k for k in before.order if before.findings[k].verdict != "pass"}
    fixed = [
        workspace.label(k)
        for k in before.order
        if k in failing_before and k in planner.touched and after.findings[k].verdict == "pass"
    ]
    rewritten = {r.claim for r in planner.rewrites}
    carried = [
        workspace.label(k)
        for k in before.order
        if k not in failing_before and workspace.label(k) in rewritten
    ]
    not_fixed: list[NotFixed] = []
    for key in after.order:
        finding = after.findings[key]
        if finding.verdict == "pass":
            continue
        if finding.verdict == "fail":
            reason = planner.problems.get(key) or blocked.get(key) or "left as it is"
        else:
            reason = f"{finding.verdict}: {finding.message}"
        not_fixed.append(NotFixed(workspace.label(key), finding.where, finding.kind, reason))
    for finding in workspace.unread:
        if finding.verdict != "pass":
            label = f"{finding.claims_file}::{finding.id}"
            reason = f"{finding.verdict}: {finding.message}; not rewritten"
            not_fixed.append(NotFixed(label, finding.where, finding.kind, reason))
    changed = {p: t for p, t in planner.texts.items() if t != workspace.original[p]}
    return FixPlan(
        originals=dict(workspace.original),
        texts=changed,
        boms=set(workspace.boms),
        fixed=fixed,
        carried=carried,
        rewrites=list(planner.rewrites),
        not_fixed=not_fixed,
        hints=_hints(workspace, planner, after),
        before=[*(before.findings[k] for k in before.order), *workspace.unread],
        after=[*(after.findings[k] for k in after.order), *workspace.unread],
    )


_SECTION = re.compile(r"^#{1,2}\s")
MIN_HINT_LENGTH = 3
"""Numbers shorter than this (``1``, ``16``) are too common to hint about."""


def _hints(workspace: Workspace, planner: _Planner, after: Snapshot) -> list[str]:
    """What the rewrite could not know about: old numbers still printed further down the same
    chapter of the lesson (outside the claims rewritten), and claims that hold with their own
    copy of numbers the rewrite changed (a restated worked example)."""
    rewritten = {r.claim for r in planner.rewrites}
    old_values = {norm(r.old): r for r in planner.rewrites if len(r.old) >= MIN_HINT_LENGTH}
    rank = {value: index for index, value in enumerate(old_values)}
    hints: list[str] = []
    for path, text in planner.texts.items():
        if path.suffix in (".yaml", ".yml"):
            continue
        rewrites = [r for r in planner.rewrites if r.lesson == display(path) and r.old != r.new]
        lesson = Lesson.from_text(path, text)
        text = lesson.text  # a notebook's lesson text, not its JSON
        covered: list[tuple[int, int]] = []
        for key, claim in after.claims.items():
            if workspace.lesson_of.get(key[0]) != path or workspace.label(key) not in rewritten:
                continue
            try:
                start = quote_span(
                    lesson, claim.header.quote, claim.header.occurrence, explain=False
                )
            except FixProblem:
                continue
            end = start + len(fold(claim.header.quote)[0]) - 1
            covered.append((lesson.offsets[start], lesson.offsets[end] + 1))
        inside = _Spans(covered)
        lines = text.split("\n")
        # A worked example spans subsections: look down to the next chapter heading (# or ##).
        headings = [i + 1 for i, line in enumerate(lines) if _SECTION.match(line)]
        # Each printed number is hinted at most once, so each value's numbers are visited once
        # in all (a skip list over those already taken), not once per rewrite of that value.
        by_value: dict[str, _Unvisited] = {}
        for token in number_tokens(text):
            if len(token.text) >= MIN_HINT_LENGTH:
                by_value.setdefault(token.norm, _Unvisited()).add(token, lesson)
        for rewrite in rewrites:
            found = by_value.get(norm(rewrite.old))
            if len(rewrite.old) < MIN_HINT_LENGTH or found is None:
                continue
            following = bisect.bisect_right(headings, rewrite.line)
            section_end = headings[following] if following < len(headings) else len(lines) + 1
            for token, line in found.take(rewrite.line, section_end):
                if not inside.holds(token.start):
                    hints.append(
                        f"{display(path)}:{line} still prints {rewrite.old} "
                        f"({rewrite.claim} now prints {rewrite.new}): check it by hand"
                    )
    touched_files = {k[0] for k in planner.touched}
    for key in after.order:
        label = workspace.label(key)
        if label in rewritten or key[0] not in touched_files:
            continue
        if after.findings[key].verdict != "pass":
            continue  # already reported as failing
        try:
            node = claim_node(planner.text(key[0]), key[1])
        except FixProblem:
            continue
        recorded = {
            t.norm
            for name_node, value in node.value
            if name_node.value not in ("quote", "note", "id")
            for t in source_tokens(planner.text(key[0]), value)
        }
        # By line, then in the order the rewrites were made: a set's order would vary with
        # the process's hash seed, and the hint with it.
        stale = sorted(recorded & set(old_values), key=lambda v: (old_values[v].line, rank[v]))
        if len(stale) >= 2:
            shown = ", ".join(f"{old_values[v].old} → {old_values[v].new}" for v in stale[:6])
            hints.append(
                f"{label} still holds with its own copy of numbers the rewrite changed "
                f"({shown}{', …' if len(stale) > 6 else ''}): update it and its quote by hand"
            )
    return list(dict.fromkeys(hints))


class _Spans:
    """Does an offset fall in one of some text spans? (merged once, then bisected)"""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        merged: list[list[int]] = []
        for start, end in sorted(spans):
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self.starts = [start for start, _ in merged]
        self.ends = [end for _, end in merged]

    def holds(self, offset: int) -> bool:
        at = bisect.bisect_right(self.starts, offset) - 1
        return at >= 0 and offset < self.ends[at]


class _Unvisited:
    """The numbers of one value printed in a lesson, in text order, each taken at most once."""

    def __init__(self) -> None:
        self.tokens: list[Token] = []
        self.lines: list[int] = []
        self.next: list[int] = []
        """``next[i]``: an index at or after ``i`` not yet taken (path-compressed)."""

    def add(self, token: Token, lesson: Lesson) -> None:
        self.tokens.append(token)
        self.lines.append(lesson.position(token.start)[0])
        self.next.append(len(self.next))

    def _find(self, index: int) -> int:
        root = index
        while root < len(self.next) and self.next[root] != root:
            root = self.next[root]
        while index < len(self.next) and self.next[index] != index:
            self.next[index], index = root, self.next[index]
        return root

    def take(self, first_line: int, end_line: int) -> list[tuple[Token, int]]:
        """The numbers not taken yet on lines ``first_line`` to ``end_line`` (exclusive), now
        taken."""
        taken: list[tuple[Token, int]] = []
        index = self._find(bisect.bisect_left(self.lines, first_line))
        while index < len(self.tokens) and self.lines[index] < end_line:
            taken.append((self.tokens[index], self.lines[index]))
            self.next[index] = index + 1
            index = self._find(index + 1)
        return taken
