"""Files the user names (`export --out`, `import --out`, `new --deck`) are written safely.

No special file is ever replaced (a device node made with mknod in a temporary folder, never
the system's own), a symbolic link is refused rather than replaced or followed, an existing
file needs --force, and a failed write leaves the old file and no temporary file behind.
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import stat
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from quizapp.authoring.output_file import (
    OutputPathError,
    OutputWriteError,
    check_output,
    write_output,
)
from quizapp.bank import load_file
from tests.authoring.helpers import cli

DATA = Path(__file__).parent / "data"
EVERY_TYPE = DATA / "every_type.yaml"
CSV_TEXT = (
    "id,type,prompt,explanation,difficulty,tags,back\ncard-1,flashcard,Front,Why,easy,t,Back\n"
)
PRECIOUS = b"precious\n"


def make_special(kind: str, path: Path) -> None:
    """A non-regular file of `kind` at `path`."""
    if kind == "device":
        try:  # the numbers of /dev/full: writing to it could only fail
            os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 7))
        except PermissionError:
            pytest.skip("making a device node needs root (CAP_MKNOD)")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "socket":
        # A relative name: AF_UNIX paths are limited to ~100 bytes, tmp_path can be longer.
        here = Path.cwd()
        os.chdir(path.parent)
        try:
            with socket.socket(socket.AF_UNIX) as sock:
                sock.bind(path.name)
        finally:
            os.chdir(here)
    else:
        raise AssertionError(kind)


def identity(path: Path) -> tuple[int, int, int]:
    """What must not change about a file that was refused: its kind, inode and device."""
    info = os.lstat(path)
    return info.st_mode, info.st_ino, info.st_rdev


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    """(input folder with a good CSV, empty output folder)."""
    source, out = tmp_path / "in", tmp_path / "out"
    source.mkdir()
    out.mkdir()
    (source / "deck.csv").write_text(CSV_TEXT, encoding="utf-8")
    return source, out


COMMANDS: dict[str, Callable[[Path, Path], list[str]]] = {
    "export-csv": lambda src, out: [
        "export",
        "--format",
        "csv",
        str(EVERY_TYPE),
        "--out",
        str(out),
    ],
    "export-json": lambda src, out: [
        "export",
        "--format",
        "json",
        str(EVERY_TYPE),
        "--out",
        str(out),
    ],
    "export-anki": lambda src, out: [
        *("export", "--format", "anki", "--no-eval", str(EVERY_TYPE), "--out", str(out)),
    ],
    "import": lambda src, out: [
        *("import", str(src / "deck.csv"), "--no-default-bank", "--out", str(out)),
    ],
}


EVERY_COMMAND = pytest.mark.parametrize("command", list(COMMANDS))
WITH_AND_WITHOUT_FORCE = pytest.mark.parametrize("force", [[], ["--force"]], ids=["plain", "force"])


def run(capsys, command: str, source: Path, out: Path, *extra: str) -> tuple[int, str, str]:
    return cli(capsys, *COMMANDS[command](source, out), *extra)


def assert_one_line_error(stderr: str, command: str, path: Path, cause: str) -> None:
    name = command.split("-")[0]
    assert stderr.startswith(f"quizapp {name}: error: --out {path}: "), stderr
    assert cause in stderr and stderr.count("\n") == 1, stderr
    assert "Traceback" not in stderr


# -- special files ----------------------------------------------------------------------------

SPECIAL = {
    "device": "is a character device",
    "fifo": "is a FIFO",
    "folder": "is a folder",
    "socket": "is a socket",
}


@WITH_AND_WITHOUT_FORCE
@pytest.mark.parametrize("kind", list(SPECIAL))
@EVERY_COMMAND
def test_a_special_file_is_refused_even_with_force(
    capsys, folders: tuple[Path, Path], command: str, kind: str, force: list[str]
) -> None:
    source, out_dir = folders
    target = out_dir / "target"
    make_special(kind, target)
    before = identity(target), sorted(os.listdir(out_dir))
    code, stdout, stderr = run(capsys, command, source, target, *force)
    assert code == 2 and stdout == ""
    assert_one_line_error(stderr, command, target, SPECIAL[kind])
    assert (identity(target), sorted(os.listdir(out_dir))) == before


# -- symbolic links ---------------------------------------------------------------------------


@WITH_AND_WITHOUT_FORCE
@pytest.mark.parametrize("live", [False, True], ids=["dangling", "live"])
@EVERY_COMMAND
def test_a_symlink_at_out_is_refused_not_replaced_or_followed(
    capsys, folders: tuple[Path, Path], command: str, live: bool, force: list[str]
) -> None:
    source, out_dir = folders
    pointed = out_dir / "pointed-to.txt"
    if live:
        pointed.write_bytes(PRECIOUS)
    link = out_dir / "link"
    link.symlink_to(pointed)
    before = sorted(os.listdir(out_dir))
    code, _, stderr = run(capsys, command, source, link, *force)
    assert code == 2
    assert_one_line_error(stderr, command, link, "is a symbolic link")
    assert link.is_symlink() and os.readlink(link) == str(pointed)
    assert sorted(os.listdir(out_dir)) == before  # a dangling link's target was not created
    if live:
        assert pointed.read_bytes() == PRECIOUS


# -- existing regular files -------------------------------------------------------------------


@EVERY_COMMAND
def test_an_existing_file_is_replaced_only_with_force(
    capsys, folders: tuple[Path, Path], command: str
) -> None:
    source, out_dir = folders
    target = out_dir / "existing"
    target.write_bytes(PRECIOUS)
    target.chmod(0o640)
    code, _, stderr = run(capsys, command, source, target)
    assert code == 2
    assert_one_line_error(stderr, command, target, "exists; add --force")
    assert target.read_bytes() == PRECIOUS

    code, _, stderr = run(capsys, command, source, target, "--force")
    assert code == 0, stderr
    assert target.read_bytes() != PRECIOUS and target.stat().st_size > 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the replaced file's permissions
    assert os.listdir(out_dir) == ["existing"]  # no temporary file left


@EVERY_COMMAND
def test_a_new_file_is_written_with_the_umask_mode(
    capsys, folders: tuple[Path, Path], command: str
) -> None:
    source, out_dir = folders
    target = out_dir / "new"
    code, _, stderr = run(capsys, command, source, target)
    assert code == 0, stderr
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    assert os.listdir(out_dir) == ["new"]


def test_a_missing_folder_is_named(capsys, folders: tuple[Path, Path]) -> None:
    source, out_dir = folders
    target = out_dir / "no" / "such.csv"
    code, _, stderr = run(capsys, "export-csv", source, target)
    assert code == 2
    assert_one_line_error(stderr, "export", target, f"no such folder {target.parent}")


def test_the_help_says_symlinks_are_not_followed(capsys) -> None:
    for command in ("export", "import"):
        code, stdout, _ = cli(capsys, command, "--help")
        assert code == 0
        assert "links are not followed" in stdout
        assert "--force" in stdout


# -- failed writes ----------------------------------------------------------------------------


def full_disk(handle) -> None:
    handle.write(b"half a fi")
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("existing", [False, True], ids=["new", "replacing"])
def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(
    tmp_path: Path, existing: bool
) -> None:
    target = tmp_path / "out.csv"
    if existing:
        target.write_bytes(PRECIOUS)
    with pytest.raises(OutputWriteError) as caught:
        write_output(target, full_disk, replace=True)
    assert str(caught.value) == f"{target}: cannot write: No space left on device"
    assert os.listdir(tmp_path) == (["out.csv"] if existing else [])
    if existing:
        assert target.read_bytes() == PRECIOUS


def test_a_veto_before_the_rename_leaves_the_file_untouched(tmp_path: Path) -> None:
    target = tmp_path / "deck.yaml"
    target.write_bytes(PRECIOUS)
    seen: list[bytes] = []

    def veto(written: Path) -> None:
        seen.append(written.read_bytes())
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        write_output(target, b"new text", replace=True, before_replace=veto)
    assert seen == [b"new text"]  # the check saw the complete, synced content
    assert target.read_bytes() == PRECIOUS and os.listdir(tmp_path) == ["deck.yaml"]


def test_a_file_that_appears_meanwhile_is_not_replaced_without_force(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"

    def someone_else_writes(_: Path) -> None:
        target.write_bytes(PRECIOUS)

    with pytest.raises(OutputPathError, match="exists; add --force"):
        write_output(target, b"mine", replace=False, before_replace=someone_else_writes)
    assert target.read_bytes() == PRECIOUS and os.listdir(tmp_path) == ["out.csv"]


def test_a_link_that_appears_meanwhile_is_not_replaced_even_with_force(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    target.write_bytes(PRECIOUS)

    def swap_in_a_link(_: Path) -> None:
        target.unlink()
        target.symlink_to(tmp_path / "elsewhere")

    with pytest.raises(OutputPathError, match="symbolic link"):
        write_output(target, b"mine", replace=True, before_replace=swap_in_a_link)
    assert target.is_symlink() and sorted(os.listdir(tmp_path)) == ["out.csv"]


def test_check_output_returns_the_stat_of_a_file_it_may_replace(tmp_path: Path) -> None:
    target = tmp_path / "x"
    assert check_output(target, replace=False) is None
    target.write_bytes(PRECIOUS)
    info = check_output(target, replace=True)
    assert info is not None and info.st_size == len(PRECIOUS)


@pytest.fixture
def small_filesystem(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs (root only): a real full disk."""
    mount = tmp_path / "small"
    mount.mkdir()
    try:
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
            capture_output=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        pytest.skip("cannot run mount")
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True, timeout=30, check=True)


