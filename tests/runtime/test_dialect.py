"""Written Cantonese is read as Mandarin before any stage sees it, 嗰 too once it is written as Simplified."""

from __future__ import annotations

import pytest

from runtime.understand.normalise import Normaliser


@pytest.mark.parametrize(("said", "read"), [
    ("嗰個禮拜係咪放假", "那个礼拜是不是放假"),
    ("嗰日我唔得閒", "那日我不得闲"),
    ("聽晚食咩好", "明晚吃什么好"),
    ("你真係好犀利", "你真是好厉害"),
    ("我啱啱食咗飯", "我刚刚吃了饭"),
])
def test_cantonese_reads_as_mandarin(said: str, read: str) -> None:
    assert Normaliser([])(said).text == read
