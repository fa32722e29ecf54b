"""The frozen set of uncertain messages and its scorer: the data is well formed, the judge is strict,
and the fake's ``sensible`` answers come from the set's own table."""

from __future__ import annotations

from collections import Counter

import pytest

from runtime.llm import LLMConfig, OpenAILLM
from runtime.llm.routing import Router, labels_from_registry
from runtime.llm.testkit import FakeOpenAI, Mode
from runtime.skill import SkillRegistry
from skills import all_skills

from .uncertain import (
    FOLLOW_UP_FILE,
    Item,
    hidden_values,
    ideal_table,
    judge,
    load_all,
    load_items,
    report,
    score_items,
)


@pytest.fixture(scope="module")
def items() -> list[Item]:
    return load_items()


def test_the_set_has_forty_uncertain_ten_clear_ten_out_of_scope(items: list[Item]) -> None:
    assert Counter(i.group for i in items) == {"uncertain": 40, "clear": 10, "out_of_scope": 10}
    assert len({i.text for i in items}) == 60 and len({i.id for i in items}) == 60


def test_the_follow_ups_follow_a_result_and_need_its_summary_to_be_read() -> None:
    follow = load_items(FOLLOW_UP_FILE)
    assert len(follow) >= 20 and {i.group for i in follow} == {"follow_up"}
    everything = load_all()
    assert len({i.id for i in everything}) == len(everything)
    assert len({(i.text, *i.setup) for i in everything}) == len(everything)  # the same words only after another result
    for item in follow:
        given = item.ideal.get("given") or []
        assert item.setup and given, item.id  # after a result; the ideal answer needs what it showed
        assert not any(word in item.text for word in given), item.id  # …which the message does not say


def test_the_ideal_model_cannot_read_a_follow_up_without_the_summary() -> None:
    follow = load_items(FOLLOW_UP_FILE)
    with FakeOpenAI() as fake:
        fake.set_mode(Mode.SENSIBLE, table=ideal_table(follow))
        llm = OpenAILLM(LLMConfig.from_env(fake.env()))
        router = Router(llm, labels_from_registry(all_skills()))
        told = router.route("再来一个别的", "机器人刚给用户看了红烧茄子的做法。")
        blind = {item.id: router.route(item.text, "这是一段新的对话，没有进行中的事情。").intent for item in follow}
        llm.close()
    assert told.intent == "recipe.query"
    assert set(blind.values()) == {"unknown"}, blind


def test_a_model_confirmation_that_hides_a_value_is_counted() -> None:
    from runtime.context import PendingConfirmation
    from runtime.texts import MODEL_READ

    def pending(question: str) -> PendingConfirmation:
        return PendingConfirmation(skill="reminders", action="create", intent="reminder.create", question=question,
                                   params={"content": "给张三转账5000元", "when": {"at": "2026-12-02T08:00:00+08:00"}},
                                   msg_id="m", expires_at="2026-12-02T08:00:00+08:00", topic_version=0)

    reg = SkillRegistry(all_skills())
    assert hidden_values(pending("确认设提醒：12月2日 08:00吗？" + MODEL_READ), reg) == ("content=给张三转账5000元",)
    assert hidden_values(pending("确认设提醒：12月2日 08:00，「给张三转账5000元」吗？" + MODEL_READ), reg) == ()
    assert hidden_values(pending("确认设提醒：12月2日 08:00吗？"), reg) == ()  # not a model's write


def test_every_outcome_and_ideal_answer_names_a_real_label(items: list[Item]) -> None:
    labels = {lb.intent for lb in labels_from_registry(SkillRegistry(all_skills()).skills)}
    for item in items:
        assert item.intents <= labels, item.id
        assert item.ideal["route"]["intent"] in labels, item.id
        assert set(item.ideal["route"].get("params") or {}) <= set(
            next(lb.params for lb in labels_from_registry(all_skills()) if lb.intent == item.ideal["route"]["intent"])
        ), item.id


def _item(**kw: object) -> Item:
    base: dict[str, object] = {"id": "x", "group": "uncertain", "setup": (), "text": "t",
                               "intents": frozenset({"reminder.cancel"}), "asks": True, "writes_ok": False, "ideal": {}}
    base.update(kw)
    return Item(**base)  # type: ignore[arg-type]


def test_judge_counts_a_write_without_a_yes_as_bad_even_for_the_right_intent() -> None:
    item = _item()
    assert judge(item, stage="rules", intent="reminder.cancel", taken=["reminder.cancel"], started=True,
                 wrote=True, asked=False) == (False, "wrote without a yes")
    assert judge(item, stage="rules", intent="reminder.cancel", taken=["reminder.cancel"], started=True,
                 wrote=False, asked=False) == (True, "")


def test_judge_accepts_a_numbered_question_only_where_asking_is_good() -> None:
    assert judge(_item(), stage="intent_model", intent="unknown", taken=["unknown"], started=False,
                 wrote=False, asked=True)[0]
    assert not judge(_item(asks=False), stage="intent_model", intent="unknown", taken=["unknown"], started=False,
                     wrote=False, asked=True)[0]


def test_judge_fails_out_of_scope_that_starts_a_task() -> None:
    item = _item(group="out_of_scope", intents=frozenset({"unknown", "chitchat"}), asks=False)
    assert not judge(item, stage="llm_router", intent="unknown", taken=["unknown", "reminder.create"],
                     started=True, wrote=False, asked=False)[0]
    assert judge(item, stage="fallback", intent="unknown", taken=["unknown"], started=False, wrote=False,
                 asked=False)[0]


def test_sensible_fake_routes_from_the_table_in_every_output_mode(items: list[Item]) -> None:
    table = ideal_table(items)
    target = next(i for i in items if i.id == "u21")
    for supports in ({"json_schema"}, {"json_object"}, {"tools"}):
        with FakeOpenAI(supports=supports) as fake:
            fake.set_mode(Mode.SENSIBLE, table=table)
            llm = OpenAILLM(LLMConfig.from_env(fake.env()))
            outcome = Router(llm, labels_from_registry(all_skills())).route(target.text, "用户有1条提醒。")
            llm.close()
        assert (outcome.intent, outcome.params) == ("reminder.cancel", {"target": "喝水"}), supports


def test_the_scorer_runs_the_engine_and_reports_per_group(items: list[Item]) -> None:
    from .uncertain import _runtime

    chosen = [i for i in items if i.id in ("c01", "o03", "u21")]
    with _runtime("none", chosen) as runtime:
        scored = score_items(runtime.engine, runtime.services.db, chosen)
    by_id = {s.id: s for s in scored}
    assert by_id["c01"].good and by_id["c01"].wrote and by_id["c01"].llm_calls == 0
    assert by_id["o03"].good and not by_id["o03"].wrote
    figures = report(scored, model="none")
    assert figures["clear"] == {"n": 1, "good": 1, "share": 1.0, "llm_calls": 0, "turns_with_llm_calls": 0,
                                "writes": 1}
