"""``lessoncheck scan`` on a labelled corpus of real lessons: how many failures are real, and
how long the scan takes against markdown-it-py parsing the same files.

``python benchmarks/realworld.py [PATH]`` (default ``../shared/realworld``, from the
checkout) scans every ``*.md`` under ``PATH/files`` in this process, one lesson at a time, and
prints:

* the corpus's own figures, from its ``score.py`` run on the findings (JSON report), with
  ``--list`` its missed lines, false alarms and unlabelled flags;
* every failure's label: from the corpus key (``PATH/key.yaml``) or, for lines the key does not
  label, from this project's triage in ``benchmarks/realworld_labels.yaml`` (keyed like the key:
  lesson path relative to ``files/`` → line → ``label`` and ``what``, the recomputation; more
  files of the same shape in ``benchmarks/realworld_labels/``), and
  the share of labelled failures that are real mistakes;
* the scan's time against parsing the same texts with markdown-it-py (CommonMark, tables,
  ``$…$`` math, front matter; inline parsing included, as a reader of the lesson would render
  it), measured in the same process: ``--repeats`` runs of each (3 by default), interleaved so
  that load from elsewhere hits both alike, each after the checkers' caches are emptied and
  garbage collected, so that every scan starts as a fresh process would; medians of wall and
  of CPU time (the process's own, which load from elsewhere barely changes on a shared
  machine), and the ratio of each.

The corpus is for measuring: nothing here reads it to decide a verdict.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.append(str(Path(__file__).resolve().parent.parent))

import yaml

__all__ = ["DEFAULT_CORPUS", "LABELS", "Triage", "main", "triage"]

DEFAULT_CORPUS = Path("../shared/realworld")
"""Where the labelled corpus sits, from the checkout (a git worktree one folder deeper finds it
one level further up)."""
LABELS = Path(__file__).resolve().parent / "realworld_labels.yaml"
"""This project's labels for flagged lines the corpus key leaves unlabelled."""
MORE_LABELS = Path(__file__).resolve().parent / "realworld_labels"
"""More label files (``*.yaml``, same shape), one per area of triage, read after
:data:`LABELS`; two files that label one line differently are an error."""
_REAL = "wrong"
_FLAGGING = {"fail", "slip", "warn", "warning"}


@dataclass(frozen=True)
class Triage:
    """The failures of one scan sorted by the label of the line they point at."""

    real: tuple[str, ...]
    """``path:line`` of failures on lines labelled wrong (by the key or by us)."""
    false_alarms: tuple[str, ...]
    """Failures on lines labelled correct."""
    debatable: tuple[str, ...]
    """Failures on lines labelled debatable (counted neither way)."""
    unlabelled: tuple[str, ...]
    """Failures nobody has triaged yet."""

    @property
    def real_share(self) -> float:
        """Real mistakes among the failures labelled either way (1.0 when there are none)."""
        judged = len(self.real) + len(self.false_alarms)
        return len(self.real) / judged if judged else 1.0


def _labels(path: Path) -> dict[tuple[str, int], str]:
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {
        (lesson, int(line)): str(entry.get("label", ""))
        for lesson, entries in data.items()
        for line, entry in (entries or {}).items()
    }


def project_labels(ours: Path = LABELS, more: Path = MORE_LABELS) -> dict[tuple[str, int], str]:
    """Our labels from :data:`LABELS` and every file in :data:`MORE_LABELS`."""
    labels = _labels(ours)
    for path in sorted(more.glob("*.yaml")) if more.is_dir() else []:
        for where, label in _labels(path).items():
            if labels.setdefault(where, label) != label:
                raise SystemExit(
                    f"{path}: {where[0]}:{where[1]} is labelled both "
                    f"{labels[where]!r} and {label!r}"
                )
    return labels


def triage(
    report: dict[str, object], key: Path, ours: Path = LABELS, more: Path = MORE_LABELS
) -> Triage:
    """Sort the report's flagged lines by the corpus key, then by our own labels."""
    # the corpus key wins where both label a line
    labels = {**project_labels(ours, more), **_labels(key)}
    flagged: set[tuple[str, int]] = set()
    findings = report.get("findings", [])
    assert isinstance(findings, list)
    for finding in findings:
        if finding.get("verdict") in _FLAGGING and finding.get("line"):
            flagged.add((str(finding["source"]).removeprefix("./"), int(finding["line"])))
    sorted_lines: dict[str, list[str]] = {"wrong": [], "correct": [], "debatable": [], "": []}
    for lesson, line in sorted(flagged):
        label = labels.get((lesson, line), "")
        sorted_lines.setdefault(label, []).append(f"{lesson}:{line}")
    return Triage(
        real=tuple(sorted_lines[_REAL]),
        false_alarms=tuple(sorted_lines["correct"]),
        debatable=tuple(sorted_lines["debatable"]),
        unlabelled=tuple(sorted_lines[""]),
    )


