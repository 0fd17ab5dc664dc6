"""Many files in worker processes: the same findings, in the same order, as a serial run.

Used by ``lessoncheck check`` (claim files) and ``lessoncheck scan`` (lessons) with ``-j``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from checkers.finding import Finding

__all__ = ["PARALLEL_MIN_BYTES", "map_files"]


def map_files(
    task: Callable[[Path], list[Finding]], files: list[Path], jobs: int = 1
) -> list[Finding]:
    """``task(file)`` for every file, findings in file order.

    With ``jobs`` > 1 and files worth it together (:data:`PARALLEL_MIN_BYTES`), the files are
    handled in that many worker processes; the findings are those of a serial run, in the
    same order. ``task`` must be a module-level function (workers find it by name).
    """
    if jobs > 1 and len(files) > 1 and _bytes(files) >= PARALLEL_MIN_BYTES:
        return _run_parallel(task, files, jobs)
    findings: list[Finding] = []
    for path in files:
        findings.extend(task(path))
    return findings


PARALLEL_MIN_BYTES = 100_000
"""Files smaller than this together (about 400 claims, or a few long lessons) are handled in
this process: starting workers and sending findings back costs more than it saves."""


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:  # reported when the file is loaded
        return 0


def _bytes(files: list[Path]) -> int:
    return sum(_size(path) for path in files)


def _run_parallel(
    task: Callable[[Path], list[Finding]], files: list[Path], jobs: int
) -> list[Finding]:
    """``task`` over ``files`` in worker processes, one task per file, largest first (so no
    worker is left with a big file at the end). Files whose worker died (killed for memory,
    say) are handled again here, one by one, so the run reports every file as a serial run
    would."""
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    # fork starts a worker in milliseconds with every module already imported; elsewhere
    # (macOS, Windows) the platform's default start method.
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    results: dict[Path, list[Finding]] = {}
    order = sorted(files, key=_size, reverse=True)
    try:
        with ProcessPoolExecutor(max_workers=min(jobs, len(files)), mp_context=context) as pool:
            futures: list[tuple[Path, Future[list[Finding]]]] = [
                (path, pool.submit(task, path)) for path in order
            ]
            for path, future in futures:
                try:
                    results[path] = future.result()
                except Exception:  # a dead worker: handle that file again below
                    continue
    except Exception:  # the pool itself could not start (no /dev/shm, process limits)
        pass
    findings: list[Finding] = []
    for path in files:
        found = results.get(path)
        findings.extend(found if found is not None else task(path))
    return findings
