"""``lessoncheck``: the command line (``python -m checkers`` does the same).

Exit codes, for CI: 0 every claim holds; 1 some claim fails or is stale; 2 usage or input error
(a claim file or claim that could not be read, or a project configuration that could not be
used; every other claim was still checked and reported). Slips (only the last printed digit is
off), suppressed failures and statements the author marked wrong are reported but do not count,
slips unless ``--strict`` or the configuration's ``strict`` (:mod:`checkers.config`). With
``--baseline FILE``, failures recorded in the baseline do not count (see
:mod:`checkers.baseline`); ``fix`` rewrites lessons (see :mod:`checkers.fix`). ``fix --diff``
(the default) exits as ``black --check`` does: 1 when it would change a file, 0 when there is
nothing to rewrite (failures it cannot fix are for ``check`` to report), 2 on input errors.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from checkers import __version__
from checkers.baseline import DEFAULT_FILE, Baseline, BaselineError, Comparison
from checkers.config import Config, ConfigError, project_config
from checkers.files import CLAIM_FILES, CLAIM_SUFFIXES, Selection, collect, real_path
from checkers.finding import Finding, fails_run, summary_line
from checkers.parallel import map_each, map_files
from checkers.progress import for_command
from checkers.report.text import format_finding, inert
from checkers.runner import run_paths

if TYPE_CHECKING:
    from checkers.extract.coverage import LessonCoverage

__all__ = ["main"]

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT = 0, 1, 2


_CLAIMS_HELP = (
    "claim files, folders of them or quoted globs ('claims/**/*.yaml') (default: the "
    "configuration's claims-folder, claims/)"
)
_LESSONS_HELP = (
    "lesson files, folders of them or quoted globs ('docs/**/*.md'); a folder or glob yields "
    "the configured formats, include and exclude, never hidden folders, node_modules or the "
    "claims folder (default: the configuration's lesson-roots)"
)


_EPILOG = """\
inputs:
  files, folders or quoted globs ('docs/**/*.md', 'claims/**/*.yaml'); folders are walked
  in sorted order, skipping hidden folders, node_modules and (for lessons) the claims folder.
  A claim file mirrors its lesson's path below the lesson root: site/week1/index.md has
  claims/week1/index.yaml.

configuration ([tool.lessoncheck] in pyproject.toml, or .lessoncheck.toml):
  strict, ignore, per-path-ignores, lesson-roots, claims-folder, include, exclude, formats

exit codes:
  0 every claim holds; 1 a claim fails or is stale (extract --check: claims out of date;
  fix --diff: something to rewrite); 2 usage or input error (a claim or lesson that cannot be
  read, a glob that matches nothing, a folder without lessons, a broken configuration)
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lessoncheck",
        description="Fact-check the worked numbers in course lessons.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"lessoncheck {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = commands.add_parser("check", help="run claim files without pytest")
    check.add_argument("claims", nargs="*", type=Path, help=_CLAIMS_HELP)
    _report_options(check)

    scan = commands.add_parser("scan", help="draft claims from lessons and check them at once")
    scan.add_argument("lessons", nargs="*", type=Path, help=_LESSONS_HELP)
    scan.add_argument(
        "--stats",
        action="store_true",
        help="also say, per lesson and in total, how many numbers were seen and checked, and "
        "why the rest were skipped (a coverage section in the JSON report)",
    )
    _report_options(scan)

    extract = commands.add_parser("extract", help="write or update draft claim files")
    extract.add_argument("lessons", nargs="*", type=Path, help=_LESSONS_HELP)
    extract.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="DIR",
        help="folder of claim files (default: the configuration's claims-folder, claims/); "
        "site/week1/index.md gets DIR/week1/index.yaml (its path below its lesson root)",
    )
    extract.add_argument(
        "--check",
        action="store_true",
        help="change nothing; exit 1 when the claim files are out of date with the lessons",
    )

    baseline = commands.add_parser(
        "baseline", help="record today's failures so that --baseline fails only on new ones"
    )
    baseline.add_argument(
        "inputs",
        nargs="*",
        type=Path,
        metavar="CLAIMS",
        help=_CLAIMS_HELP + "; lesson files (and folders or globs outside the claims folder) "
        "are scanned instead",
    )
    baseline.add_argument(
        "-o",
        "--output",
        type=Path,
        default=Path(DEFAULT_FILE),
        metavar="FILE",
        help=f"the baseline file to write (default: {DEFAULT_FILE})",
    )

    fix = commands.add_parser("fix", help="rewrite wrong numbers in the lessons (and claims)")
    fix.add_argument("claims", nargs="*", type=Path, help=_CLAIMS_HELP)
    mode = fix.add_mutually_exclusive_group()
    mode.add_argument(
        "--diff",
        dest="write",
        action="store_false",
        help="print the changes as a unified diff and change nothing (the default); "
        "exit 1 when there is something to change, 0 when not",
    )
    mode.add_argument(
        "--write",
        dest="write",
        action="store_true",
        help="rewrite the lessons and update the claims' quote: and claimed: accordingly",
    )
    fix.set_defaults(write=False)

    kinds = commands.add_parser("kinds", help="list the claim kinds, or describe one")
    kinds.add_argument(
        "name", nargs="?", help="a kind: its fields, their types, an example, what it checks"
    )
    schema = commands.add_parser("schema", help="write the JSON Schema of claim files")
    schema.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write it to FILE (default: stdout)"
    )
    return parser


