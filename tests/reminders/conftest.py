"""Fixtures for reminder tests: a SQLite file database, services, and a small driver that plays the engine."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import count
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy.engine import Engine

from runtime.clock import SettableClock
from runtime.parsers.timephrase import parse_time_phrase
from runtime.skill import SkillResult
from runtime.views import make_exec_view
from skills.db import make_sql_engine
from skills.migrate import init_db
from skills.reminders import extract_content, extract_target, run_due
from skills.reminders.schedule import DuePush
from skills.reminders.skill import SPEC
from skills.services import Services

TZ = ZoneInfo("Asia/Shanghai")
START = datetime(2026, 12, 1, 20, 0, tzinfo=TZ)  # a Tuesday evening


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'wxbot.db'}"


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    eng = make_sql_engine(db_url)
    init_db(eng)
    yield eng
    eng.dispose()


@pytest.fixture
def services(engine: Engine) -> Services:
    return Services(db=engine)


@dataclass
class Driver:
    """Plays the engine's part for the reminders skill: fills slots the way the engine would."""

    services: Services
    clock: SettableClock
    user: str = "u1"
    _ids: Any = field(default_factory=lambda: count(1))

    def now(self) -> datetime:
        return self.clock.now().astimezone(TZ)

    def run(self, action: str, params: dict[str, Any], msg_id: str | None = None) -> SkillResult:
        spec = next(a for a in SPEC.actions if a.name == action)
        view = make_exec_view(user=self.user, msg_id=msg_id or f"m{next(self._ids)}", now=self.now(),
                              tz="Asia/Shanghai", params=params)
        return spec.run(view, view.params, self.services)

    def create(self, text: str, msg_id: str | None = None) -> SkillResult:
        when = parse_time_phrase(text, self.now())
        assert when is not None, text
        content = extract_content(text)
        assert content, text
        return self.run("create", {"when": when.to_param(), "content": content}, msg_id)

    def cancel(self, text: str) -> SkillResult:
        return self.run("cancel", {"target": extract_target(text)})

    def snooze(self, text: str) -> SkillResult:
        when = parse_time_phrase(text, self.now())
        return self.run("snooze", {"when": None if when is None else when.to_param()})

    def advance(self, **delta: float) -> list[DuePush]:
        self.clock.advance(timedelta(**delta))
        return run_due(self.services, self.clock.now())

    def advance_to(self, moment: datetime) -> list[DuePush]:
        self.clock.set(moment)
        return run_due(self.services, self.clock.now())


@pytest.fixture
def driver(services: Services) -> Driver:
    return Driver(services, SettableClock(START))
