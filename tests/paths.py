"""Where the tests find the repository's files."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The repository's root: README.md, results/, benchmarks/."""
