"""A workout is recorded and said back as the user called it (俯卧撑, 慢跑, 蛙泳, 撸铁), its MET from its kind
(力量训练, 跑步, 游泳); a history or a deletion by the kind's name covers every word for it, by a word only
that word."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import pytest

from runtime.views import ExecView
from skills.exercise import (
    activity_word,
    confirm_log,
    corrected_log,
    delete_confirm_text,
    delete_log,
    extract_activity,
    extract_log_target,
    find_activity,
    how_long,
    same_activity,
)
from skills.exercise import skill as exercise
from skills.services import Services

View = Callable[..., ExecView]


@pytest.mark.parametrize(("text", "word", "kind"), [
    ("今天做了半小时俯卧撑", "俯卧撑", "力量训练"),
    ("刚撸完铁", "撸铁", "力量训练"),
    ("昨晚慢跑了5公里", "慢跑", "跑步"),
    ("今天跑了5公里", "跑步", "跑步"),          # a form of the verb is the activity's own name
    ("游完泳", "游泳", "游泳"),
    ("蛙泳40分钟", "蛙泳", "游泳"),
    ("健身房练了一个小时力量", "力量训练", "力量训练"),  # the gym is where, 力量 is what
    ("今天去健身房了", "健身", "力量训练"),
    ("跳了20分钟绳", "跳绳", "跳绳"),
    ("今天好累", None, None),
])
def test_the_word_said_and_its_kind(text: str, word: str | None, kind: str | None) -> None:
    assert activity_word(text) == word and find_activity(text) == kind


def test_a_kind_covers_its_words_and_a_word_only_itself() -> None:
    assert same_activity("慢跑", "跑步") and same_activity("跑步", "跑步")
    assert not same_activity("晨跑", "慢跑") and same_activity("蛙泳", "蛙泳")
    assert not same_activity("蛙泳", "跑步")


def test_the_record_and_every_reply_say_the_word(services: Services, make_view: View) -> None:
    params = {"activity": "俯卧撑", "minutes": 30.0}
    assert confirm_log(params) == "确认记录：俯卧撑 30分钟吗？"
    done = exercise.log(make_view(params, msg_id="m1"), params, services)
    assert done.reply.startswith("记下了：俯卧撑 30分钟") and "力量训练" not in done.reply
    assert done.data["met"] == 3.5  # the kind's MET
    run = {"activity": "慢跑", "distance_km": 5.0}
    exercise.log(make_view(run, msg_id="m2"), run, services)

    week = exercise.history(make_view(msg_id="m3"), {"period": "这周"}, services)
    assert "1. 12月2日 俯卧撑 30分钟" in week.reply and "2. 12月2日 慢跑 5公里" in week.reply  # few: one by one
    assert "力量训练" not in week.reply
    runs = exercise.history(make_view(msg_id="m4"), {"period": "这周", "activity": "跑步"}, services)
    assert "慢跑 5公里" in runs.reply  # 跑步 takes the 慢跑
    only = exercise.history(make_view(msg_id="m5"), {"period": "这周", "activity": extract_activity("俯卧撑的记录")},
                            services)
    assert "俯卧撑1次" in only.reply and "慢跑" not in only.reply

    target = extract_log_target("把俯卧撑那条删了")
    assert target == "俯卧撑" and delete_confirm_text({"target": target}) == "确认删除最近一条俯卧撑记录吗？"
    gone = delete_log(make_view(msg_id="m6"), {"target": target}, services)
    assert "已删除" in gone.reply and "俯卧撑" in gone.reply
    by_kind = delete_log(make_view(msg_id="m7"), {"target": "跑步"}, services)
    assert "慢跑" in by_kind.reply


def test_a_correction_and_the_question_keep_the_word(services: Services, make_view: View) -> None:
    assert corrected_log({"activity": "游泳", "minutes": 40.0}, "是蛙泳") == {"activity": "蛙泳", "minutes": 40.0}
    assert corrected_log({"activity": "蛙泳", "minutes": 40.0}, "是50分钟") == {"activity": "蛙泳", "minutes": 50.0}
    asked = how_long(make_view(), {"activity": "撸铁"}, services)
    assert asked is not None and asked.reply.startswith("撸铁练了多长时间")


def test_a_record_made_before_in_the_kinds_name_still_counts(services: Services, make_view: View) -> None:
    params = {"activity": "力量训练", "minutes": 20.0}
    exercise.log(make_view(params, msg_id="m1", now=datetime.fromisoformat("2026-12-02T08:00:00+08:00")), params,
                 services)
    lifts = exercise.history(make_view(msg_id="m2"), {"period": "今天", "activity": "力量训练"}, services)
    assert "力量训练1次" in lifts.reply


def _route(text: str) -> str | None:
    from runtime.skill import SkillRegistry
    from runtime.understand.rules import RuleRouter, rules_from
    from skills import all_skills

    found = RuleRouter(rules_from(SkillRegistry(all_skills()).triggers())).classify(text)
    return found[0] if found else None


@pytest.mark.parametrize(("text", "intent"), [
    # "动" said for exercising, with a period and a question of how often or whether
    ("这个星期动了几次", "exercise.history"), ("今年一共动过几回", "exercise.history"),
    ("上个月动过没有", "exercise.history"), ("这周动车坐了几次", None),
    # an amount counted with 个 before its unit, the activity's object after it
    ("前天骑了一个来小时车", "exercise.log"), ("昨晚打了两个多钟头球", "exercise.log"),
])
def test_colloquial_workout_words_route(text: str, intent: str | None) -> None:
    assert _route(text) == intent
