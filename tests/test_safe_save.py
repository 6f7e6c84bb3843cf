"""The one writer behind every save (window, autosave, ``-o``): `write_text_atomic`.

Symlinks are written through, permission bits kept, anything but a regular file refused,
the previous version kept as ``NAME.bak`` on request, the folder fsynced, stale temporaries
of killed saves cleaned up, and nothing written that the loader would refuse."""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import sheet_app.io as io_module
from sheet_app import registry
from sheet_app.io import (
    MAX_FILE_BYTES,
    SaveRefused,
    character_json,
    dumps,
    is_read_only,
    load_character,
    save_character,
    write_text_atomic,
)
from sheet_app.model import CharacterBase
from tests.helpers import SAMPLES, Run, run_subprocess, snapshot

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX permissions and file types")


def sample_text(system: str = "runarcana", name: str = "") -> str:
    data = json.loads(SAMPLES[system].read_text())
    if name:
        data["name"] = name
    return dumps(data)


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.fixture
def umask() -> Iterator[Callable[[int], None]]:
    old = os.umask(0o022)
    os.umask(old)

    def set_umask(mask: int) -> None:
        os.umask(mask)

    yield set_umask
    os.umask(old)


# --- symlinks -------------------------------------------------------------------------------
@posix_only
@pytest.mark.parametrize("relative", [True, False], ids=["relative", "absolute"])
def test_a_symlink_is_written_through_and_stays_a_link(tmp_path: Path, relative: bool) -> None:
    real = tmp_path / "real"
    real.mkdir()
    target = real / "lux.json"
    target.write_text(sample_text(name="Old"))
    link = tmp_path / "link.json"
    link.symlink_to(Path("real/lux.json") if relative else target)
    character = load_character(link)
    character.name = "New"
    save_character(character, link)
    assert link.is_symlink() and os.readlink(link) == str(Path("real/lux.json") if relative
                                                          else target)
    assert load_character(target).name == "New"
    assert names(tmp_path) == ["link.json", "real"] and names(real) == ["lux.json"]


@posix_only
def test_a_chain_of_links_and_a_dangling_link(tmp_path: Path) -> None:
    target = tmp_path / "lux.json"
    target.write_text(sample_text(name="Old"))
    (tmp_path / "b.json").symlink_to("lux.json")
    (tmp_path / "a.json").symlink_to("b.json")
    write_text_atomic(tmp_path / "a.json", sample_text(name="Chained"))
    assert load_character(target).name == "Chained"
    assert (tmp_path / "a.json").is_symlink() and (tmp_path / "b.json").is_symlink()
    dangling = tmp_path / "new-link.json"
    dangling.symlink_to("created.json")
    write_text_atomic(dangling, sample_text(name="Fresh"))
    assert dangling.is_symlink() and load_character(tmp_path / "created.json").name == "Fresh"


@posix_only
def test_backup_goes_beside_the_real_file(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "lux.json").write_text(sample_text(name="Old"))
    (tmp_path / "link.json").symlink_to(real / "lux.json")
    write_text_atomic(tmp_path / "link.json", sample_text(name="New"), backup=True)
    assert names(real) == ["lux.json", "lux.json.bak"]
    assert load_character(real / "lux.json.bak").name == "Old"


# --- permissions ----------------------------------------------------------------------------
@posix_only
@pytest.mark.parametrize("mode", [0o644, 0o664, 0o600, 0o640, 0o444])
def test_the_mode_is_kept(tmp_path: Path, mode: int) -> None:
    path = tmp_path / "lux.json"
    path.write_text(sample_text())
    path.chmod(mode)
    write_text_atomic(path, sample_text(name="Saved"))
    assert stat.S_IMODE(path.stat().st_mode) == mode
    assert load_character(path).name == "Saved"
    assert names(tmp_path) == ["lux.json"]


