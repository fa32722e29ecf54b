"""Stage ``event``: WeChat events (subscribe, unsubscribe, menu clicks) decided without reading text."""

from __future__ import annotations

from collections.abc import Iterable

from runtime.resolve._match import Kind, Match
from runtime.turn import Stage
from runtime.views import RouterView


class EventStage:
    """Subscribe → welcome; a CLICK whose key is an intent label → that intent; other events → ignore."""

    stage = Stage.EVENT

    def __init__(self, menu_keys: Iterable[str], *, welcome_intent: str = "unknown") -> None:
        self._keys = frozenset(menu_keys)
        self._welcome = welcome_intent

    def match(self, view: RouterView) -> Match | None:
        if view.origin == "unsupported":
            return Match(self.stage, Kind.UNSUPPORTED, detail=view.key or "")
        if view.origin not in ("event", "menu") or not view.event:
            return None
        event = view.event.lower()
        if event in ("subscribe", "scan"):
            return Match(self.stage, Kind.WELCOME, intent=self._welcome, detail=event)
        if event == "unsubscribe":
            return Match(self.stage, Kind.GOODBYE, detail=event)
        if event == "click" and view.key:
            key = view.key
            if key in self._keys:
                return Match(self.stage, Kind.INTENT, intent=key, detail=f"menu {key}")
            if key in ("help", "menu"):
                return Match(self.stage, Kind.HELP, detail=f"menu {key}")
            return Match(self.stage, Kind.UNKNOWN, detail=f"menu key {key} is not an intent")
        return Match(self.stage, Kind.GOODBYE, detail=f"{event}: nothing to say")
