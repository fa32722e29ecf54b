"""Settings from the environment (or a ``.env`` file), injected — never read from module globals."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.redis_client import RedisTarget, parse_sentinels

# Values the documentation and the defaults use as stand-ins; `wxbot serve` refuses them outside
# embedded mode (deploy/.env.example's placeholders are all here: a test checks it).
PLACEHOLDERS = frozenset({"change-me", "changeme", "wxbot-dev-token", "secret", "token", "password"})
MIN_SECRET_LEN = 16
_CHOOSE = ("set a random value of 16-32 letters and digits (e.g. `openssl rand -hex 16`); "
           "only embedded mode (no REDIS_URL) accepts it")


def read_env_file(path: str | Path) -> dict[str, str]:
    """``NAME=value`` lines of a dotenv file (python-dotenv's reading: quotes, ``export``, comments), names
    upper-cased; a missing file is empty."""
    from dotenv import dotenv_values

    if not Path(path).is_file():
        return {}
    return {k.upper(): v for k, v in dotenv_values(path, encoding="utf-8").items() if v is not None}


class Settings(BaseSettings):
    """Everything a wxbot process can be configured with. Empty URLs mean "embedded"."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore",
                                      case_sensitive=False)

    redis_url: str = ""
    # Redis Sentinel (fail-over): "host:port,host:port" of the sentinels and the name of the master they
    # watch; REDIS_URL then only gives the data servers' user, password and DB (bot/_redis_target.py)
    redis_sentinels: str = ""
    redis_sentinel_master: str = Field(default="", validate_default=True)
    redis_sentinel_password: str = ""  # the sentinels' own requirepass, if any
    # the webhook answers 200 only once this many replicas hold the message (default: 1 with Sentinel)
    redis_wait_replicas: int | None = Field(default=None, ge=0)
    redis_wait_timeout_ms: int = Field(default=500, ge=1)
    database_url: str = ""
    data_dir: Path = Path(".wxbot")
    wxbot_tz: str = "Asia/Shanghai"
    context_idle_ttl: int = Field(default=30 * 24 * 3600, ge=60)
    db_upgrade_on_start: bool = True  # false: a process refuses to start while the schema is behind

    wechat_token: str = "wxbot-dev-token"
    wechat_app_id: str = ""
    wechat_app_secret: str = ""
    wechat_aes_key: str = ""
    wechat_api_base: str = "https://api.weixin.qq.com"
    wechat_api_timeout: float = 5.0  # seconds a WeChat API call may take (a send past it is uncertain)
    wechat_template_id: str = ""
    wechat_mode: Literal["", "plain", "compatible", "safe"] = ""  # "" = compatible when an AES key is set
    wechat_subscribe_template_id: str = ""
    wechat_template_field: str = "content"
    wechat_subscribe_field: str = "thing1"
    passive_wait_seconds: float = Field(default=4.5, gt=0, le=4.9)
    max_body_bytes: int = 64 * 1024

    openai_base_url: str = ""
    openai_api_key: str = ""
    openai_model: str = ""
    openai_turn_budget: float = Field(default=3.0, gt=0, le=30)  # model seconds per turn, one retry included
    openai_extra: dict[str, str] = Field(default_factory=dict)

    admin_token: str = ""
    # /metrics without a token on a listener of its own (host:port, e.g. 127.0.0.1:9108); on the web
    # port /metrics always needs ADMIN_TOKEN as a Bearer header
    metrics_addr: str = ""
    # the proxies whose X-Forwarded-For/-Proto the web process believes (nginx on the same host)
    forwarded_allow_ips: str = "127.0.0.1"
    log_format: Literal["json", "text"] = "json"
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    weather_base_url: str = "https://api.open-meteo.com"
    weather_geocoding_url: str = "https://geocoding-api.open-meteo.com"
    weather_fake: bool = False
    intent_model: bool = True
    rate_limit_per_minute: int = 30
    transcript_max_len: int = 2000
    transcript_max_age_days: int = 30

    @field_validator("metrics_addr")
    @classmethod
    def _metrics_addr_is_host_port(cls, value: str) -> str:
        if value.strip():
            host, sep, port = value.strip().rpartition(":")
            if not sep or not host or not port.isdigit():
                raise ValueError("METRICS_ADDR is host:port, e.g. 127.0.0.1:9108")
        return value.strip()

    @field_validator("redis_sentinels")
    @classmethod
    def _sentinels_are_addresses(cls, value: str) -> str:
        parse_sentinels(value)
        return value

    @field_validator("redis_sentinel_master")
    @classmethod
    def _sentinels_need_a_master(cls, value: str, info: ValidationInfo) -> str:
        if info.data.get("redis_sentinels") and not value.strip():
            raise ValueError("REDIS_SENTINELS is set: name the master they watch in REDIS_SENTINEL_MASTER")
        return value.strip()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, env_file: str | Path | None = None) -> Settings:
        """Settings from one source: the environment over a dotenv file, merged before anything is read.

        ``env``: the environment (default: the process's); ``env_file``: the file beneath it (default:
        ``.env`` in the working directory under the process's environment, none under a given mapping).
        Every setting is read from the merged mapping alike — the typed fields and the ``OPENAI_*``
        family the model layer reads (``OPENAI_<PROFILE>_MODEL``, ``OPENAI_TIMEOUT`` …, collected into
        ``openai_extra``); names are case-insensitive and the environment wins over the file."""
        import os

        merged: dict[str, str] = {}
        source = env_file if env_file is not None else (".env" if env is None else None)
        if source is not None:
            merged.update(read_env_file(source))
        merged.update({k.upper(): v for k, v in (os.environ if env is None else env).items()})
        fields: dict[str, Any] = {name: merged[name.upper()] for name in cls.model_fields if name.upper() in merged}
        fields["openai_extra"] = {k: v for k, v in merged.items() if k.startswith("OPENAI_")}
        # validated from the merged mapping alone: BaseSettings' own reading would consult the process
        # environment again for a setting the mapping leaves out
        return cls.model_validate(fields)

    @property
    def embedded(self) -> bool:
        """True when no Redis server is configured: everything runs in one process."""
        return not self.redis_url and not self.redis_sentinels

    def unsafe_secret(self) -> str | None:
        """Why this configuration must not face the internet, in one line naming the setting; None
        when it may. Embedded (development) mode is never refused."""
        if self.embedded:
            return None
        checks = (("WECHAT_TOKEN", self.wechat_token, True), ("ADMIN_TOKEN", self.admin_token, False))
        for name, value, required in checks:
            if not value and not required:
                continue
            if value.strip().lower() in PLACEHOLDERS:
                return f"{name} is the placeholder {value!r}: {_CHOOSE}"
            if len(value) < MIN_SECRET_LEN:
                return f"{name} has {len(value)} characters, fewer than {MIN_SECRET_LEN}: {_CHOOSE}"
        if self.wechat_app_secret.strip().lower() in PLACEHOLDERS:
            return (f"WECHAT_APP_SECRET is the placeholder {self.wechat_app_secret!r}: copy the AppSecret "
                    "from mp.weixin.qq.com (设置与开发 → 基本配置)")
        return None

    def redis_target(self) -> RedisTarget:
        """Where the Redis server is (a URL, or Sentinel's master); meaningless when embedded."""
        sentinels = parse_sentinels(self.redis_sentinels)
        wait = self.redis_wait_replicas if self.redis_wait_replicas is not None else (1 if sentinels else 0)
        return RedisTarget(url=self.redis_url, sentinels=sentinels, master=self.redis_sentinel_master,
                           sentinel_password=self.redis_sentinel_password, wait_replicas=wait,
                           wait_timeout_ms=self.redis_wait_timeout_ms)

    def database(self) -> str:
        """The SQL URL: ``DATABASE_URL`` or an SQLite file under the data directory."""
        if self.database_url:
            return self.database_url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{(self.data_dir / 'wxbot.db').resolve()}"

    def llm_env(self) -> dict[str, str]:
        """The OPENAI_* settings for the LLM layer (``runtime.llm.LLMConfig.from_env``), the typed ones
        and every other ``OPENAI_*`` of the same source (per-profile overrides, timeouts, retries)."""
        env = dict(self.openai_extra)
        for key, value in (("OPENAI_BASE_URL", self.openai_base_url), ("OPENAI_API_KEY", self.openai_api_key),
                           ("OPENAI_MODEL", self.openai_model)):
            if value:
                env[key] = value
        env["OPENAI_TURN_BUDGET"] = str(self.openai_turn_budget)
        return env
