"""Structured JSON logs: hashed users, turn ids, no text above debug, no secrets."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot.logs import CHATTY_LOGGERS, JsonFormatter, configure_logging, hash_user, log_turn, turn_context
from bot.settings import Settings
from tests.bot.admin.conftest import make_turn

SECRET = "sk-very-secret-openai-key"


@pytest.fixture
def logged() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter(secrets=[SECRET, "wx-app-secret"], salt="salt"))
    logger = logging.getLogger("wxbot.test.logs")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    yield logger, stream
    logger.removeHandler(handler)


def lines(stream: io.StringIO) -> list[dict]:
    return [json.loads(x) for x in stream.getvalue().splitlines()]


def test_turn_lines_hash_the_user_and_keep_text_at_debug_only(logged) -> None:
    logger, stream = logged
    inbound, result = make_turn(user="oOpenid123", text="我的手机号是13800000000")
    log_turn(logger, inbound, result)
    info, debug = lines(stream)
    assert info["msg"] == "turn" and info["level"] == "info" and info["turn_id"] == "t-m1"
    assert info["user_hash"] == hash_user("oOpenid123", "salt") and "user" not in info
    assert info["stage"] == "rules" and info["intent"] == "datetime.query" and info["llm_calls"] == 0
    assert "13800000000" not in json.dumps(info, ensure_ascii=False) and "text" not in info
    assert debug["level"] == "debug" and debug["text"] == "我的手机号是13800000000"
    logger.setLevel(logging.INFO)
    stream.truncate(0)
    stream.seek(0)
    log_turn(logger, inbound, result)
    assert "13800000000" not in stream.getvalue()


def test_text_fields_are_dropped_above_debug(logged) -> None:
    logger, stream = logged
    logger.warning("engine failed", extra={"text": "私人内容", "reply": "回复", "stage": "rules"})
    (line,) = lines(stream)
    assert "私人内容" not in stream.getvalue() and line["stage"] == "rules" and "reply" not in line


def test_secrets_are_redacted_by_name_and_by_value(logged) -> None:
    logger, stream = logged
    logger.error("calling with key %s", SECRET, extra={"api_key": "whatever", "access_token": "tok",
                                                      "note": f"Bearer {SECRET}"})
    try:
        raise RuntimeError(f"auth failed for wx-app-secret and {SECRET}")
    except RuntimeError:
        logger.exception("boom")
    text = stream.getvalue()
    assert SECRET not in text and "wx-app-secret" not in text and "whatever" not in text and "tok\"" not in text
    first, second = lines(stream)
    assert first["api_key"] == "[redacted]" and first["access_token"] == "[redacted]"
    assert first["msg"] == "calling with key [redacted]" and "RuntimeError" in second["exc"]


def test_turn_context_binds_turn_id_and_user_to_every_record(logged) -> None:
    logger, stream = logged
    with turn_context(turn_id="abc123", user="oUser"):
        logger.info("stage decided", extra={"stage": "rules"})
        with turn_context(skill="dinner"):
            logger.info("skill ran")
    logger.info("outside")
    inside, nested, outside = lines(stream)
    assert inside["turn_id"] == "abc123" and inside["user_hash"] == hash_user("oUser", "salt")
    assert nested["skill"] == "dinner" and nested["turn_id"] == "abc123"
    assert "turn_id" not in outside


def test_configure_logging_scrubs_settings_secrets(monkeypatch) -> None:
    settings = Settings.from_env({"WECHAT_APP_SECRET": "appsecret-xyz", "ADMIN_TOKEN": "admintoken-abc",
                                  "OPENAI_API_KEY": SECRET, "WECHAT_APP_ID": "wxapp"})
    stream = io.StringIO()
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    chatty = {name: logging.getLogger(name).level for name in CHATTY_LOGGERS}  # configure_logging sets them
    try:
        configure_logging(settings, stream=stream)
        logging.getLogger("wxbot.any").warning("token admintoken-abc secret appsecret-xyz key %s", SECRET)
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
        for name, level in chatty.items():
            logging.getLogger(name).setLevel(level)
    line = json.loads(stream.getvalue())
    assert line["msg"] == "token [redacted] secret [redacted] key [redacted]"