MAX_AUTO_JOBS = 8
"""``-j auto`` uses at most this many workers: each holds its own copy of the kinds and their
libraries (about 100 MB), and a CI runner may report far more CPUs than it has memory for."""


def _jobs(text: str) -> int:
    if text == "auto":
        try:
            cpus = len(os.sched_getaffinity(0))
        except AttributeError:  # not on Linux
            cpus = os.cpu_count() or 1
        return min(cpus, MAX_AUTO_JOBS)
    try:
        value = int(text)
    except ValueError:
        message = f"expected a number of processes or auto, got {text!r}"
        raise argparse.ArgumentTypeError(message) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1 process, got {value}")
    return value


def _report_options(command: argparse.ArgumentParser) -> None:
    """The options ``check`` and ``scan`` share: reports, quiet, worker processes, baseline."""
    command.add_argument(
        "--json", type=Path, metavar="FILE", help="also write the JSON report here"
    )
    command.add_argument("--report-dir", type=Path, metavar="DIR", help="write all reports here")
    command.add_argument("-q", "--quiet", action="store_true", help="print only the summary line")
    command.add_argument(
        "--strict",
        action="store_true",
        help="slips (only the last printed digit off) fail the run too",
    )
    command.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default="auto",
        metavar="N",
        help="worker processes for large courses (default: auto = one per CPU, at most 8)",
    )
    _baseline_option(command)


def _baseline_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--baseline",
        type=Path,
        metavar="FILE",
        help="fail only on failures not recorded in this baseline (see `lessoncheck baseline`)",
    )


def exit_code(
    findings: Sequence[Finding], comparison: Comparison | None = None, *, strict: bool = False
) -> int:
    """The CLI contract: input errors outrank failures, failures outrank success.

    A slip counts only when ``strict`` (:func:`checkers.finding.fails_run`). With a baseline
    ``comparison``, only its ``new`` findings count: a known failure is not one.
    """
    if any(f.verdict == "error" for f in findings):
        return EXIT_INPUT
    counted = findings if comparison is None else comparison.new
    if any(fails_run(f, strict=strict) for f in counted):
        return EXIT_FINDINGS
    return EXIT_OK


def _say(line: str, stream: TextIO | None = None) -> None:
    """Print one line through the output rule (:func:`checkers.report.text.inert`): paths and
    lesson text come from pull requests, so nothing this command prints may drive the terminal
    or forge a CI workflow command. Every line the commands print goes through here, except
    :func:`checkers.report.text.format_finding`'s, which are made inert where they are built."""
    print(inert(line), file=sys.stdout if stream is None else stream)


