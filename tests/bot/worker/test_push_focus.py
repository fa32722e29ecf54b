"""A reminder pushed by a worker is the focus of what the user says next: "过十分钟再叫我" snoozes it."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.delivery import DeliveryService
from bot.queue import make_queue
from bot.scheduler import CollectingSink
from bot.wechat.testkit import FakeWeChatServer
from bot.worker import UnrecordedTurns, WorkerDeps, deliver_push
from runtime.engine import Engine
from runtime.skill import SkillRegistry
from runtime.store import InMemoryContextStore
from runtime.turn import Inbound
from skills import all_skills
from skills.db import make_sql_engine
from skills.migrate import init_db
from skills.reminders.schedule import fire_due
from skills.services import Services
from tests.harness.edge import make_api, run_jobs_with

AT = datetime.fromisoformat("2026-12-01T07:59:00+08:00")


def test_a_pushed_reminder_is_snoozed_by_what_the_user_says_next(wx: FakeWeChatServer, fake_redis) -> None:
    db = make_sql_engine("sqlite://")
    init_db(db)
    engine = Engine(store=InMemoryContextStore(), registry=SkillRegistry(all_skills()), services=Services(db=db))
    rt = WorkerDeps(redis=fake_redis, turns=UnrecordedTurns(engine),
                     delivery=DeliveryService(fake_redis, make_api(wx, fake_redis)), queue=make_queue(fake_redis),
                     typing_after_s=0, sql_engine=db)
    run_jobs_with(rt)
    engine.handle(Inbound(user="u1", text="8点提醒我吃药", msg_id="m1", at=AT))
    sink = CollectingSink()
    for push in fire_due(db, AT + timedelta(minutes=1, seconds=30)).pushes:
        sink(push)
    [push] = sink.pushes
    # no message from the user in 48 hours here: the push waits for their next message ("park")
    assert deliver_push(push.user, push.text, push.key, push.content, push.due) in ("custom", "park", "template")
    result = engine.handle(Inbound(user="u1", text="过十分钟再叫我", msg_id="m2", at=AT + timedelta(minutes=2)))
    assert result.trace.intent in ("reminder.snooze", "reminder.create")
    assert "08:11" in result.replies[0] and "吃药" in result.replies[0]
    db.dispose()


def test_a_push_queued_before_its_content_was_passed_is_still_delivered(wx: FakeWeChatServer, fake_redis) -> None:
    db = make_sql_engine("sqlite://")
    init_db(db)
    engine = Engine(store=InMemoryContextStore(), registry=SkillRegistry(all_skills()), services=Services(db=db))
    run_jobs_with(WorkerDeps(redis=fake_redis, turns=UnrecordedTurns(engine),
                        delivery=DeliveryService(fake_redis, make_api(wx, fake_redis)), queue=make_queue(fake_redis),
                        typing_after_s=0, sql_engine=db))
    assert deliver_push("u2", "⏰ 提醒：喝水", "reminder:987") != "drop"  # the three arguments of older jobs
    assert engine.peek("u2").focus is None
    db.dispose()
