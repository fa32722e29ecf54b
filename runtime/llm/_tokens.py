"""Token estimates for providers that return no ``usage``.

The estimate is deliberately simple and documented rather than tokenizer-exact:

* every CJK character (Han, kana, hangul, CJK punctuation, full-width forms) counts as 1 token —
  common BPE vocabularies for Chinese average 0.6-1.5 tokens per character;
* every other run of text counts as ``ceil(len / 4)`` tokens (the usual English rule of thumb);
* every chat message adds 4 tokens of framing, and a reply adds 3 (OpenAI's published overhead);
* tool schemas are counted as their compact JSON text.

Figures computed this way are flagged ``estimated=True`` wherever they are reported.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["estimate_completion_tokens", "estimate_prompt_tokens", "estimate_text_tokens"]

MESSAGE_OVERHEAD = 4
REPLY_OVERHEAD = 3

_CJK_RANGES = (
    (0x2E80, 0x9FFF),  # radicals, CJK punctuation, kana, CJK ideographs
    (0xAC00, 0xD7AF),  # hangul
    (0xF900, 0xFAFF),  # compatibility ideographs
    (0xFF00, 0xFFEF),  # full-width forms
    (0x20000, 0x2FA1F),  # extension B+
)


_CJK = re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _CJK_RANGES) + "]")


def estimate_text_tokens(text: str) -> int:
    """Estimate the tokens of one piece of text: CJK chars 1 each, other text 4 chars per token."""
    cjk = len(_CJK.findall(text))
    return cjk + math.ceil((len(text) - cjk) / 4)


def _content_text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    # multi-part content: keep the text parts
    if isinstance(content, list):
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
    return str(content)


def estimate_prompt_tokens(
    messages: Sequence[Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]] | None = None,
    response_format: Mapping[str, Any] | None = None,
) -> int:
    """Estimate the prompt tokens of a chat request (messages, tool schemas and response format)."""
    total = REPLY_OVERHEAD
    for message in messages:
        total += MESSAGE_OVERHEAD + estimate_text_tokens(_content_text(message.get("content")))
        for call in message.get("tool_calls") or ():
            total += estimate_text_tokens(json.dumps(call, ensure_ascii=False, separators=(",", ":")))
    for tool in tools or ():
        total += estimate_text_tokens(json.dumps(tool, ensure_ascii=False, separators=(",", ":")))
    if response_format:
        total += estimate_text_tokens(json.dumps(response_format, ensure_ascii=False, separators=(",", ":")))
    return total


def estimate_completion_tokens(content: str | None, tool_call_texts: Sequence[str] = ()) -> int:
    """Estimate the completion tokens of a reply (its text plus the raw tool-call names and arguments)."""
    return estimate_text_tokens(content or "") + sum(estimate_text_tokens(t) for t in tool_call_texts)
