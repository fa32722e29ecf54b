"""deploy/.env.example lists every setting — bot/settings.py's and the ``OPENAI_*`` names the model layer
reads — and nothing that is not one; its values (and the defaults it shows commented) are what Settings
accepts and uses; and every one of them is read from a ``.env`` file exactly as from the environment."""

from __future__ import annotations

import re
import typing
from pathlib import Path
from typing import Any

import pytest

from bot.settings import Settings
from runtime.llm import LLMConfig
from runtime.llm.profiles import env_names

EXAMPLE = Path(__file__).resolve().parents[2] / "deploy" / ".env.example"
DERIVED = {"OPENAI_EXTRA"}  # collected from every OPENAI_* variable
LINE = re.compile(r"^(#?)([A-Z][A-Z0-9_]*)=(.*)$")
FIELDS = {name.upper() for name in Settings.model_fields} - DERIVED
LLM_ONLY = set(env_names()) - FIELDS  # read by runtime/llm/profiles.py, not typed fields of Settings


def _entries() -> dict[str, tuple[bool, str]]:
    """name → (commented out, value) for each ``NAME=value`` or ``#NAME=value`` line."""
    found: dict[str, tuple[bool, str]] = {}
    for line in EXAMPLE.read_text().splitlines():
        if match := LINE.match(line):
            assert match.group(2) not in found, f"{match.group(2)} is listed twice"
            found[match.group(2)] = (match.group(1) == "#", match.group(3))
    return found


def test_every_setting_is_listed_and_every_listed_name_is_a_setting() -> None:
    settings = FIELDS | LLM_ONLY
    listed = set(_entries())
    assert settings - listed == set(), f"missing from deploy/.env.example: {sorted(settings - listed)}"
    assert listed - settings == set(), f"not settings: {sorted(listed - settings)}"


def test_the_commented_lines_show_the_defaults() -> None:
    defaults = Settings.from_env({}, env_file=None)
    shown = {name: value for name, (commented, value) in _entries().items() if commented and value}
    for name in shown.keys() - {"REDIS_SENTINELS", "REDIS_SENTINEL_MASTER", "REDIS_WAIT_REPLICAS"}:  # examples
        parsed = Settings.from_env({name: shown[name]}, env_file=None)
        if name in LLM_ONLY:
            assert LLMConfig.from_env(parsed.llm_env()) == LLMConfig.from_env(defaults.llm_env()), name
        else:
            assert getattr(parsed, name.lower()) == getattr(defaults, name.lower()), name


def test_the_example_as_a_whole_is_valid_settings() -> None:
    values = {name: value for name, (commented, value) in _entries().items() if not commented}
    settings = Settings.from_env(values, env_file=None)
    assert not settings.embedded and settings.unsafe_secret() is not None  # its placeholders must be replaced


# a value other than the default for each setting (what it means does not matter, only that it is read)
_LLM_VALUES = {"BASE_URL": "http://127.0.0.1:9/v1", "API_KEY": "key-from-the-file", "MODEL": "model-from-the-file",
               "TIMEOUT": "7.5", "MAX_TOKENS": "77", "MAX_RETRIES": "2", "TURN_BUDGET": "2.5",
               "FORMAT_REPROBE": "60", "BREAKER_FAILURES": "5", "BREAKER_COOLDOWN": "12"}
_SPECIAL = {"REDIS_SENTINELS": {"REDIS_SENTINELS": "10.0.0.9:26379", "REDIS_SENTINEL_MASTER": "wxbot"},
            "REDIS_SENTINEL_MASTER": {"REDIS_SENTINELS": "10.0.0.9:26379", "REDIS_SENTINEL_MASTER": "other"},
            "METRICS_ADDR": {"METRICS_ADDR": "127.0.0.1:9999"}}


def _other_value(name: str) -> dict[str, str]:
    """``NAME=value`` lines that set ``name`` to something other than its default."""
    if name in _SPECIAL:
        return _SPECIAL[name]
    if name in LLM_ONLY:
        return {name: next(v for key, v in _LLM_VALUES.items() if name.endswith(key))}
    field = Settings.model_fields[name.lower()]
    default: Any = field.get_default(call_default_factory=True)
    kind = typing.get_args(field.annotation) or (field.annotation,)
    if typing.get_origin(field.annotation) is typing.Literal:
        return {name: next(str(c) for c in kind if c != default)}
    if bool in kind:
        return {name: "false" if default else "true"}
    if int in kind:
        return {name: str((default or 1) + 1)}
    if float in kind:
        return {name: str(default / 2)}
    if Path in kind:
        return {name: "/srv/from-the-file"}
    return {name: f"{name.lower()}-from-the-file"}


@pytest.mark.parametrize("name", sorted(_entries()))
def test_each_setting_is_read_from_a_dotenv_file_as_from_the_environment(name: str, tmp_path: Path) -> None:
    lines = _other_value(name)
    dotenv = tmp_path / ".env"
    dotenv.write_text("".join(f"{key}={value}\n" for key, value in lines.items()), encoding="utf-8")
    from_file = Settings.from_env({}, env_file=dotenv)  # an environment with nothing set, and the file
    from_env = Settings.from_env(lines)
    default = Settings.from_env({})
    if name in LLM_ONLY:
        read, exported = LLMConfig.from_env(from_file.llm_env()), LLMConfig.from_env(from_env.llm_env())
        assert read == exported != LLMConfig.from_env(default.llm_env()), name
    else:
        assert getattr(from_file, name.lower()) == getattr(from_env, name.lower()) != getattr(default, name.lower())


def test_the_environment_wins_over_the_file(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("OPENAI_TIMEOUT=9\nWXBOT_TZ=Asia/Tokyo\nopenai_chat_model=from-file\n", encoding="utf-8")
    settings = Settings.from_env({"OPENAI_TIMEOUT": "4", "WXBOT_TZ": "Europe/Paris"}, env_file=dotenv)
    config = LLMConfig.from_env(settings.llm_env())
    assert settings.wxbot_tz == "Europe/Paris" and config.profiles[next(iter(config.profiles))].timeout_s == 4.0
    assert settings.llm_env()["OPENAI_CHAT_MODEL"] == "from-file"  # names are case-insensitive


def test_a_process_reads_the_dotenv_of_its_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``wxbot serve`` does: no mapping, no file named — the process environment over ``./.env``."""
    (tmp_path / ".env").write_text("OPENAI_TOOL_AGENT_MODEL=agent-from-dotenv\nOPENAI_MAX_RETRIES=3\n")
    for name in ("OPENAI_TOOL_AGENT_MODEL", "OPENAI_MAX_RETRIES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    config = LLMConfig.from_env(Settings.from_env().llm_env())
    agent = config.get("tool_agent")
    assert agent is not None and agent.model == "agent-from-dotenv" and agent.max_retries == 3