def _config(start: Path) -> Config | int:
    """The project configuration, or EXIT_INPUT (said why) when it cannot be used."""
    try:
        return project_config(start)
    except ConfigError as error:
        _say(f"lessoncheck: {error}", sys.stderr)
        return EXIT_INPUT


def _claim_files(named: Sequence[Path], config: Config) -> tuple[list[Path], bool] | int:
    """The claim files (and folders of them) a command was given, globs expanded, and whether
    an input yielded nothing (said why; the rest still run, the command exits 2); the
    configuration's claims folder when none were given; EXIT_INPUT (said why) when a path is
    missing or no input yielded anything."""
    paths = list(named) or [config.claims_dir]
    if _missing([p for p in paths if not any(c in str(p) for c in "*?[")]):
        return EXIT_INPUT
    return _collected(paths, CLAIM_FILES)


def _lesson_files(named: Sequence[Path], config: Config) -> tuple[list[Path], bool] | int:
    """The lesson files a command was given, folders walked and globs expanded
    (:func:`checkers.files.collect` with the configuration's formats, include and exclude),
    and whether an input yielded none (as :func:`_claim_files`); the configured lesson roots
    when none were given."""
    if not named and not config.roots:
        _say(
            "lessoncheck: name lesson files, folders or globs (or set lesson-roots in "
            "the project configuration)",
            sys.stderr,
        )
        return EXIT_INPUT
    if not named:
        missing = [str(root) for root in config.roots if not root.is_dir()]
        if missing:
            _say(
                f"lessoncheck: {config.path}: lesson-roots: no such folder: {', '.join(missing)}",
                sys.stderr,
            )
            return EXIT_INPUT
    return _collected(list(named) or list(config.roots), config.lesson_selection())


def _configured_inputs(
    named: Sequence[Path],
    collect: Callable[[Sequence[Path], Config], tuple[list[Path], bool] | int],
) -> tuple[Config, list[Path], bool] | int:
    """The project configuration and what ``collect`` (:func:`_claim_files` or
    :func:`_lesson_files`) makes of the named inputs under it, or the exit code of the first
    of the two that failed (said why)."""
    config = _config(Path.cwd())
    if isinstance(config, int):
        return config
    collected = collect(named, config)
    if isinstance(collected, int):
        return collected
    return (config, *collected)


def _collected(paths: list[Path], selection: Selection) -> tuple[list[Path], bool] | int:
    problems: list[str] = []
    found = collect(paths, selection, problems)
    for problem in problems:
        _say(f"lessoncheck: {problem}", sys.stderr)
    if problems and not found:
        return EXIT_INPUT
    return found, bool(problems)


def _names_lessons(path: Path, config: Config) -> bool:
    """For ``baseline``, which takes both: whether ``path`` names lessons (to scan) rather than
    claim files. A file by its suffix; a folder or a glob unless it is in the claims folder
    or (a glob) names ``.yaml``/``.yml`` files."""
    text = path.as_posix()
    if path.is_file() or path.suffix.lower() in CLAIM_SUFFIXES:
        return path.suffix.lower() in config.formats
    claims_dir = real_path(config.claims_dir)
    glob_head = Path(text.split("*")[0].split("?")[0].split("[")[0] or ".")
    return not real_path(glob_head if not path.exists() else path).is_relative_to(claims_dir)


def _missing(paths: Sequence[Path]) -> bool:
    missing = [p for p in paths if not p.exists()]
    if missing:
        _say(f"lessoncheck: no such file or folder: {', '.join(map(str, missing))}", sys.stderr)
    return bool(missing)


def _load_baseline(args: argparse.Namespace) -> Baseline | int | None:
    """The ``--baseline`` file, None without the option, or EXIT_INPUT when it is unusable."""
    if getattr(args, "baseline", None) is None:
        return None
    from checkers.baseline import load

    try:
        return load(args.baseline)
    except BaselineError as error:
        _say(f"lessoncheck: {error}", sys.stderr)
        return EXIT_INPUT


