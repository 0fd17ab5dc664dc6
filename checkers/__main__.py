"""``python -m checkers`` runs the ``lessoncheck`` command line."""

from __future__ import annotations

import sys

from checkers.cli import main

sys.exit(main())
