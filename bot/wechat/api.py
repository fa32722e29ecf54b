"""The WeChat API port: the outgoing calls the bot makes, behind one Protocol."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class AccessToken:
    """A token as WeChat returned it; ``expires_in`` in seconds."""

    token: str
    expires_in: int


class WeChatAPI(Protocol):
    """Outgoing WeChat calls. Implementations raise :class:`bot.wechat.errors.WeChatAPIError`."""

    def send_text(self, user: str, text: str) -> None:
        """Send a customer-service text message (``message/custom/send``)."""

    def typing(self, user: str, on: bool = True) -> None:
        """Show or hide "typing…" to the user (``message/custom/typing``)."""

    def send_template(
        self, user: str, template_id: str, data: Mapping[str, str], url: str | None = None
    ) -> int:
        """Send a template message; returns WeChat's ``msgid``."""

    def send_subscribe(
        self, user: str, template_id: str, data: Mapping[str, str], page: str | None = None
    ) -> None:
        """Send a subscribe message (``message/subscribe/bizsend``)."""

    def fetch_token(self, force_refresh: bool = False) -> AccessToken:
        """Fetch a fresh access_token from ``POST /cgi-bin/stable_token``."""

    def create_menu(self, menu: Mapping[str, Any]) -> None:
        """Publish the account's custom menu (``menu/create``; the body of :func:`bot.wechat.menu.to_wechat`)."""

    def get_menu(self) -> dict[str, Any] | None:
        """The account's custom menu as ``menu/get`` answers it, or None when it has none."""
