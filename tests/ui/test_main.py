"""The console script: headless commands never load Qt; --screenshot renders and exits."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from sheet_app import registry
from sheet_app.io import save_character

ROOT = Path(__file__).resolve().parents[2]


def sample_file(system: str, directory: Path) -> Path:
    """The sample sheet ``system`` ships, written to a file."""
    path = directory / f"{system}-sample.json"
    save_character(registry.get(system).sample(), path)
    return path


def run(*code_or_args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *code_or_args], cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**os.environ, **(env or {})},
    )


def test_headless_commands_do_not_import_qt(tmp_path: Path) -> None:
    out = tmp_path / "new.json"
    sample = sample_file("pf2e", tmp_path)
    code = (
        "import sys\n"
        "from ui.main import main\n"
        f"assert main(['validate', {str(sample)!r}]) == 0\n"
        f"assert main(['new', '--system', 'd20srd', '-o', {str(out)!r}]) == 0\n"
        "try:\n"
        "    main(['--version'])\n"
        "except SystemExit as exc:\n"
        "    assert exc.code == 0\n"
        "loaded = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6'))]\n"
        "assert not loaded, loaded\n"
        "print('no qt')\n"
    )
    result = run("-c", code)
    assert result.returncode == 0, result.stderr
    assert "no qt" in result.stdout
    assert out.exists()


def test_validate_reports_problems_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sheet-app/character", "version": 1, "system": "runarcana",'
                   ' "abilities": {"str": 99}}')
    result = run("-m", "ui.main", "validate", str(bad))
    assert result.returncode == 2
    assert "abilities.str:" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("system", registry.known_ids())
def test_screenshot_renders_each_system(system: str, tmp_path: Path) -> None:
    png = tmp_path / f"{system}.png"
    result = run("-m", "ui.main", "--screenshot", str(png), str(sample_file(system, tmp_path)),
                 env={"QT_QPA_PLATFORM": "offscreen"})
    assert result.returncode == 0, result.stderr
    image = QImage(str(png))
    assert (image.width(), image.height()) == (1280, 800)


def test_screenshot_of_a_broken_file_fails_cleanly(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    result = run("-m", "ui.main", "--screenshot", str(tmp_path / "x.png"), str(bad),
                 env={"QT_QPA_PLATFORM": "offscreen"})
    assert result.returncode == 2
    assert "expected a JSON object" in result.stderr
    assert not (tmp_path / "x.png").exists()


def test_no_display_is_a_clear_message_not_a_crash() -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    result = subprocess.run([sys.executable, "-m", "ui.main"], env=env, capture_output=True,
                            text=True, timeout=60, cwd=ROOT)
    assert result.returncode == 2
    assert "no display" in result.stderr
    assert "Traceback" not in result.stderr
