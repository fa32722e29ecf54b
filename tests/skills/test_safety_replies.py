"""The crisis answers: what to do now first, the verified numbers, no diagnosis, no medicine, never "做不了"."""

from __future__ import annotations

import pytest

from skills.safety import reply

MEDICAL = ("chest", "breathing", "stroke", "unconscious", "bleeding", "convulsion", "poisoning", "gas", "trauma", "other")
SELF_HARM = ("ideation", "injury", "attempt", "someone")
VIOLENCE = ("abuse", "threat")
ALL = [("medical", s) for s in MEDICAL] + [("self_harm", s) for s in SELF_HARM] + [("violence", s) for s in VIOLENCE]
MEDICINES = ("阿司匹林", "硝酸甘油", "速效救心", "布洛芬", "退烧药", "吃点药", "服药")


@pytest.mark.parametrize(("kind", "sub"), ALL)
def test_every_answer_is_short_calm_and_stays_available(kind: str, sub: str) -> None:
    text = reply(kind, sub)
    lines = text.splitlines()
    assert 3 <= len(lines) <= 6 and len(text) <= 320
    assert lines[-1] == "我一直在这儿，有什么需要随时跟我说。"
    assert "做不了" not in text and "不会" not in text


@pytest.mark.parametrize("sub", MEDICAL)
def test_a_medical_emergency_says_120_first_and_no_medicine(sub: str) -> None:
    text = reply("medical", sub)
    assert text.startswith("请马上拨打120")
    assert not any(m in text for m in MEDICINES)


@pytest.mark.parametrize("sub", ("ideation", "injury", "attempt", "someone"))
def test_thoughts_of_self_harm_get_the_help_lines(sub: str) -> None:
    text = reply("self_harm", sub)
    assert "12356" in text and "010-82951332" in text and "120" in text


def test_an_attempt_leads_with_120() -> None:
    assert reply("self_harm", "attempt").startswith("请马上拨打120")


@pytest.mark.parametrize("sub", VIOLENCE)
def test_violence_says_110_and_the_women_and_youth_lines(sub: str) -> None:
    text = reply("violence", sub)
    assert "110" in text and "12338" in text and "12355" in text


def test_another_kind_told_with_it_adds_its_number() -> None:
    assert "120" in reply("violence", "abuse", ("medical",))
    assert "110" in reply("self_harm", "ideation", ("violence",))
    assert "12356" in reply("medical", "bleeding", ("self_harm",))
