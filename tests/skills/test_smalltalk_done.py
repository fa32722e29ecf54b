"""Saying something is done ("吃过了", "已经浇完了") is small talk answered plainly: no question back."""

from __future__ import annotations

import re

import pytest

from skills.smalltalk import DONE_SAID
from skills.smalltalk.skill import talk


@pytest.mark.parametrize("text", ["吃过了", "好的 弄完了👌", "嗯，已经交好了", "我刚洗完了～", "搞定", "知道了"])
def test_done_is_recognised(text: str) -> None:
    assert re.search(DONE_SAID, text.replace("👌", ""))


@pytest.mark.parametrize("text", ["鸡蛋吃完了吗", "今天下雨了", "我想好了吗", "吃过了吗"])
def test_not_done(text: str) -> None:
    assert not re.search(DONE_SAID, text)


@pytest.mark.parametrize("user", [f"u{i}" for i in range(12)])  # the variant follows the user and the moment
def test_done_is_answered_without_a_question(user: str, make_view) -> None:  # type: ignore[no-untyped-def]
    reply = talk(make_view(user=user), {"kind": "done"}, None).reply
    assert reply and "？" not in reply and "?" not in reply
