"""Fixtures for the core's tests. Qt-free: nothing here imports PySide6 or ``ui``.
Plain helpers live in ``tests/helpers.py``."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest

from tests.helpers import Run

Cli = Callable[..., Run]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    """Run ``sheet_app.cli.main`` in-process; argparse's own exits count as a return code."""
    from sheet_app.cli import main

    def call(*args: str | os.PathLike[str]) -> Run:
        capsys.readouterr()
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:  # argparse: --help, usage errors
            code = exc.code if isinstance(exc.code, int) else 2
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return call
