"""``wxbot menu show [FILE]`` / ``wxbot menu push FILE``: the account's custom menu.

The menu is a TOML file whose click keys are intent labels (format: :mod:`bot.wechat.menu`; an
example in ``deploy/menu.toml``). ``show FILE`` checks the file and prints what would be published;
``show`` alone prints the menu the account has now; ``push FILE`` checks, publishes through the
WeChat API (``menu/create``) and reads the menu back to confirm it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bot.settings import Settings

__all__ = ["add_arguments", "render", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    show = sub.add_parser("show", help="check FILE and print it, or print the account's current menu")
    show.add_argument("file", nargs="?", type=Path, help="a menu file (TOML); without it: the published menu")
    push = sub.add_parser("push", help="check FILE and publish it as the account's menu")
    push.add_argument("file", type=Path, help="a menu file (TOML)")
    for each in (show, push):
        each.add_argument("--json", action="store_true", help="print WeChat's JSON instead of the tree")


def render(menu: Any) -> list[str]:
    """The menu as an indented tree: name, then what a click does."""
    from bot.wechat.menu import MENU_KEYS

    def action(button: Any) -> str:
        if button.url:
            return f"opens {button.url}"
        if button.key in MENU_KEYS:
            return f"starts {button.key}" if button.key != "help" else "shows the help text"
        return f"sends key {button.key!r} (not an intent label: the bot answers that it does not know it)"

    lines: list[str] = []
    for button in menu.buttons:
        if button.sub:
            lines.append(button.name)
            lines.extend(f"  {s.name}  → {action(s)}" for s in button.sub)
        else:
            lines.append(f"{button.name}  → {action(button)}")
    return lines


def _load(path: Path) -> Any:
    from bot.wechat.menu import parse_menu

    return parse_menu(path.read_text(encoding="utf-8"))


def _api(settings: Settings) -> Any:
    from bot import compose

    return compose.wechat_api(settings, compose.redis_client(settings))  # the shared access_token, as the workers use it


def _print(menu: Any, as_json: bool) -> None:
    from bot.wechat.menu import to_wechat

    print(json.dumps(to_wechat(menu), ensure_ascii=False, indent=2) if as_json else "\n".join(render(menu)))


def run(args: argparse.Namespace, settings: Settings) -> int:
    from bot.wechat.errors import WeChatAPIError
    from bot.wechat.menu import MenuError, from_wechat, to_wechat

    try:
        menu = _load(args.file) if args.file else None
    except (OSError, UnicodeDecodeError) as exc:
        print(f"wxbot menu: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    except MenuError as exc:
        print(f"wxbot menu: {args.file}: {exc}", file=sys.stderr)
        return 2
    if args.action == "show" and menu is not None:
        _print(menu, args.json)
        return 0
    if not (settings.wechat_app_id and settings.wechat_app_secret):
        print("wxbot menu: set WECHAT_APP_ID and WECHAT_APP_SECRET (the account's developer ID and secret)",
              file=sys.stderr)
        return 2
    api = _api(settings)
    try:
        if menu is not None:
            api.create_menu(to_wechat(menu))
        published = api.get_menu()
    except WeChatAPIError as exc:
        print(f"wxbot menu: WeChat refused: {exc}", file=sys.stderr)
        return 1
    if published is None:
        print("the account has no custom menu" if menu is None else "wxbot menu: published, but WeChat "
              "shows no menu when asked back", file=sys.stderr if menu is not None else sys.stdout)
        return 1 if menu is not None else 0
    current = from_wechat(published)
    if menu is not None and current != menu:
        print("wxbot menu: published, but WeChat shows a different menu when asked back:", file=sys.stderr)
        _print(current, False)
        return 1
    if menu is not None:
        print(f"published: {len(menu.buttons)} buttons, {len(menu.leaves())} actions")
    _print(current, args.json)
    return 0