def _check(args: argparse.Namespace) -> int:
    claims = _configured_inputs(args.claims, _claim_files)
    if isinstance(claims, int):
        return claims
    config, args.claims, partial = claims
    baseline = _load_baseline(args)
    if isinstance(baseline, int):
        return baseline
    progress = for_command(sys.stderr, args.quiet, "claim files")
    try:
        findings = run_paths(list(args.claims), jobs=args.jobs, progress=progress)
    finally:
        if progress is not None:
            progress.close()
    status = _report(findings, args, config, baseline)
    return EXIT_INPUT if partial else status


def _shown(finding: Finding) -> bool:
    """Printed in full: every problem, and a statement marked wrong that holds after all (its
    author would want to know); suppressed and marked-wrong failures only count."""
    if finding.verdict == "marked_wrong":
        return finding.severity is None
    return finding.verdict not in ("pass", "suppressed")


def _report(
    checked: Sequence[Finding],
    args: argparse.Namespace,
    config: Config,
    baseline: Baseline | None = None,
    coverage: Sequence[LessonCoverage] | None = None,
) -> int:
    findings = config.apply(checked)
    strict = args.strict or config.strict
    comparison = baseline.compare(findings, str(args.baseline)) if baseline else None
    if not args.quiet:
        for finding in findings:
            if _shown(finding):
                text = format_finding(finding)
                print(text)
                if comparison is not None and comparison.is_known(finding):
                    _say(
                        f"  {'baseline':<11} known (baseline): recorded in {args.baseline}, "
                        "not failing this run"
                    )
                print()
        for line in comparison.fixed_lines() if comparison else []:
            _say(line)
    extra: dict[str, Any] = {"baseline": comparison.to_json()} if comparison else {}
    if coverage is not None:
        from checkers.extract.coverage import report_section, total

        for lesson in [] if args.quiet else coverage:
            _say(f"coverage  {lesson.line()}")
        for text in total(coverage).lines():
            _say(text)
        extra["coverage"] = report_section(coverage)
    unwritten = _write_reports(findings, args, extra or None)
    if os.environ.get("GITHUB_ACTIONS") == "true":
        from checkers.report import github

        report_dir = None if unwritten else args.report_dir
        github.emit(findings, os.environ, sys.stdout, report_dir=report_dir)
    line = summary_line(findings)
    if any(f.is_slip for f in findings) and not strict:
        line += "; slips do not fail the run (--strict to make them)"
    _say(f"{line}; {comparison.summary()}" if comparison else line)
    # A report that CI expects but cannot find is an input error, whatever the claims say.
    return EXIT_INPUT if unwritten else exit_code(findings, comparison, strict=strict)


def _write_reports(
    findings: Sequence[Finding], args: argparse.Namespace, extra: dict[str, Any] | None
) -> bool:
    """Write ``--json`` and ``--report-dir``; say why on stderr when one cannot be written (the
    message names the path) and return True then. The run's results are still printed."""
    from checkers import files
    from checkers.files import WriteError

    unwritten = False
    written: list[Path] = []
    if args.json:
        from checkers.report import json_report

        try:
            json_report.write(args.json, findings, extra)
            written.append(args.json)
        except WriteError as error:
            _say(f"lessoncheck: the JSON report was not written: {error}", sys.stderr)
            unwritten = True
    if args.report_dir:
        from checkers.report import write_reports

        # The reports' paths are relative to the repository of what the run was given, and
        # the HTML report embeds the lessons from there (not from the working folder).
        inputs = getattr(args, "claims", None) or getattr(args, "lessons", None) or [Path()]
        try:
            written += write_reports(args.report_dir, findings, files.run_root(inputs), extra=extra)
        except WriteError as error:
            _say(f"lessoncheck: the reports were not written: {error}", sys.stderr)
            unwritten = True
    if written and not args.quiet:
        from checkers.report import written_line

        _say(written_line(written))
    return unwritten


