"""The LLM layer: one port, prompt profiles, an OpenAI-compatible adapter, a breaker, token accounting.

A model is asked only when code cannot decide; with nothing configured ``build_llm`` returns ``NoLLM``
and no model stage is entered.
"""

from __future__ import annotations

from collections.abc import Mapping

from ._errors import LLMBadOutput, LLMError, LLMRequestRejected, LLMUnavailable, UnavailableReason
from ._nollm import NoLLM
from ._tokens import estimate_completion_tokens, estimate_prompt_tokens, estimate_text_tokens
from ._types import LLM, Completion, Message, ToolCall, ToolSchema, Usage
from .breaker import BreakerState, CircuitBreaker
from .meter import LLMCallRecord, MeteredLLM
from .openai_adapter import OpenAILLM
from .profiles import LLMConfig, LLMProfile, Profile

__all__ = [
    "LLM",
    "BreakerState",
    "CircuitBreaker",
    "Completion",
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
    "Profile",
    "ToolCall",
    "ToolSchema",
    "UnavailableReason",
    "Usage",
    "build_llm",
    "estimate_completion_tokens",
    "estimate_prompt_tokens",
    "estimate_text_tokens",
]


def build_llm(env: Mapping[str, str] | LLMConfig) -> LLM:
    """``OpenAILLM`` when any profile has a model, else ``NoLLM``."""
    config = env if isinstance(env, LLMConfig) else LLMConfig.from_env(env)
    return OpenAILLM(config) if config.any_configured else NoLLM()