@pytest.mark.parametrize("existing", [False, True], ids=["new", "replacing"])
def test_a_full_disk_is_one_line_exit_1_and_the_old_file_stays(
    capsys, small_filesystem: Path, existing: bool
) -> None:
    target = small_filesystem / "bank.json"
    if existing:
        target.write_bytes(PRECIOUS)
    # The bundled bank as JSON is well over 64 KiB.
    code, stdout, stderr = cli(
        capsys, "export", "--format", "json", "--out", str(target), "--force"
    )
    assert code == 1 and stdout == ""
    assert_one_line_error(stderr, "export", target, "cannot write: No space left on device")
    assert os.listdir(small_filesystem) == (["bank.json"] if existing else [])
    if existing:
        assert target.read_bytes() == PRECIOUS


# -- quizapp new --deck -----------------------------------------------------------------------

DECK = (
    "deck: {id: d, title: T, topic: t, domain: D, exam_weight: 1}\nquestions:\n"
    "  - id: existing\n    type: flashcard\n    prompt: P\n    explanation: E\n"
    "    difficulty: easy\n    tags: [t]\n    back: B\n"
)


@pytest.mark.parametrize("kind", ["device", "folder", "socket"])
def test_new_refuses_a_deck_that_is_a_special_file(capsys, tmp_path: Path, kind: str) -> None:
    target = tmp_path / "deck.yaml"
    make_special(kind, target)
    before = identity(target), sorted(os.listdir(tmp_path))
    code, _, stderr = cli(capsys, "new", "--type", "flashcard", "--deck", str(target))
    assert code == 2 and stderr.count("\n") == 1, stderr
    assert f"{target}: {SPECIAL[kind]}" in stderr
    assert (identity(target), sorted(os.listdir(tmp_path))) == before