def _scan(args: argparse.Namespace) -> int:
    from checkers.scan import scan_lesson

    lessons = _configured_inputs(args.lessons, _lesson_files)
    if isinstance(lessons, int):
        return lessons
    config, args.lessons, partial = lessons
    baseline = _load_baseline(args)
    if isinstance(baseline, int):
        return baseline
    progress = for_command(sys.stderr, args.quiet, "lessons")
    coverage: list[LessonCoverage] | None = None
    try:
        if args.stats:
            from checkers.scan import scan_lesson_with_coverage

            scanned = map_each(scan_lesson_with_coverage, list(args.lessons), args.jobs, progress)
            findings = [finding for found, _ in scanned for finding in found]
            coverage = [covered for _, covered in scanned]
        else:
            findings = map_files(scan_lesson, list(args.lessons), args.jobs, progress)
    finally:
        if progress is not None:
            progress.close()
    status = _report(findings, args, config, baseline, coverage)
    return EXIT_INPUT if partial else status


def _baseline(args: argparse.Namespace) -> int:
    """Record the failures of the claims (and scanned lessons) named; report what it did."""
    config = _config(Path.cwd())
    if isinstance(config, int):
        return config
    from checkers.scan import scan_lesson

    named_lessons = [p for p in args.inputs if _names_lessons(p, config)]
    named_claims = [p for p in args.inputs if p not in named_lessons]
    claims: list[Path] = []
    lessons: list[Path] = []
    partial = False
    if named_claims or not args.inputs:
        collected = _claim_files(named_claims, config)
        if isinstance(collected, int):
            return collected
        claims, partial = collected
    if named_lessons:
        collected = _lesson_files(named_lessons, config)
        if isinstance(collected, int):
            return collected
        lessons, partial = collected[0], partial or collected[1]
    if partial:  # a baseline of part of the course would make the rest's failures "new"
        _say("lessoncheck: no baseline written: an input yielded nothing (see above)", sys.stderr)
        return EXIT_INPUT
    findings: list[Finding] = run_paths(claims) if claims else []
    for lesson in lessons:
        findings.extend(scan_lesson(lesson))
    baseline = Baseline.of(findings)
    baseline.write(args.output)
    _say(f"wrote {args.output}: {len(baseline.entries)} known failures")
    for finding in findings:
        if finding.verdict in ("stale", "error"):
            print(format_finding(finding), end="\n\n")
    comparison = baseline.compare(findings, str(args.output))
    if comparison.new:
        _say(
            f"{len(comparison.new)} stale or broken claims are not recorded: "
            "a baseline excuses wrong numbers only"
        )
    _say(f"{summary_line(findings)}; {comparison.summary()}")
    return exit_code(findings, comparison)


def _fix(args: argparse.Namespace) -> int:
    claims = _configured_inputs(args.claims, _claim_files)
    if isinstance(claims, int):
        return claims
    _, args.claims, partial = claims
    if partial:
        return EXIT_INPUT  # rewriting lessons from part of what was asked for is not asked for
    from checkers.fix import describe, plan_fix

    plan = plan_fix(list(args.claims))
    escaped = 0
    diff = ""
    if args.write:
        from checkers.files import WriteError

        try:
            plan.write()
        except WriteError as error:
            _say(f"lessoncheck: {error}", sys.stderr)
            return EXIT_INPUT
    else:
        diff = plan.diff()
        escaped = _print_diff(diff)
    # With --diff, stdout is the patch alone (pipe it to `git apply`); the account goes to stderr.
    account = sys.stdout if args.write else sys.stderr
    for line in describe(plan, written=args.write):
        _say(line, account)
    if escaped:
        _say(
            f"{escaped} diff lines hold control characters or CI commands and are shown escaped: "
            "that patch would not apply; use `lessoncheck fix --write`",
            account,
        )
    if args.write:
        return exit_code(plan.after)
    if any(f.verdict == "error" for f in plan.before):
        return EXIT_INPUT
    return EXIT_FINDINGS if diff else EXIT_OK


