"""Many files in worker processes: the same findings, in the same order, as a serial run.

Used by ``lessoncheck check`` (claim files) and ``lessoncheck scan`` (lessons) with ``-j``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from checkers.finding import Finding

__all__ = ["PARALLEL_MIN_BYTES", "map_each", "map_files"]

Result = TypeVar("Result")


Progress = Callable[[int, int], None]
"""Told (files done, files in all) as files finish, for a progress line."""


def map_files(
    task: Callable[[Path], list[Finding]],
    files: list[Path],
    jobs: int = 1,
    progress: Progress | None = None,
) -> list[Finding]:
    """``task(file)`` for every file, findings in file order (see :func:`map_each`)."""
    return [finding for found in map_each(task, files, jobs, progress) for finding in found]


def map_each(
    task: Callable[[Path], Result],
    files: list[Path],
    jobs: int = 1,
    progress: Progress | None = None,
) -> list[Result]:
    """``task(file)`` for every file, results in file order; ``progress`` is told how many
    files are done as they finish.

    With ``jobs`` > 1 and files worth it together (:data:`PARALLEL_MIN_BYTES`), the files are
    handled in that many worker processes; the results are those of a serial run, in the
    same order. ``task`` must be a module-level function (workers find it by name) and its
    results picklable.
    """
    tell = progress or _silent
    if jobs > 1 and len(files) > 1 and _bytes(files) >= PARALLEL_MIN_BYTES:
        return _run_parallel(task, files, jobs, tell)
    results: list[Result] = []
    for done, path in enumerate(files, start=1):
        results.append(task(path))
        tell(done, len(files))
    return results


def _silent(done: int, total: int) -> None:
    del done, total


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
    task: Callable[[Path], Result], files: list[Path], jobs: int, tell: Progress
) -> list[Result]:
    """``task`` over ``files`` in worker processes, one task per file, largest first (so no
    worker is left with a big file at the end). Files whose worker died (killed for memory,
    say) are handled again here, one by one, so the run reports every file as a serial run
    would."""
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor, as_completed

    methods = multiprocessing.get_all_start_methods()
    # fork starts a worker in milliseconds with every module already imported; elsewhere
    # (macOS, Windows) the platform's default start method.
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    results: dict[Path, Result] = {}
    order = sorted(files, key=_size, reverse=True)
    try:
        with ProcessPoolExecutor(max_workers=min(jobs, len(files)), mp_context=context) as pool:
            futures: dict[Future[Result], Path] = {pool.submit(task, path): path for path in order}
            for future in as_completed(futures):
                try:
                    results[futures[future]] = future.result()
                except Exception:  # a dead worker: handle that file again below
                    continue
                tell(len(results), len(files))
    except Exception:  # the pool itself could not start (no /dev/shm, process limits)
        pass
    ordered: list[Result] = []
    redone = len(results)
    for path in files:
        if path in results:
            ordered.append(results[path])
            continue
        ordered.append(task(path))
        redone += 1
        tell(redone, len(files))
    return ordered