@posix_only
@pytest.mark.parametrize("mask", [0o022, 0o002, 0o077])
def test_a_new_file_gets_the_umask_default(tmp_path: Path, umask: Callable[[int], None],
                                           mask: int) -> None:
    umask(mask)
    path = tmp_path / "new.json"
    save_character(registry.get("pf2e").new_character("Fresh"), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask


@posix_only
def test_is_read_only(tmp_path: Path) -> None:
    path = tmp_path / "lux.json"
    assert not is_read_only(path)  # missing: nothing to ask about
    path.write_text(sample_text())
    path.chmod(0o644)
    assert not is_read_only(path)
    path.chmod(0o444)
    assert is_read_only(path)  # even for root, who could write it
    link = tmp_path / "link.json"
    link.symlink_to(path)
    assert is_read_only(link)
    assert not is_read_only(tmp_path)  # a folder is not a file to overwrite


# --- not a regular file ---------------------------------------------------------------------
def _refused(run: Run, fragment: str) -> None:
    assert run.code == 2 and run.out == "" and "Traceback" not in run.err
    assert len(run.err_lines) == 1 and fragment in run.err_lines[0], run.err


@posix_only
@pytest.mark.skipif(not Path("/dev/null").is_char_device(), reason="needs /dev/null")
def test_dev_null_is_refused_as_output_and_left_a_device(cli: Callable[..., Run]) -> None:
    before = os.stat("/dev/null")
    _refused(cli("export", SAMPLES["pf2e"], "-o", "/dev/null"),
             "/dev/null: is a device, not a regular file; not replaced")
    _refused(cli("new", "--system", "pf2e", "--force", "-o", "/dev/null"), "is a device")
    with pytest.raises(SaveRefused, match="is a device"):
        save_character(registry.get("pf2e").new_character(), "/dev/null")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
    assert stat.S_IMODE(after.st_mode) == stat.S_IMODE(before.st_mode)
    assert not [p for p in os.listdir("/dev") if p.startswith(".null.")]


@posix_only
def test_a_device_node_is_refused(cli: Callable[..., Run], tmp_path: Path) -> None:
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, AttributeError):
        pytest.skip("creating a device node needs root")
    _refused(cli("export", SAMPLES["d20srd"], "-o", node), "is a device")
    assert node.is_char_device() and names(tmp_path) == ["null"]
    link = tmp_path / "to-null.json"
    link.symlink_to(node)
    _refused(cli("export", SAMPLES["d20srd"], "-o", link), "is a device")
    assert link.is_symlink() and node.is_char_device()


