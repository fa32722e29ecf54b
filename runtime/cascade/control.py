"""Stage ``control``: short commands that steer the conversation itself. No model, exact words only."""

from __future__ import annotations

import re

from runtime.cascade._match import Kind, Match
from runtime.turn import Stage
from runtime.views import RouterView

_TRIM = re.compile(r"[\s，。！!？?,.~～…]+")
_TAIL = re.compile(r"[吧啊呀哦了的嘛呗]+$")

CANCEL = frozenset({"取消", "算了", "不用了", "不要了", "不用", "取消吧", "不做了", "停", "停止", "退出", "先不了", "不了"})
CONTINUE = frozenset({"继续", "接着来", "接着", "继续吧", "接着说", "回到刚才", "继续刚才"})
CONFIRM = frozenset({"确认", "好", "好的", "是", "是的", "对", "对的", "确定", "可以", "行", "嗯", "没问题", "ok", "yes"})
DENY = frozenset({"不", "不是", "不对", "否", "不行", "不确认", "no"})
RESET = frozenset({"重新开始", "重置", "重来", "从头开始"})
HELP = frozenset({"帮助", "菜单", "help", "你能做什么", "你会什么", "功能", "怎么用"})


def normalise(text: str) -> str:
    """Lower-case, strip punctuation, spaces and trailing particles (算了吧 → 算了)."""
    t = _TRIM.sub("", text.strip().lower())
    stripped = _TAIL.sub("", t)
    return stripped or t


class ControlStage:
    """取消 / 继续 / 确认 (only when something is pending) / 重置 / 帮助."""

    stage = Stage.CONTROL

    def match(self, view: RouterView) -> Match | None:
        if view.origin not in ("text", "voice", "menu"):
            return None
        raw = _TRIM.sub("", view.text.strip().lower())
        word = normalise(view.text)
        if not word:
            return None
        if view.pending_confirmation and (word in CONFIRM or raw in CONFIRM):
            return Match(self.stage, Kind.CONFIRM, detail=word)
        if view.pending_confirmation and (word in DENY or raw in DENY):
            return Match(self.stage, Kind.CANCEL, detail=word)
        if word in CANCEL or raw in CANCEL:
            return Match(self.stage, Kind.CANCEL, detail=word)
        if word in CONTINUE or raw in CONTINUE:
            return Match(self.stage, Kind.CONTINUE, detail=word)
        if word in RESET or raw in RESET:
            return Match(self.stage, Kind.RESET, detail=word)
        if word in HELP or raw in HELP:
            return Match(self.stage, Kind.HELP, detail=word)
        return None
