from __future__ import annotations

from runtime.llm import (
    LLMConfig,
    NoLLM,
    OpenAILLM,
    Profile,
    build_llm,
    estimate_prompt_tokens,
    estimate_text_tokens,
)


def test_profiles_share_defaults_and_take_per_profile_overrides() -> None:
    config = LLMConfig.from_env(
        {
            "OPENAI_BASE_URL": "http://llm.local/v1/",
            "OPENAI_API_KEY": "k-shared",
            "OPENAI_MODEL": "qwen-small",
            "OPENAI_CHAT_MODEL": "qwen-chat",
            "OPENAI_TOOL_AGENT_BASE_URL": "http://agent.local/v1",
            "OPENAI_TOOL_AGENT_API_KEY": "k-agent",
            "OPENAI_INTENT_ROUTING_TIMEOUT": "2.5",
            "OPENAI_SUMMARY_MAX_TOKENS": "77",
        }
    )
    routing = config.profiles[Profile.INTENT_ROUTING]
    chat = config.profiles[Profile.CHAT]
    agent = config.profiles[Profile.TOOL_AGENT]
    summary = config.profiles[Profile.SUMMARY]
    assert routing.model == "qwen-small" and routing.timeout_s == 2.5
    assert routing.base_url == "http://llm.local/v1"
    assert chat.model == "qwen-chat" and chat.api_key.get_secret_value() == "k-shared"
    assert agent.base_url == "http://agent.local/v1" and agent.api_key.get_secret_value() == "k-agent"
    assert summary.max_tokens == 77
    assert routing.max_tokens < chat.max_tokens  # routing answers are terse


def test_secrets_never_appear_in_repr() -> None:
    config = LLMConfig.from_env({"OPENAI_API_KEY": "sk-very-secret", "OPENAI_MODEL": "m"})
    assert "sk-very-secret" not in repr(config)
    assert "sk-very-secret" not in str(config.model_dump())


def test_nothing_configured_gives_no_llm() -> None:
    llm = build_llm({})
    assert isinstance(llm, NoLLM)
    assert not any(llm.is_configured(p) for p in Profile)
    assert isinstance(build_llm({"OPENAI_CHAT_MODEL": "only-chat"}), OpenAILLM)


def test_only_profiles_with_a_model_are_configured() -> None:
    llm = build_llm({"OPENAI_CHAT_MODEL": "only-chat", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"})
    assert llm.is_configured("chat")
    assert not llm.is_configured("intent_routing")
    assert not llm.is_configured("no-such-profile")


def test_token_estimate_counts_cjk_per_char_and_other_text_per_four_chars() -> None:
    assert estimate_text_tokens("提醒我倒垃圾") == 6
    assert estimate_text_tokens("hello world!") == 3
    assert estimate_text_tokens("明天 9:30am") == 2 + 2  # 2 CJK + ceil(7 / 4)
    assert estimate_text_tokens("") == 0


def test_prompt_estimate_includes_message_framing_and_tool_schemas() -> None:
    messages = [{"role": "user", "content": "你好"}]
    bare = estimate_prompt_tokens(messages)
    assert bare == 3 + 4 + 2
    tool = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}
    assert estimate_prompt_tokens(messages, [tool]) > bare + 10


def test_env_names_are_exactly_what_the_config_reads() -> None:
    """``deploy/.env.example`` is checked against :func:`env_names`; this keeps the list honest."""
    from runtime.llm.profiles import env_names

    asked: set[str] = set()

    class Recording(dict[str, str]):
        def get(self, key: str, default: str | None = None) -> str | None:  # type: ignore[override]
            asked.add(key)
            return super().get(key, default)

    LLMConfig.from_env(Recording())
    assert asked == set(env_names())
