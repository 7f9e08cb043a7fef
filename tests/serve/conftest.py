from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.serve.browser import CHROMIUM_ARGS, require_chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Headless Chromium (Debian's), one per test module."""
    chromium = require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


SUPERUSER_PASSWORD = "instructor's own secret"


@pytest.fixture(scope="session")
def password_server() -> Iterator[object]:
    """A PostgreSQL cluster with scram-sha-256 password authentication: a role connects only
    with its password (tests/postgres_server.py)."""
    import os

    from tests.postgres_server import running_server, server_binaries

    binaries = server_binaries()
    if binaries is None:
        message = "PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin, QUIZAPP_PG_BIN)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    psycopg = pytest.importorskip("psycopg")
    with running_server(binaries, password=SUPERUSER_PASSWORD) as server:
        with psycopg.connect(server.url(), autocommit=True) as admin:
            admin.execute("CREATE DATABASE quizapp_class")
        yield server


@pytest.fixture
def class_store(password_server, request: pytest.FixtureRequest) -> str:
    """The owner's URL (password included) of a fresh class store on `password_server`: a
    schema of its own, set up by `quizapp class init`'s own code (the groups are the
    database's, shared by the tests' schemas)."""
    import re
    import uuid

    from quizapp.classroom.roles import init_class
    from quizapp.srs.store.postgres.store import connect

    schema = "c_" + re.sub(r"\W", "_", request.node.name)[:30].lower() + "_" + uuid.uuid4().hex[:8]
    url = password_server.url("quizapp_class", options=f"-csearch_path%3D{schema}")
    with connect(url) as owner:
        init_class(owner, schema)
    return url
