"""`wxbot serve` outside embedded mode refuses a documented placeholder or a short token, with one
line on stderr naming the setting; embedded (development) mode accepts them."""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import pytest

from bot.cli import main
from bot.settings import MIN_SECRET_LEN, PLACEHOLDERS, Settings

ROOT = Path(__file__).resolve().parents[3]
GOOD = "0123456789abcdef0123456789abcdef"
SERVER = {"REDIS_URL": "redis://127.0.0.1:1/0"}  # never reached: the refusal comes first


def _serve(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
           **env: str) -> tuple[int, str]:
    """``wxbot serve`` as the command line runs it, in this process (the refusal comes before anything
    starts); its exit code and stderr."""
    for name in list(os.environ):
        if name.startswith(("WECHAT_", "ADMIN_", "REDIS_")):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)  # no .env file
    for name, value in (env | {"DATA_DIR": str(tmp_path / "data")}).items():
        monkeypatch.setenv(name, value)
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    code = main(["serve", "--port", "1"])
    # run in a program of its own's place, the command gives the signals back as it found them
    assert {sig: signal.getsignal(sig) for sig in handlers} == handlers
    return code, capsys.readouterr().err


@pytest.mark.parametrize(("env", "setting"), [
    ({}, "WECHAT_TOKEN"),  # the built-in development default
    ({"WECHAT_TOKEN": "change-me"}, "WECHAT_TOKEN"),
    ({"WECHAT_TOKEN": "short-token"}, "WECHAT_TOKEN"),
    ({"WECHAT_TOKEN": GOOD, "ADMIN_TOKEN": "change-me"}, "ADMIN_TOKEN"),
    ({"WECHAT_TOKEN": GOOD, "ADMIN_TOKEN": "x" * (MIN_SECRET_LEN - 1)}, "ADMIN_TOKEN"),
    ({"WECHAT_TOKEN": GOOD, "WECHAT_APP_SECRET": "change-me"}, "WECHAT_APP_SECRET"),
])
def test_serve_refuses_a_placeholder_or_short_token_outside_embedded_mode(
        env: dict[str, str], setting: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    code, err = _serve(monkeypatch, capsys, tmp_path, **SERVER, **env)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"wxbot serve: {setting} "), err
    for value in env.values():
        if value.lower() not in PLACEHOLDERS:
            assert value not in err  # a real (if short) secret is not echoed


def test_good_tokens_pass_and_embedded_mode_accepts_the_development_defaults() -> None:
    assert Settings.from_env(SERVER | {"WECHAT_TOKEN": GOOD, "ADMIN_TOKEN": GOOD[::-1]}).unsafe_secret() is None
    assert Settings.from_env(SERVER | {"WECHAT_TOKEN": GOOD}).unsafe_secret() is None  # no admin surface
    assert Settings.from_env({}).unsafe_secret() is None
    assert Settings.from_env({"WECHAT_TOKEN": "change-me", "ADMIN_TOKEN": "x"}).unsafe_secret() is None


def test_every_placeholder_the_env_example_ships_is_refused() -> None:
    example = (ROOT / "deploy" / ".env.example").read_text()
    values = dict(re.findall(r"^#?\s*([A-Z_]*(?:TOKEN|SECRET))=(\S*)", example, re.M))
    assert {"WECHAT_TOKEN", "ADMIN_TOKEN", "WECHAT_APP_SECRET"} <= set(values)
    for name, value in values.items():
        assert value.lower() in PLACEHOLDERS, (name, value)
