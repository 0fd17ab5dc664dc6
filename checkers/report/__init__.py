"""Writers that turn findings into what people and CI read: terminal text and report files.

Every file is written atomically (temporary file, then rename), so a reader never sees half a
report, and writers only read findings: they never recompute anything.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

__all__ = ["write_atomic", "write_reports"]

if TYPE_CHECKING:
    from checkers.runner import Finding


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that the file is either the old one or the complete new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_reports(directory: Path, findings: Sequence[Finding]) -> list[Path]:
    """Write every report format into ``directory``; return the paths written."""
    from checkers.report import json_report

    target = directory / "report.json"
    json_report.write(target, findings)
    return [target]