def test_new_refuses_a_fifo_without_waiting_on_it(run_cli, tmp_path: Path) -> None:
    fifo = tmp_path / "deck.yaml"
    os.mkfifo(fifo)
    # A subprocess with a deadline: reading a FIFO nobody writes to would block for ever.
    done = run_cli("new", "--type", "flashcard", "--deck", str(fifo), timeout=60)
    assert done.returncode == 2 and "is a FIFO" in done.stderr, done.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_new_follows_a_symlinked_deck_and_keeps_the_link(capsys, tmp_path: Path) -> None:
    real = tmp_path / "real.yaml"
    real.write_text(DECK, encoding="utf-8")
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    code, _, stderr = cli(
        capsys, "new", "--type", "flashcard", "--deck", str(link), "--no-default-bank"
    )
    assert code == 0, stderr
    assert link.is_symlink() and os.readlink(link) == str(real)
    deck, _ = load_file(real)
    assert deck is not None and [q.id for q in deck.questions] == ["existing", "t-new-flashcard-1"]
    assert sorted(os.listdir(tmp_path)) == ["link.yaml", "real.yaml"]


def test_new_on_a_full_disk_is_one_line_exit_1_and_the_deck_stays(
    capsys, small_filesystem: Path
) -> None:
    deck = small_filesystem / "deck.yaml"
    deck.write_text(DECK, encoding="utf-8")
    filler = small_filesystem / "filler"
    with filler.open("wb", buffering=0) as handle, contextlib.suppress(OSError):
        while True:  # take every free block
            handle.write(b"\0" * 4096)
    code, _, stderr = cli(
        capsys, "new", "--type", "flashcard", "--deck", str(deck), "--no-default-bank"
    )
    assert code == 1 and stderr.count("\n") == 1, stderr
    assert f"--deck {deck}: cannot write: No space left on device" in stderr
    assert deck.read_text(encoding="utf-8") == DECK
    assert sorted(os.listdir(small_filesystem)) == ["deck.yaml", "filler"]
