"""Prompt profiles: each one has its own endpoint, key, model, timeout and output budget.

Built from an injected environment mapping (never ``os.environ`` directly)::

    OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL         shared defaults
    OPENAI_TIMEOUT, OPENAI_MAX_RETRIES                     shared defaults
    OPENAI_<PROFILE>_BASE_URL / _API_KEY / _MODEL          per-profile overrides
    OPENAI_<PROFILE>_TIMEOUT / _MAX_TOKENS                 (PROFILE = INTENT_ROUTING, CHAT, TOOL_AGENT, SUMMARY)
    OPENAI_TURN_BUDGET                                     model seconds per turn, all calls (default 3)
    OPENAI_FORMAT_REPROBE                                  seconds a refused output format is avoided (600)
    OPENAI_BREAKER_FAILURES, OPENAI_BREAKER_COOLDOWN       failures in a row that open an endpoint's
                                                           breaker (3), seconds it stays open (30)

A profile's timeout caps one call; within a turn every call also fits the turn's budget
(``runtime.llm.budget``), which allows one retry across the turn's calls.

A profile is configured when it has a model; a missing base URL means the OpenAI API, a missing key
is allowed (local servers such as Ollama or vLLM ignore it).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from .budget import DEFAULT_TURN_BUDGET_S
from .formats import DEFAULT_REPROBE_S

__all__ = ["LLMConfig", "LLMProfile", "Profile", "env_names"]

DEFAULT_BASE_URL = "https://api.openai.com/v1"
PROFILE_KEYS = ("BASE_URL", "API_KEY", "MODEL", "TIMEOUT", "MAX_TOKENS", "MAX_RETRIES")  # shared or per profile
TURN_KEYS = ("TURN_BUDGET", "FORMAT_REPROBE", "BREAKER_FAILURES", "BREAKER_COOLDOWN")  # shared only


class Profile(StrEnum):
    """The prompt profiles wxbot uses."""

    INTENT_ROUTING = "intent_routing"
    CHAT = "chat"
    TOOL_AGENT = "tool_agent"
    SUMMARY = "summary"


# (timeout seconds, max output tokens, temperature): routing must be fast and terse; inside a turn
# every call is further capped by what is left of the turn's budget.
_DEFAULTS: dict[Profile, tuple[float, int, float]] = {
    Profile.INTENT_ROUTING: (2.0, 120, 0.0),
    Profile.CHAT: (3.0, 200, 0.7),
    Profile.TOOL_AGENT: (3.0, 300, 0.2),
    Profile.SUMMARY: (10.0, 300, 0.0),
}


def env_names() -> tuple[str, ...]:
    """Every environment name :meth:`LLMConfig.from_env` reads (``deploy/.env.example`` lists them)."""
    shared = tuple(f"OPENAI_{key}" for key in (*PROFILE_KEYS, *TURN_KEYS))
    return shared + tuple(f"OPENAI_{profile.name}_{key}" for profile in Profile for key in PROFILE_KEYS)


class LLMProfile(BaseModel):
    """The settings of one prompt profile."""

    model_config = ConfigDict(frozen=True)

    name: Profile
    model: str = ""
    base_url: str = DEFAULT_BASE_URL
    api_key: SecretStr = SecretStr("")
    timeout_s: float = Field(default=8.0, gt=0)
    max_tokens: int = Field(default=200, gt=0)
    max_retries: int = Field(default=1, ge=0, le=3)
    temperature: float = Field(default=0.2, ge=0, le=2)

    @property
    def configured(self) -> bool:
        """True when a model name is set."""
        return bool(self.model)


class LLMConfig(BaseModel):
    """All prompt profiles."""

    model_config = ConfigDict(frozen=True)

    profiles: dict[Profile, LLMProfile]
    turn_budget_s: float = Field(default=DEFAULT_TURN_BUDGET_S, gt=0, le=30)
    format_reprobe_s: float = Field(default=DEFAULT_REPROBE_S, ge=0)
    breaker_failures: int = Field(default=3, ge=1)
    breaker_cooldown_s: float = Field(default=30.0, ge=0)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> LLMConfig:
        """Build every profile from an environment mapping (shared values, then per-profile overrides)."""

        def pick(profile: Profile, key: str) -> str:
            specific = env.get(f"OPENAI_{profile.name}_{key}", "").strip()
            return specific or env.get(f"OPENAI_{key}", "").strip()

        profiles: dict[Profile, LLMProfile] = {}
        for profile in Profile:
            timeout, max_tokens, temperature = _DEFAULTS[profile]
            profiles[profile] = LLMProfile(
                name=profile,
                model=pick(profile, "MODEL"),
                base_url=(pick(profile, "BASE_URL") or DEFAULT_BASE_URL).rstrip("/"),
                api_key=SecretStr(pick(profile, "API_KEY")),
                timeout_s=float(pick(profile, "TIMEOUT") or timeout),
                max_tokens=int(pick(profile, "MAX_TOKENS") or max_tokens),
                max_retries=int(pick(profile, "MAX_RETRIES") or 1),
                temperature=temperature,
            )
        return cls(profiles=profiles,
                   turn_budget_s=float(env.get("OPENAI_TURN_BUDGET", "").strip() or DEFAULT_TURN_BUDGET_S),
                   format_reprobe_s=float(env.get("OPENAI_FORMAT_REPROBE", "").strip() or DEFAULT_REPROBE_S),
                   breaker_failures=int(env.get("OPENAI_BREAKER_FAILURES", "").strip() or 3),
                   breaker_cooldown_s=float(env.get("OPENAI_BREAKER_COOLDOWN", "").strip() or 30.0))

    def get(self, profile: str) -> LLMProfile | None:
        """The profile named ``profile``, or None for an unknown name."""
        try:
            return self.profiles.get(Profile(profile))
        except ValueError:
            return None

    @property
    def any_configured(self) -> bool:
        """True when at least one profile has a model."""
        return any(p.configured for p in self.profiles.values())