@posix_only
def test_a_fifo_and_a_folder_are_refused(cli: Callable[..., Run], tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    _refused(cli("export", SAMPLES["pf2e"], "-o", fifo), "is a named pipe (FIFO)")
    _refused(cli("new", "--system", "pf2e", "-o", fifo), "exists; use --force")
    _refused(cli("new", "--system", "pf2e", "--force", "-o", fifo), "named pipe")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    folder = tmp_path / "folder.json"
    folder.mkdir()
    _refused(cli("export", SAMPLES["pf2e"], "-o", folder), "is a folder, not a regular file")
    assert folder.is_dir() and names(tmp_path) == ["folder.json", "pipe.json"]


# --- backup ---------------------------------------------------------------------------------
def test_backup_keeps_the_previous_version(tmp_path: Path) -> None:
    path = tmp_path / "lux.json"
    write_text_atomic(path, sample_text(name="First"), backup=True)
    assert names(tmp_path) == ["lux.json"]  # nothing to back up yet
    write_text_atomic(path, sample_text(name="Second"), backup=True)
    assert load_character(tmp_path / "lux.json.bak").name == "First"
    write_text_atomic(path, sample_text(name="Third"), backup=True)
    assert load_character(tmp_path / "lux.json.bak").name == "Second"
    assert load_character(path).name == "Third"
    write_text_atomic(path, sample_text(name="Autosaved"))  # no backup asked: .bak stays
    assert load_character(tmp_path / "lux.json.bak").name == "Second"
    assert names(tmp_path) == ["lux.json", "lux.json.bak"]


@posix_only
def test_backup_is_the_old_file_not_a_link_to_the_new(tmp_path: Path) -> None:
    path = tmp_path / "lux.json"
    path.write_text(sample_text(name="Old"))
    path.chmod(0o640)
    save_character(load_character(SAMPLES["pf2e"]), path, backup=True)
    backup = tmp_path / "lux.json.bak"
    assert load_character(backup).name == "Old" and load_character(path).system == "pf2e"
    assert stat.S_IMODE(backup.stat().st_mode) == 0o640
    assert not os.path.samefile(path, backup)


def test_a_backup_that_cannot_be_made_does_not_stop_the_save(tmp_path: Path) -> None:
    path = tmp_path / "lux.json"
    path.write_text(sample_text(name="Old"))
    (tmp_path / "lux.json.bak").mkdir()  # in the way
    write_text_atomic(path, sample_text(name="New"), backup=True)
    assert load_character(path).name == "New"
    assert names(tmp_path) == ["lux.json", "lux.json.bak"]


# --- temporaries ----------------------------------------------------------------------------
def _age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_stale_temporaries_are_cleaned_up_on_the_next_save(tmp_path: Path) -> None:
    path = tmp_path / "lux.json"
    path.write_text(sample_text())
    stale = [tmp_path / ".lux.json.k3j_9x0q.tmp", tmp_path / ".other.json.abcdefgh.tmp"]
    young = tmp_path / ".lux.json.zzzzzzzz.tmp"  # perhaps another save, still running
    theirs = [tmp_path / ".notes.txt.abcdefgh.tmp",  # not a sheet, not this file
              tmp_path / ".lux.json.short.tmp",  # not our pattern
              tmp_path / "lux.json.abcdefgh.tmp",  # not hidden
              tmp_path / ".lux.json.ABCDEFGH.tmp"]  # not our alphabet
    for p in [*stale, young, *theirs]:
        p.write_bytes(b"half a sheet")
        _age(p, 0 if p == young else 3600)
    folder_like = tmp_path / ".x.json.abcdefgh.tmp"
    folder_like.mkdir()
    _age(folder_like, 3600)
    save_character(load_character(path), path)
    left = names(tmp_path)
    assert not [p for p in stale if p.name in left]
    assert all(p.name in left for p in [young, *theirs, folder_like])
    assert "lux.json" in left


def test_a_failed_save_leaves_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "lux.json"
    path.write_text(sample_text(name="Old"))
    before = snapshot(path)

    def full_disk(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OSError, match="No space"):
        write_text_atomic(path, sample_text(name="New"), backup=True)
    monkeypatch.undo()
    assert snapshot(path) == before
    assert names(tmp_path) == ["lux.json"]


# --- durability -----------------------------------------------------------------------------
@posix_only
def test_the_file_and_then_its_folder_are_fsynced(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append("folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    write_text_atomic(tmp_path / "lux.json", sample_text())
    assert synced == ["file", "folder"]


# --- never write what would be refused ------------------------------------------------------
def test_a_text_over_the_size_limit_is_not_written(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "lux.json"
    path.write_text(sample_text(name="Old"))
    before = snapshot(path)
    monkeypatch.setattr(io_module, "MAX_FILE_BYTES", 1000)
    with pytest.raises(SaveRefused, match="can't be opened again; not saved") as info:
        write_text_atomic(path, sample_text(name="New"))
    assert info.value.strerror == str(info.value) and info.value.filename == str(path)
    assert snapshot(path) == before and names(tmp_path) == ["lux.json"]


def test_too_many_values_are_not_written(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "lux.json"
    monkeypatch.setattr(io_module, "MAX_VALUES", 500)
    data = json.loads(sample_text())
    data["x_big"] = list(range(1000))
    with pytest.raises(SaveRefused, match=r"could not be opened again \(more than 500 values\)"):
        write_text_atomic(path, dumps(data))
    assert not path.exists() and names(tmp_path) == []


def test_text_that_is_not_unicode_is_not_written(tmp_path: Path) -> None:
    with pytest.raises(SaveRefused, match="not valid Unicode"):
        write_text_atomic(tmp_path / "x.json", '{"name": "\udc80"}')
    assert names(tmp_path) == []


def test_a_non_finite_number_is_refused_by_dumps() -> None:
    with pytest.raises(SaveRefused, match="cannot be written as JSON"):
        dumps({"x": float("inf")})


def test_a_huge_sheet_is_written_compactly_and_loads_back(tmp_path: Path) -> None:
    """The issue's case: an unknown key with a lot in it. Indented, it would have grown past
    the limit; the app writes it so that it opens again."""
    data = json.loads(sample_text())
    deep: object = [0] * 1000
    for _ in range(38):
        deep = [deep]
    data["x_numbers"] = [deep] * 300  # 300,000 zeros 40 levels deep: 0.6 MB as it is,
    path = tmp_path / "big.json"  # over 20 MB with two spaces of indent a level
    character = load_character_from(data, tmp_path)
    save_character(character, path)
    text = path.read_text()
    assert len(text.encode()) < MAX_FILE_BYTES and "\n" not in text.rstrip("\n")
    assert load_character(path) == character
    small = tmp_path / "small.json"
    save_character(load_character(SAMPLES["pf2e"]), small)
    assert '\n  "name"' in small.read_text()  # a normal sheet stays indented, for people


def load_character_from(data: dict[str, object], folder: Path) -> CharacterBase:
    path = folder / "source.json"
    path.write_text(json.dumps(data))
    character = load_character(path)
    path.unlink()
    return character


def test_every_save_goes_through_the_writer(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch,
                                            cli: Callable[..., Run]) -> None:
    calls: list[tuple[str, bool]] = []
    real = io_module.write_text_atomic

    def spy(path: str | os.PathLike[str], text: str, *, backup: bool = False) -> None:
        calls.append((str(path), backup))
        real(path, text, backup=backup)

    monkeypatch.setattr(io_module, "write_text_atomic", spy)
    import sheet_app.cli as cli_module

    monkeypatch.setattr(cli_module, "write_text_atomic", spy)
    save_character(registry.get("pf2e").new_character(), tmp_path / "a.json", backup=True)
    assert cli("export", SAMPLES["pf2e"], "-o", tmp_path / "b.json").code == 0
    assert cli("new", "--system", "dnd5e", "-o", tmp_path / "c.json").code == 0
    assert calls == [(str(tmp_path / "a.json"), True), (str(tmp_path / "b.json"), False),
                     (str(tmp_path / "c.json"), False)]


def test_export_round_trip_keeps_the_document(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    run = run_subprocess("export", SAMPLES["dnd5e"], "-o", out)
    assert run.code == 0 and run.err == ""
    assert json.loads(out.read_text()) == character_json(load_character(SAMPLES["dnd5e"]))
