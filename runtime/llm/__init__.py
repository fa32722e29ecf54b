"""The LLM layer: one port, prompt profiles, an OpenAI-compatible adapter, a breaker, token accounting,
the per-turn model-time budget and the check every model text passes before a user sees it.

A model is asked only when code cannot decide; with nothing configured ``build_llm`` returns ``NoLLM``
and no model stage is entered. Every failure is a typed ``LLMError``: the caller gives the answer the
turn would have had without a model. See docs/llm.md.
"""

from __future__ import annotations

from collections.abc import Mapping

from ._errors import LLMBadOutput, LLMError, LLMRequestRejected, LLMUnavailable, UnavailableReason, trace_kind
from ._nollm import NoLLM
from ._shape import check_shape
from ._tokens import estimate_completion_tokens, estimate_prompt_tokens, estimate_text_tokens
from ._types import LLM, Completion, Message, ToolCall, ToolSchema, Usage
from .breaker import BreakerState, CircuitBreaker
from .budget import DEFAULT_TURN_BUDGET_S, TurnDeadline
from .checker import CheckedReply, check_reply
from .formats import FormatMemory, OutputMode
from .meter import LLMCallRecord, MeteredLLM
from .openai_adapter import OpenAILLM
from .profiles import LLMConfig, LLMProfile, Profile

__all__ = [
    "DEFAULT_TURN_BUDGET_S",
    "LLM",
    "BreakerState",
    "CheckedReply",
    "CircuitBreaker",
    "Completion",
    "FormatMemory",
    "LLMBadOutput",
    "LLMCallRecord",
    "LLMConfig",
    "LLMError",
    "LLMProfile",
    "LLMRequestRejected",
    "LLMUnavailable",
    "Message",
    "MeteredLLM",
    "NoLLM",
    "OpenAILLM",
    "OutputMode",
    "Profile",
    "ToolCall",
    "ToolSchema",
    "TurnDeadline",
    "UnavailableReason",
    "Usage",
    "build_llm",
    "check_reply",
    "check_shape",
    "estimate_completion_tokens",
    "estimate_prompt_tokens",
    "estimate_text_tokens",
    "trace_kind",
]


def build_llm(env: Mapping[str, str] | LLMConfig) -> LLM:
    """``OpenAILLM`` when any profile has a model, else ``NoLLM``."""
    config = env if isinstance(env, LLMConfig) else LLMConfig.from_env(env)
    return OpenAILLM(config) if config.any_configured else NoLLM()
