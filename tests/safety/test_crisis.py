"""The crisis detector (DESIGN §3.4 "Crisis first"): the labelled sets, then the rules one by one."""

from __future__ import annotations

import time

import pytest

from runtime.understand import CrisisKind, detect_crisis
from runtime.understand.crisis import CUES
from tests.safety.crisis_eval import SETS, load, normalise, score

LABELLED, HELDOUT = SETS


def _read(text: str) -> tuple[str, str] | None:
    found = detect_crisis(normalise(text))
    return (found.kind.value, found.sub) if found is not None else None


def test_labelled_set_is_large_and_varied() -> None:
    rows = load(LABELLED)
    crisis = [r for r in rows if r["kind"]]
    assert len(rows) >= 150 and len(crisis) >= 100 and len(rows) - len(crisis) >= 50
    assert {r["kind"] for r in crisis} == {"self_harm", "medical", "violence"}
    assert {"trad", "runon", "elder", "teen", "indirect", "mixed", "cantonese"} <= {r["tag"] for r in crisis}
    assert len({r["text"] for r in rows}) == len(rows)


def test_labelled_set_recall_is_total_and_false_alarms_are_rare() -> None:
    s = score(load(LABELLED))
    assert s.missed == [] and s.recall == 1.0
    assert s.false_alarm_rate <= 0.05, s.alarms
    assert s.wrong_kind == []


def test_held_out_set_stays_close() -> None:
    """Written with the labelled set and never tuned on: a floor, not a target."""
    s = score(load(HELDOUT))
    assert s.recall >= 0.9, s.missed
    assert s.false_alarm_rate <= 0.05, s.alarms


@pytest.mark.parametrize(("text", "kind", "sub"), [
    ("我是真的撑不住了，不想再活着了", "self_harm", "ideation"),
    ("今晚等他们都睡了，我就把攒下的药全吃掉", "self_harm", "ideation"),
    ("刚刚吞了一大把安眠药", "self_harm", "attempt"),
    ("又拿小刀划自己了", "self_harm", "injury"),
    ("我同桌说她想自杀", "self_harm", "someone"),
    ("孫女誤喝了消毒液", "medical", "poisoning"),
    ("我婆婆突然嘴角歪了，左手拿不住碗", "medical", "stroke"),
    ("老爷子胸口闷得厉害，一直冒冷汗", "medical", "chest"),
    ("我哥骑车摔了，人叫不醒", "medical", "unconscious"),
    ("小孩发烧四十度还在抽搐", "medical", "convulsion"),
    ("厨房切菜切到手，血止不住", "medical", "bleeding"),
    ("屋里燃气味很大，全家都头晕想吐", "medical", "gas"),
    ("前夫天天发短信说要弄死我", "violence", "threat"),
    ("他一喝酒就拿皮带抽我和孩子", "violence", "abuse"),
])
def test_reads_kind_and_what_to_do_first(text: str, kind: str, sub: str) -> None:
    assert _read(text) == (kind, sub)


@pytest.mark.parametrize("text", [
    "笑得喘不过气", "热得想死", "想死你们了", "你去死吧", "差点晕过去", "我没有晕倒，就是有点累", "我不想死",
    "电视剧里那个男的天天打老婆", "他说要把我快递扔了哈哈", "我妈说再玩手机就打死我哈哈", "老板这么多活，简直要我的命",
    "打死也不去", "跳楼价清仓", "帮我记一下：给孩子打疫苗", "鸡蛋打散再下锅", "打车回家", "被打扰了",
    "跑完步喘不上气", "每天早上儿子都叫不醒", "前阵子胸口疼过一次，后来就没事了", "游泳腿抽筋了",
    "我心口疼，失恋了", "股票又割肉了", "今天去献血了", "看到账单差点晕倒",
])
def test_figures_of_speech_and_look_alikes_are_not_crises(text: str) -> None:
    assert _read(text) is None


def test_a_question_is_not_a_denial() -> None:
    assert _read("是不是我走了大家都会轻松") is None  # 走了 alone says nothing
    assert _read("是不是我死了大家都会轻松") == ("self_harm", "ideation")


def test_spans_leave_the_request_said_beside_it() -> None:
    text = normalise("我爸胸口疼得厉害，明天早上提醒我给他挂心内科的号")
    found = detect_crisis(text)
    assert found is not None and found.kind is CrisisKind.MEDICAL
    assert found.rest(text) == "明天早上提醒我给他挂心内科的号"
    run_on = normalise("他又打我了明天上午提醒我去派出所")
    found = detect_crisis(run_on)
    assert found is not None and found.rest(run_on) == "明天上午提醒我去派出所"


def test_other_kinds_told_in_the_same_message_are_kept() -> None:
    found = detect_crisis(normalise("被老公打得头在流血"))
    assert found is not None and found.kind is CrisisKind.VIOLENCE and found.also == (CrisisKind.MEDICAL,)


def test_traditional_and_cantonese_read_after_the_engine_normalises() -> None:
    assert _read("我真的不想再活下去了，好累") == ("self_harm", "ideation")
    assert _read("阿爸突然講唔到嘢，半邊身冇力") == ("medical", "stroke")
    assert _read("佢又打我") == ("violence", "abuse")


def test_it_is_pure_and_quick() -> None:
    text = normalise("今天加班到很晚，回家路上买了点水果，明天早上8点提醒我带伞")
    assert detect_crisis("") is None and detect_crisis("hello") is None
    started = time.perf_counter()
    for _ in range(200):
        detect_crisis(text)
    assert (time.perf_counter() - started) / 200 < 0.002  # well under 2 ms a message


def test_every_wording_a_family_matches_holds_one_of_its_anchors() -> None:
    """The anchors let the detector skip a family's search; a wording without one would be missed."""
    texts = [normalise(str(r["text"])) for path in SETS for r in load(path)]
    texts += ["突然讲不到东西", "药物过量", "按着也还在流", "早点走了好", "后事都交代好了", "那边烧得厉害，三十九度"]
    for text in texts:
        for cue in CUES:
            for m in cue.pattern.finditer(text):
                assert not cue.anchors.isdisjoint(m.group()), (cue.family, m.group())
