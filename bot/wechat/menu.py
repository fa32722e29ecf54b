"""The account's custom menu as a declarative file (TOML) whose click keys are intent labels.

A file holds up to 3 ``[[button]]`` tables; a button either acts itself or lists up to 5 ``sub``
buttons. An acting button has a ``name`` and one of ``key`` (an intent label such as
``dinner.plan``: a click starts that task, decided by the ``event`` stage; or ``help``) or ``url`` (a
web page). :func:`parse_menu` checks everything WeChat checks (counts, name and key sizes in bytes)
and more (every key is a label the bot acts on), and :func:`to_wechat` gives the body of
``menu/create``. Pure functions; the I/O is in ``wxbot menu``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from typing import Any

from skills import registry

__all__ = ["MENU_KEYS", "Menu", "MenuButton", "MenuError", "from_wechat", "parse_menu", "to_wechat"]

# What a click may carry: every intent a user can start, and the help text.
MENU_KEYS = (*registry().menu_keys(), "help")
MAX_BUTTONS, MAX_SUB_BUTTONS = 3, 5
NAME_BYTES, SUB_NAME_BYTES, URL_BYTES = 16, 60, 1024  # WeChat's limits (UTF-8 bytes)


class MenuError(ValueError):
    """A menu that WeChat or the bot would not accept; ``where`` names the button (``button 2 «提醒»``)."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}" if where else problem)
        self.where = where
        self.problem = problem


@dataclass(frozen=True)
class MenuButton:
    """One button: ``sub`` buttons, or a click ``key``, or a ``url``."""

    name: str
    key: str | None = None
    url: str | None = None
    sub: tuple[MenuButton, ...] = ()


@dataclass(frozen=True)
class Menu:
    """The whole menu, in display order (left to right, top to bottom)."""

    buttons: tuple[MenuButton, ...]

    def leaves(self) -> list[MenuButton]:
        """Every button that acts (click or view)."""
        return [leaf for b in self.buttons for leaf in (b.sub or (b,))]


def _button(raw: Any, where: str, *, top: bool) -> MenuButton:
    if not isinstance(raw, dict):
        raise MenuError(where, "a button is a table with a name")
    unknown = sorted(set(raw) - {"name", "key", "url", "sub"})
    if unknown:
        raise MenuError(where, f"unknown field {', '.join(unknown)} (a button has name, and key, url or sub)")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise MenuError(where, "every button needs a name")
    where = f"{where} «{name}»"
    limit = NAME_BYTES if top else SUB_NAME_BYTES
    if len(name.encode()) > limit:
        raise MenuError(where, f"name is {len(name.encode())} bytes, WeChat allows {limit} "
                               f"({'4' if top else '8'} Chinese characters)")
    given = [f for f in ("key", "url", "sub") if f in raw]
    if len(given) != 1 or ("sub" in raw and not top):
        allowed = "key, url or sub" if top else "key or url"
        raise MenuError(where, f"needs exactly one of {allowed}")
    if "sub" in raw:
        subs = raw["sub"]
        if not isinstance(subs, list) or not 1 <= len(subs) <= MAX_SUB_BUTTONS:
            raise MenuError(where, f"sub holds 1 to {MAX_SUB_BUTTONS} buttons")
        return MenuButton(name=name, sub=tuple(_button(s, f"{where} sub-button {i}", top=False)
                                              for i, s in enumerate(subs, 1)))
    if "key" in raw:
        key = raw["key"]
        if key not in MENU_KEYS:
            raise MenuError(where, f"key {key!r} is not an intent label the bot starts "
                                   f"(one of {', '.join(MENU_KEYS)})")
        return MenuButton(name=name, key=key)
    url = raw["url"]
    if not isinstance(url, str) or not url.startswith(("https://", "http://")) or len(url.encode()) > URL_BYTES:
        raise MenuError(where, f"url must be an http(s) address of at most {URL_BYTES} bytes")
    return MenuButton(name=name, url=url)


def parse_menu(source: str) -> Menu:
    """The menu described by the TOML ``source``; raises :class:`MenuError` with the first problem."""
    try:
        data = tomllib.loads(source)
    except tomllib.TOMLDecodeError as exc:
        raise MenuError("", f"not a TOML file: {exc}") from exc
    unknown = sorted(set(data) - {"button"})
    if unknown:
        raise MenuError("", f"unknown top-level field {', '.join(unknown)} (the file holds [[button]] tables)")
    buttons = data.get("button")
    if not isinstance(buttons, list) or not 1 <= len(buttons) <= MAX_BUTTONS:
        raise MenuError("", f"a menu has 1 to {MAX_BUTTONS} [[button]] tables")
    return Menu(buttons=tuple(_button(b, f"button {i}", top=True) for i, b in enumerate(buttons, 1)))


def _wechat_button(button: MenuButton) -> dict[str, Any]:
    if button.sub:
        return {"name": button.name, "sub_button": [_wechat_button(s) for s in button.sub]}
    if button.key is not None:
        return {"type": "click", "name": button.name, "key": button.key}
    return {"type": "view", "name": button.name, "url": button.url}


def to_wechat(menu: Menu) -> dict[str, Any]:
    """The body of ``POST /cgi-bin/menu/create``."""
    return {"button": [_wechat_button(b) for b in menu.buttons]}


def from_wechat(data: dict[str, Any]) -> Menu:
    """The menu in a ``menu/get`` answer (``{"menu": {"button": [...]}}``) or a ``menu/create`` body,
    read as it is (no checks: an account may hold buttons made elsewhere)."""
    raw = data.get("menu", data).get("button", [])

    def button(b: dict[str, Any]) -> MenuButton:
        subs = b.get("sub_button") or []
        if isinstance(subs, dict):  # some answers nest the list: {"sub_button": {"list": [...]}}
            subs = subs.get("list", [])
        return MenuButton(name=str(b.get("name", "")), key=b.get("key"), url=b.get("url"),
                          sub=tuple(button(s) for s in subs))

    return Menu(buttons=tuple(button(b) for b in raw))