def _print_diff(diff: str) -> int:
    """Print a unified diff line by line through the output rule, keeping each line's end
    (``\\n`` or ``\\r\\n``, so CRLF lessons still patch); return how many lines it changed."""
    changed = 0
    for line in diff.splitlines(keepends=True):
        body = line.rstrip("\n")
        end = line[len(body) :]
        if body.endswith("\r") and end:
            body, end = body[:-1], "\r" + end
        shown = inert(body)
        changed += shown != body
        sys.stdout.write(shown + end)
    return changed


def _extract(args: argparse.Namespace) -> int:
    from checkers.scan import extract_lesson

    collected = _configured_inputs(args.lessons, _lesson_files)
    if isinstance(collected, int):
        return collected
    config, lessons, partial = collected
    claims_dir = args.output if args.output is not None else config.claims_dir
    out_of_date = False
    status = EXIT_INPUT if partial else EXIT_OK
    for lesson in lessons:
        try:
            outcome = extract_lesson(
                lesson, claims_dir, write=not args.check, roots=config.roots, base=config.root
            )
        except Exception as error:  # a bug must cost this lesson, not the others
            outcome = f"{lesson}: internal error: {type(error).__name__}: {error}"
        if isinstance(outcome, str):
            _say(f"lessoncheck: {outcome}", sys.stderr)
            status = EXIT_INPUT
            continue
        for identifier in outcome.vanished:
            _say(f"{outcome.path}: claim {identifier!r}: its quote is no longer in {lesson}")
        if outcome.changed:
            out_of_date = True
            verb = "would update" if args.check else "updated"
            _say(
                f"{verb} {outcome.path}: {len(outcome.added)} added, "
                f"{len(outcome.removed)} removed (quote gone)"
                + (f"; {outcome.note}" if outcome.note else "")
            )
    if status != EXIT_OK:
        return status
    if args.check and out_of_date:
        _say(f"{claims_dir}/ is out of date with the lessons; run `lessoncheck extract` and review")
        return EXIT_FINDINGS
    return EXIT_OK


def _kinds(args: argparse.Namespace) -> int:
    from checkers import reference
    from checkers.registry import UnknownKind, lookup

    if args.name is None:
        summaries = reference.kind_summaries()
        width = max(map(len, summaries))
        for name, summary in summaries.items():
            _say(f"{name:<{width}}  {summary}")
        _say("")
        _say("`lessoncheck kinds NAME` describes one; `lessoncheck schema` writes them all.")
        return EXIT_OK
    try:
        lookup(args.name)
    except UnknownKind as error:
        _say(f"lessoncheck: {error.message}", sys.stderr)  # echoes the name typed
        return EXIT_INPUT
    sys.stdout.write(reference.describe_kind(args.name))  # the package's own text
    return EXIT_OK


def _schema(args: argparse.Namespace) -> int:
    from checkers.files import write_atomic
    from checkers.reference import schema_text

    text = schema_text()
    if args.output is None:
        sys.stdout.write(text)
        return EXIT_OK
    try:
        write_atomic(args.output, text)
    except OSError as error:
        _say(f"lessoncheck: cannot write {args.output}: {error.strerror or error}", sys.stderr)
        return EXIT_INPUT
    _say(f"wrote {args.output}")
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``lessoncheck`` console script."""
    # A run allocates millions of short-lived objects and almost no cycles; at the default
    # threshold (700) the collector walks every live object so often that it costs a tenth of
    # a large run. Raising it here is safe: the command owns its process (memory unchanged).
    gc.set_threshold(10_000, 10, 10)
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
        if args.command == "baseline":
            return _baseline(args)
        if args.command == "fix":
            return _fix(args)
        if args.command == "kinds":
            return _kinds(args)
        if args.command == "schema":
            return _schema(args)
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # last resort: a bug must not look like findings (exit 1)
        _say(f"lessoncheck: internal error: {type(error).__name__}: {error}", sys.stderr)
        return EXIT_INPUT
    parser.error(f"unknown command {args.command}")
    return EXIT_INPUT
