"""Benchmarks of lessoncheck against its floors (see ``benchmarks/run.py``)."""
