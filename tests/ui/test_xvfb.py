"""The app on a real X server (Xvfb, xcb platform), not only the offscreen plugin."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from sheet_app import registry
from sheet_app.io import save_character

ROOT = Path(__file__).resolve().parents[2]
XVFB_RUN = shutil.which("xvfb-run")

pytestmark = [
    pytest.mark.xvfb,
    pytest.mark.skipif(
        XVFB_RUN is None and not os.environ.get("CI"),
        reason="xvfb-run is not installed (in CI it must be: this test then fails instead)",
    ),
]


def distinct_colors(image: QImage, step: int = 7) -> int:
    colors = set()
    for y in range(0, image.height(), step):
        for x in range(0, image.width(), step):
            colors.add(image.pixel(x, y))
    return len(colors)


def test_window_renders_on_a_real_x_server(tmp_path: Path) -> None:
    assert XVFB_RUN is not None, "xvfb-run is required in CI (apt install xvfb)"
    png = tmp_path / "xcb.png"
    sample = tmp_path / "sample.json"
    save_character(registry.get("runarcana").sample(), sample)
    env = {**os.environ, "QT_QPA_PLATFORM": "xcb"}
    result = subprocess.run(
        [XVFB_RUN, "-a", "-s", "-screen 0 1600x1000x24", sys.executable, "-m", "ui.main",
         "--screenshot", str(png), str(sample)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=180,
    )
    assert result.returncode == 0, result.stderr
    image = QImage(str(png))
    assert not image.isNull()
    assert (image.width(), image.height()) == (1280, 800)
    assert distinct_colors(image) > 20, "the screenshot is blank"
