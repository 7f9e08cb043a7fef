"""A throwaway PostgreSQL cluster for the tests, started from the server binaries on the machine.

PostgreSQL refuses to run as root, and CI here runs as root: then initdb and pg_ctl run as the
`postgres` system user (`runuser -u postgres --`) on a temporary folder it owns. The server
listens on a free loopback port only (no Unix socket), with trust authentication for
127.0.0.1 (or, with `password=`, scram-sha-256 password authentication for every role, as a
class's server has it), and fsync off: a test cluster, thrown away at the end. `durable=True` keeps
PostgreSQL's own defaults (fsync, synchronous commit, full page writes) for the store benchmark
(bench/bench_store.py), which compares commits that really reach the disk, and for the outage
tests, whose acknowledged commits must survive `Server.stop_immediately()`.

`QUIZAPP_PG_BIN` names the binaries' folder; otherwise the newest /usr/lib/postgresql/*/bin.
Without them the PostgreSQL tests skip with one line, except under CI=true, where they fail.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

READY_TIMEOUT_S = 60
# The class's group roles in the tests (quizapp/srs/store/postgres/setup.py grants to them): a student's
# role is `CREATE ROLE name LOGIN IN ROLE STUDENTS_GROUP`.
STUDENTS_GROUP = "quizapp_test_students"
INSTRUCTORS_GROUP = "quizapp_test_instructors"


@dataclass(frozen=True)
class Server:
    bin: Path
    data: Path
    port: int
    user: str  # the superuser: the instructor in the tests
    log: Path | None = None
    durable: bool = False  # fsync and synchronous commits as a real server (bench, crash tests)
    password: str | None = None  # the superuser's, where the cluster asks for passwords

    def url(
        self,
        database: str = "postgres",
        user: str | None = None,
        password: str | None = None,
        **options: str,
    ) -> str:
        """A URL for `user` (the superuser by default, with its password if it has one)."""
        secret = password if user else password or self.password
        userinfo = (user or self.user) + (f":{quote(secret, safe='')}" if secret else "")
        query = "&".join(f"{k}={v}" for k, v in options.items())
        return f"postgresql://{userinfo}@127.0.0.1:{self.port}/{database}" + (
            f"?{query}" if query else ""
        )

    def pg_ctl(self, *args: str) -> subprocess.CompletedProcess[str]:
        return _run(self.bin / "pg_ctl", "-D", str(self.data), *args)

    def start(self) -> None:
        """Start (again) on the same data folder and port, and wait until it takes connections."""
        settings = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories=''"
            " -c max_connections=200"
        )
        if not self.durable:
            settings += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        log = ["-l", str(self.log)] if self.log else []
        started = self.pg_ctl("start", "-w", "-t", str(READY_TIMEOUT_S), "-o", settings, *log)
        if started.returncode:
            tail = self.log.read_text(errors="replace")[-2000:] if self.log else ""
            raise RuntimeError(f"pg_ctl start failed: {started.stderr.strip()} {tail}")
        wait_until_ready(self)

    def stop_immediately(self) -> None:
        """`pg_ctl stop -m immediate`: the server goes away at once, as in a crash (its
        connections are cut without a goodbye; committed work survives in the WAL)."""
        stopped = self.pg_ctl("stop", "-m", "immediate", "-w")
        if stopped.returncode:
            raise RuntimeError(f"pg_ctl stop failed: {stopped.stderr.strip()}")


def server_binaries() -> Path | None:
    named = os.environ.get("QUIZAPP_PG_BIN")
    candidates = [named] if named else sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_major)
    for folder in reversed(candidates):
        if folder and (Path(folder) / "pg_ctl").is_file() and (Path(folder) / "initdb").is_file():
            return Path(folder)
    return None


def _major(folder: str) -> int:
    name = Path(folder).parent.name
    return int(name) if name.isdigit() else 0


def _as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _run(*command: str | Path) -> subprocess.CompletedProcess[str]:
    argv = [str(part) for part in command]
    if _as_root():
        argv = ["runuser", "-u", "postgres", "--", *argv]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def running_server(
    binaries: Path, *, durable: bool = False, password: str | None = None
) -> Iterator[Server]:
    """Start a fresh cluster; stop it and remove its folder at the end. `password`: every
    role signs in with a password (scram-sha-256), the superuser with this one."""
    folder = Path(tempfile.mkdtemp(prefix="quizapp-pg-"))
    data = folder / "data"
    if _as_root():
        shutil.chown(folder, "postgres", "postgres")
    user = "postgres" if _as_root() else os.environ.get("USER", "postgres")
    authentication = ["--auth=trust"]
    if password is not None:
        password_file = folder / "superuser-password"
        password_file.write_text(password + "\n")
        if _as_root():
            shutil.chown(password_file, "postgres", "postgres")
        authentication = ["--auth=scram-sha-256", f"--pwfile={password_file}"]
    done = _run(
        binaries / "initdb", "-D", data, "-U", user, *authentication, "-E", "UTF8", "--no-sync"
    )
    if done.returncode:
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"initdb failed: {done.stderr.strip()}")
    server = Server(binaries, data, _free_port(), user, folder / "server.log", durable, password)
    try:
        server.start()
        yield server
    finally:
        server.pg_ctl("stop", "-m", "fast", "-w")
        shutil.rmtree(folder, ignore_errors=True)


def wait_until_ready(server: Server, timeout: float = READY_TIMEOUT_S) -> None:
    """Poll pg_isready until the server takes connections (no fixed sleep)."""
    deadline = time.monotonic() + timeout
    while True:
        ready = subprocess.run(
            [str(server.bin / "pg_isready"), "-h", "127.0.0.1", "-p", str(server.port)],
            capture_output=True,
            check=False,
        )
        if ready.returncode == 0:
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"PostgreSQL on port {server.port} not ready in {timeout} s")
        time.sleep(0.05)
