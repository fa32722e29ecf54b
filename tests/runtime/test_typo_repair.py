"""A pinyin-keyboard slip is repaired towards the domain's words, never by cutting one said as it is."""

from __future__ import annotations

import pytest

from runtime.understand.lexicon import VOCABULARY
from runtime.understand.normalise import Normaliser
from skills import registry

_NORMALISE = Normaliser([*VOCABULARY, *registry().vocabulary()])


@pytest.mark.parametrize("text", ["前天骑了20公里", "大前天骑了十五公里", "今天骑了半小时车", "前天汽车坏了", "昨天打球了"])
def test_a_word_of_the_domain_is_never_cut_by_a_repair(text: str) -> None:
    assert _NORMALISE(text).text == text


@pytest.mark.parametrize(("typed", "meant"), [("游了半个小使", "游了半个小时"), ("后天早尚提醒我", "后天早上提醒我"),
                                              ("跑了二十分种", "跑了二十分钟")])
def test_a_slip_is_still_repaired(typed: str, meant: str) -> None:
    assert _NORMALISE(typed).text == meant
