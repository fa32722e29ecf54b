"""Turning data into prompt text: one-line, length-capped, no ids, no raw JSON.

Business data (reminder contents, dish names) is untrusted: newlines are collapsed so it cannot pose
as a new line of the prompt, special chat-template tokens are removed, and values are capped. Keys
that look like identifiers or audit fields are dropped even if a DTO forgot to trim them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["clean_text", "is_id_key", "render_data"]

_TEMPLATE_TOKENS = re.compile(r"<\|[^|>]{0,40}\|>|\[/?INST\]|</?s>", re.IGNORECASE)
_SPACES = re.compile(r"\s+")
_BRACES = str.maketrans({"{": "（", "}": "）", "[": "（", "]": "）", '"': "“"})
_ID_KEY = re.compile(
    r"(^|_)(id|ids|uuid|openid|unionid|msg_id|source_msg_id|user|user_id|version|created|created_at|"
    r"updated|updated_at|deleted_at|audit|token)$",
    re.IGNORECASE,
)


def clean_text(text: str, max_chars: int = 120) -> str:
    """One line, template tokens removed, braces softened, at most ``max_chars`` characters."""
    flat = _SPACES.sub(" ", _TEMPLATE_TOKENS.sub("", text)).strip().translate(_BRACES)
    return flat if len(flat) <= max_chars else flat[: max_chars - 1] + "…"


def is_id_key(key: str) -> bool:
    """True for keys that name identifiers or audit fields (never shown to a model)."""
    return bool(_ID_KEY.search(key))


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "是" if value else "否"
    if value is None:
        return "无"
    return clean_text(str(value), 60)


def _pairs(mapping: Mapping[str, Any], depth: int) -> str:
    parts = []
    for key, value in mapping.items():
        if is_id_key(str(key)):
            continue
        parts.append(f"{clean_text(str(key), 30)}：{_render(value, depth + 1)}")
    return "，".join(parts)


def _render(value: Any, depth: int) -> str:
    if depth > 3:
        return "…"
    if isinstance(value, Mapping):
        return _pairs(value, depth)
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        items = [_render(v, depth + 1) for v in list(value)[:10]]
        more = f"（另有{len(value) - 10}项）" if len(value) > 10 else ""
        return "；".join(items) + more
    return _scalar(value)


def render_data(data: Mapping[str, Any] | Sequence[Any] | str, *, max_chars: int = 400) -> str:
    """A tool result or DTO as short plain text (one ``键：值`` per line; list items numbered), never JSON.

    >>> print(render_data({"id": 7, "content": "倒垃圾", "when": "周四 21:00"}))
    content：倒垃圾
    when：周四 21:00
    """
    if isinstance(data, str):
        return clean_text(data, max_chars)
    if isinstance(data, Mapping):
        lines = []
        for key, value in data.items():
            if is_id_key(str(key)):
                continue
            if isinstance(value, Sequence) and not isinstance(value, str | bytes) and value \
                    and all(isinstance(v, Mapping) for v in value):
                lines.append(f"{clean_text(str(key), 30)}：")
                lines.extend(f"{i}. {_pairs(v, 1)}" for i, v in enumerate(list(value)[:10], 1))
            else:
                lines.append(f"{clean_text(str(key), 30)}：{_render(value, 1)}")
        text = "\n".join(lines)
    else:
        text = "\n".join(f"{i}. {_render(v, 1)}" for i, v in enumerate(list(data)[:10], 1))
    return text if len(text) <= max_chars else text[: max_chars - 1] + "…"
