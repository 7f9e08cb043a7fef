"""The documented tmux script, run as part of the suite when tmux is installed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

SCRIPT = Path(__file__).with_name("drive_session.sh")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_the_real_app_in_a_real_terminal() -> None:
    env = {**os.environ, "QUIZAPP": f"{sys.executable} -m quizapp"}
    # From the repository root, so `-m quizapp` runs this checkout. Every step waits on the
    # screen with its own deadline; this one only stops a hung tmux.
    result = subprocess.run(
        ["bash", str(SCRIPT)], capture_output=True, text=True, timeout=600, env=env, cwd=REPO
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "drive_session: ok" in result.stdout
