"""Shared fixtures: the suite's own Redis and PostgreSQL, never the developer's.

* Redis: a private ``redis-server`` per test process on a free port (``tests/harness/redis_server.py``); the
  fixtures below use its DB 1, flushed around each test. The suite never connects to 127.0.0.1:6379.
* PostgreSQL: a database created for this run on the server of ``TEST_DATABASE_URL`` and dropped at
  its end. Unset, the PostgreSQL tests are skipped with a message saying how to set it — except in CI
  (``CI`` set), where a missing or unreachable server FAILS them, as a missing Redis always does.
* The process environment loses the developer's ``REDIS_URL``/``DATABASE_URL``/Sentinel settings for
  the run (set empty, so a ``.env`` file cannot bring them back either), in this process and in every
  process a test starts.
* No test leaves a process running: a child process a test started and did not end fails it at
  teardown (and is killed there, so it cannot disturb the tests after it).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import time
from collections.abc import Callable, Iterator

import fakeredis
import pytest
import redis
from sqlalchemy.engine import Engine

from bot.wechat.testkit import FakeWeChatServer
from skills.db import make_sql_engine
from skills.migrate import init_db
from skills.services import Services
from tests.harness import pg
from tests.harness.processes import children, left_running
from tests.harness.redis_server import flushed_db, private_url, stop_private_server

# the settings through which a test (or a process it starts) could reach the developer's own servers
_SERVER_SETTINGS = ("REDIS_URL", "DATABASE_URL", "REDIS_SENTINELS", "REDIS_SENTINEL_MASTER",
                    "REDIS_SENTINEL_PASSWORD")
RUN_ID = f"{time.strftime('%Y%m%d_%H%M%S')}_{os.getpid()}"


def pytest_configure(config: pytest.Config) -> None:
    for name in _SERVER_SETTINGS:
        os.environ[name] = ""
    # pytest-xdist registers it too; a run without xdist (-p no:xdist) must still accept it
    config.addinivalue_line("markers", "xdist_group(name): run on the same xdist worker as the group")


# The fault runs (servers killed, workers SIGKILLed, fail-over) and the tests that time a race or a
# deadline: under pytest-xdist (tests/run.sh runs `-n 3 --dist loadgroup`) they all run on one worker,
# one after another (xdist hands the largest group out first), so no two of them load the machine at
# once; every other test is spread over the workers one by one.
MACHINE_GROUP = "machine"
MACHINE_PATHS = ("tests/faults/", "tests/failover/", "tests/deploy/test_schema_race.py",
                 "tests/bot/worker/test_e2e_workers.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = config.rootpath
    for item in items:
        where = item.path.relative_to(root).as_posix() if item.path.is_relative_to(root) else ""
        if where.startswith(MACHINE_PATHS):
            item.add_marker(pytest.mark.xdist_group(MACHINE_GROUP))


def pytest_unconfigure(config: pytest.Config) -> None:
    stop_private_server()


# ---- processes ----------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _no_process_left_running() -> Iterator[None]:
    before = set(children())
    yield
    if left := left_running(before):
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        pytest.fail(f"the test left processes running (killed now): {left}", pytrace=False)


# ---- Redis ------------------------------------------------------------------------------------


@pytest.fixture
def real_redis_client() -> Iterator[redis.Redis]:
    """A client on DB 1 of the tests' private Redis (flushed before and after the test)."""
    yield from flushed_db(private_url(1))


@pytest.fixture
def redis_url(real_redis_client: redis.Redis) -> str:
    """URL of DB 1 of the tests' private Redis (flushed before and after the test)."""
    return private_url(1)


@pytest.fixture
def wx() -> Iterator[FakeWeChatServer]:
    """The fake WeChat API over real HTTP (point ``WECHAT_API_BASE`` at ``wx.url``)."""
    with FakeWeChatServer() as server:
        yield server


@pytest.fixture
def fakeredis_client() -> Iterator[fakeredis.FakeRedis]:
    """An in-process Redis substitute with its own private server."""
    conn = fakeredis.FakeRedis(server=fakeredis.FakeServer())
    yield conn
    conn.close()


# ---- PostgreSQL -------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def pg_server_url() -> Iterator[str]:
    """``TEST_DATABASE_URL``, checked: the server the run's throwaway databases are created on
    (unset: the test is skipped with a one-line note; in CI it fails)."""
    from sqlalchemy import text

    url = pg.server_url()
    admin = _admin_engine(url)
    try:
        with admin.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:
        pytest.fail(f"PostgreSQL at TEST_DATABASE_URL is unreachable ({type(exc).__name__}: {exc})",
                    pytrace=False)
    finally:
        admin.dispose()
    yield url


@pytest.fixture(scope="session")
def make_pg_database(pg_server_url: str) -> Iterator[Callable[[], str]]:
    """A factory of empty databases on the test server, named for the run; all dropped at its end."""
    from sqlalchemy import text
    from sqlalchemy.engine import make_url

    from skills.db import normalise_url

    admin = _admin_engine(pg_server_url)
    made: list[str] = []

    def make() -> str:
        name = f"wxbot_test_{RUN_ID}_{len(made)}_{secrets.token_hex(2)}"
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        made.append(name)
        return make_url(normalise_url(pg_server_url)).set(database=name).render_as_string(hide_password=False)

    yield make
    with admin.connect() as conn:
        for name in made:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture(scope="session")
def pg_url(make_pg_database: Callable[[], str]) -> str:
    """URL of this run's throwaway PostgreSQL database (tests keep to their own schema or rows)."""
    return make_pg_database()


def _admin_engine(url: str) -> Engine:
    from sqlalchemy.pool import NullPool

    from skills.db import make_sql_engine

    return make_sql_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool,
                       connect_args={"connect_timeout": 5})


@pytest.fixture
def services() -> Iterator[Services]:
    """The skills' services over a fresh in-memory SQLite database (no Redis, no weather, no model)."""
    db = make_sql_engine("sqlite://")
    init_db(db)
    yield Services(db=db)
    db.dispose()