def _scan(files: Sequence[Path], marked_wrong: list[object] | None = None) -> list[object]:
    from checkers.scan import scan_lesson

    findings: list[object] = []
    for path in files:
        findings.extend(scan_lesson(path, marked_wrong=marked_wrong))  # type: ignore[arg-type]
    return findings


def _parse(texts: Sequence[str]) -> None:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    parser = (
        MarkdownIt("commonmark", {"html": False})
        .enable("table")
        .use(dollarmath_plugin)
        .use(front_matter_plugin)
    )
    for text in texts:
        parser.parse(text)


def main(argv: Sequence[str] | None = None) -> int:
    """Scan the corpus, score it, triage its failures and time the scan; print the figures."""
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    options.add_argument("--list", action="store_true", help="print every line behind a figure")
    options.add_argument("--repeats", type=int, default=3, help="timed runs of each (median)")
    options.add_argument("--json", type=Path, help="also keep the scan's JSON report here")
    args = options.parse_args(argv)
    corpus: Path = args.corpus.resolve()
    if args.corpus == DEFAULT_CORPUS and not corpus.is_dir():
        corpus = (Path("..") / DEFAULT_CORPUS).resolve()
    root = corpus / "files"
    if not root.is_dir():
        print(f"{root}: no such folder (expected the corpus's files/)", file=sys.stderr)
        return 2
    from benchmarks.bench_check import reset_caches
    from checkers.report import json_report

    os.chdir(root)  # findings then name lessons relative to files/, as the key does
    files = sorted(Path(".").rglob("*.md"))
    texts = [path.read_text(encoding="utf-8", errors="replace") for path in files]
    gc.set_threshold(10_000, 10, 10)  # as the lessoncheck command sets it for its process
    marked_wrong: list[object] = []
    findings = _scan(files, marked_wrong)  # warm-up, and the findings scored below
    scan_times: list[tuple[float, float]] = []
    parse_times: list[tuple[float, float]] = []
    for _ in range(max(args.repeats, 1)):  # interleaved: load from elsewhere hits both alike
        reset_caches()
        scan_times.append(_timed(lambda: _scan(files)))
        parse_times.append(_timed(lambda: _parse(texts)))
    with tempfile.TemporaryDirectory() as temporary:
        report_path = args.json.resolve() if args.json else Path(temporary) / "rw.json"
        json_report.write(report_path, findings)  # type: ignore[arg-type]
        command = [sys.executable, str(corpus / "score.py"), str(report_path)]
        command += [str(corpus / "key.yaml"), *(["--list"] if args.list else [])]
        scored = subprocess.run(command, capture_output=True, text=True, check=False)
        report = json.loads(report_path.read_text(encoding="utf-8"))
    print(scored.stdout.rstrip() or scored.stderr.rstrip())
    verdicts = Counter(str(finding["verdict"]) for finding in report["findings"])
    result = triage(report, corpus / "key.yaml")
    if args.list:
        key = _labels(corpus / "key.yaml")
        for title, lines in (("false alarm", result.false_alarms), ("real", result.real)):
            for line in lines:
                lesson, _, number = line.rpartition(":")
                if (lesson, int(number)) not in key:
                    print(f"{title} (project label): {line}")
        for line in result.unlabelled:
            print(f"not yet triaged: {line}")
    failing = sum(verdicts[v] for v in _FLAGGING)
    print(
        f"{len(files)} files, {len(report['findings'])} drafts, {failing} failures on "
        f"{sum(map(len, (result.real, result.false_alarms, result.debatable, result.unlabelled)))}"
        f" lines: {len(result.real)} real, {len(result.false_alarms)} false alarms, "
        f"{len(result.debatable)} debatable, {len(result.unlabelled)} not yet triaged "
        f"({result.real_share:.0%} of the triaged failures are real)"
    )
    print(f"{len(marked_wrong)} failing drafts not reported: the author marks them wrong")
    scan, parse = _medians(scan_times), _medians(parse_times)
    print(
        f"scan {scan[0]:.2f} s, markdown-it-py parse {parse[0]:.2f} s ({scan[0] / parse[0]:.1f}×"
        f" the parse); CPU {scan[1]:.2f} s against {parse[1]:.2f} s ({scan[1] / parse[1]:.1f}×);"
        f" one process, medians of {len(scan_times)}"
    )
    return 0


def _medians(times: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """The median wall and the median CPU seconds of (wall, CPU) timings."""
    return statistics.median(t[0] for t in times), statistics.median(t[1] for t in times)


def _timed(run: Callable[[], object]) -> tuple[float, float]:
    """(wall, CPU) seconds of ``run()``, started from a collected heap (the garbage of what ran
    before is not charged to it)."""
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


if __name__ == "__main__":
    sys.exit(main())
