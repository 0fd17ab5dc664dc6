"""``lessoncheck``: the command line (``python -m checkers`` does the same).

Exit codes, for CI: 0 every claim holds; 1 some claim fails or is stale; 2 usage or input error
(a claim file or claim that could not be read; every other claim was still checked and reported).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from checkers.report.text import format_finding
from checkers.runner import Finding, run_paths, summarize

__all__ = ["main"]

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lessoncheck",
        description="Fact-check the worked numbers in course lessons.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = commands.add_parser("check", help="run claim files without pytest")
    check.add_argument(
        "claims",
        nargs="*",
        type=Path,
        default=[Path("claims")],
        help="claim files or folders of them (default: claims/)",
    )
    check.add_argument("--json", type=Path, metavar="FILE", help="also write the JSON report here")
    check.add_argument("--report-dir", type=Path, metavar="DIR", help="write all reports here")
    check.add_argument("-q", "--quiet", action="store_true", help="print only the summary line")

    scan = commands.add_parser("scan", help="draft claims from lessons and check them at once")
    scan.add_argument("lessons", nargs="+", type=Path, help="lesson Markdown files")
    scan.add_argument("--json", type=Path, metavar="FILE", help="also write the JSON report here")
    scan.add_argument("--report-dir", type=Path, metavar="DIR", help="write all reports here")
    scan.add_argument("-q", "--quiet", action="store_true", help="print only the summary line")

    extract = commands.add_parser("extract", help="write or update draft claim files")
    extract.add_argument("lessons", nargs="+", type=Path, help="lesson Markdown files")
    extract.add_argument(
        "-o",
        "--output",
        type=Path,
        default=Path("claims"),
        metavar="DIR",
        help="folder of claim files (default: claims/)",
    )
    extract.add_argument(
        "--check",
        action="store_true",
        help="change nothing; exit 1 when the claim files are out of date with the lessons",
    )
    return parser


def exit_code(findings: Sequence[Finding]) -> int:
    """The CLI contract: input errors outrank failures, failures outrank success."""
    if any(f.verdict == "error" for f in findings):
        return EXIT_INPUT
    if any(f.verdict in ("fail", "stale") for f in findings):
        return EXIT_FINDINGS
    return EXIT_OK


def summary_line(findings: Sequence[Finding]) -> str:
    """``12 passed, 3 failed, 1 stale, 0 errors`` — the closing line CI logs show."""
    counts = summarize(list(findings))
    return (
        f"{counts['pass']} passed, {counts['fail']} failed, {counts['stale']} stale, "
        f"{counts['error']} errors"
    )


def _check(args: argparse.Namespace) -> int:
    missing = [p for p in args.claims if not p.exists()]
    if missing:
        print(
            f"lessoncheck: no such file or folder: {', '.join(map(str, missing))}", file=sys.stderr
        )
        return EXIT_INPUT
    return _report(run_paths(list(args.claims)), args)


def _report(findings: Sequence[Finding], args: argparse.Namespace) -> int:
    if not args.quiet:
        for finding in findings:
            if finding.verdict != "pass":
                print(format_finding(finding), end="\n\n")
    if args.json:
        from checkers.report import json_report

        json_report.write(args.json, findings)
    if args.report_dir:
        from checkers.report import write_reports

        write_reports(args.report_dir, findings)
    if os.environ.get("GITHUB_ACTIONS") == "true":
        from checkers.report import github

        github.emit(findings, os.environ, sys.stdout, report_dir=args.report_dir)
    print(summary_line(findings))
    return exit_code(findings)


def _scan(args: argparse.Namespace) -> int:
    from checkers.scan import scan_lesson

    findings: list[Finding] = []
    for lesson in args.lessons:
        findings.extend(scan_lesson(lesson))
    return _report(findings, args)


def _extract(args: argparse.Namespace) -> int:
    from checkers.scan import extract_lesson

    out_of_date = False
    status = EXIT_OK
    for lesson in args.lessons:
        outcome = extract_lesson(lesson, args.output, write=not args.check)
        if isinstance(outcome, str):
            print(f"lessoncheck: {outcome}", file=sys.stderr)
            status = EXIT_INPUT
            continue
        for identifier in outcome.vanished:
            print(f"{outcome.path}: claim {identifier!r}: its quote is no longer in {lesson}")
        if outcome.changed:
            out_of_date = True
            verb = "would update" if args.check else "updated"
            print(
                f"{verb} {outcome.path}: {len(outcome.added)} added, "
                f"{len(outcome.removed)} removed (quote gone)"
            )
    if status != EXIT_OK:
        return status
    if args.check and out_of_date:
        print("claims/ is out of date with content/; run `lessoncheck extract` and review")
        return EXIT_FINDINGS
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``lessoncheck`` console script."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return EXIT_INPUT if stop.code else EXIT_OK
    try:
        if args.command == "check":
            return _check(args)
        if args.command == "scan":
            return _scan(args)
        if args.command == "extract":
            return _extract(args)
    except KeyboardInterrupt:
        return 130
    parser.error(f"unknown command {args.command}")
    return EXIT_INPUT
