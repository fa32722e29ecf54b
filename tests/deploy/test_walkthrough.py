"""The commands of deploy/README.md's walk-through (bare Debian 12 → https://<domain>/wechat) do what it
says with the files as shipped: the settings step makes an env file `wxbot serve` accepts, the install
script has the options it uses, the nginx step names the certificate certbot writes, and the endpoint
check signs like WeChat."""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

from bot.settings import Settings
from bot.wechat.crypto import WebhookSecrets, check_signature

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "deploy" / "README.md").read_text()


def _bash(script: str, **env: str) -> str:
    return subprocess.run(["bash", "-euo", "pipefail", "-c", script], env={"PATH": "/usr/bin:/bin", **env},
                          capture_output=True, text=True, timeout=30, check=True).stdout


def _lines(prefix: str) -> list[str]:
    return [line.strip() for line in README.splitlines() if line.strip().startswith(prefix)]


def test_the_settings_step_makes_an_env_file_serve_accepts(tmp_path: Path) -> None:
    env = tmp_path / "env"
    env.write_text((ROOT / "deploy" / ".env.example").read_text())
    seds = [line for line in _lines("sed -i ") if "$ENV" in line]
    assert len(seds) == 3, seds
    _bash("\n".join(seds), ENV=str(env), DB_PASSWORD="0f" * 16)
    values = dict(re.findall(r"^([A-Z_]+)=(.*)$", env.read_text(), re.M))
    assert values["DATABASE_URL"] == f"postgresql+psycopg://wxbot:{'0f' * 16}@127.0.0.1:5432/wxbot"
    assert re.fullmatch(r"[0-9a-f]{32}", values["WECHAT_TOKEN"]) and re.fullmatch(r"[0-9a-f]{32}",
                                                                                  values["ADMIN_TOKEN"])
    settings = Settings.from_env(values)
    assert settings.unsafe_secret() is not None and "WECHAT_APP_SECRET" in str(settings.unsafe_secret())
    edited = Settings.from_env(values | {"WECHAT_APP_SECRET": "0123456789abcdef0123456789abcdef"})
    assert edited.unsafe_secret() is None  # after the editor step, nothing left to refuse


def test_the_install_options_it_uses_exist() -> None:
    usage = (ROOT / "deploy" / "install.sh").read_text()
    for option in ("--no-migrate", "--only"):
        assert option in README and f"{option})" in usage, option
    assert "install.sh --only migrate" in README and "migrate" in re.search(r'STEPS="([^"]+)"', usage).group(1)


def test_the_nginx_step_points_at_the_certificate_certbot_writes(tmp_path: Path) -> None:
    command = next(line for line in _lines("sed \"s/bot") if "wxbot.conf" in line).removesuffix("\\").strip()
    site = _bash(command.replace("/usr/local/src/wxbot", str(ROOT)), DOMAIN="wx.example.org")
    assert "bot.example.com" not in site
    assert "ssl_certificate     /etc/letsencrypt/live/wx.example.org/fullchain.pem;" in site
    assert "ssl_certificate_key /etc/letsencrypt/live/wx.example.org/privkey.pem;" in site
    assert site.count("server_name wx.example.org;") == 2
    assert any('certbot certonly --standalone -d "$DOMAIN"' in line for line in _lines("certbot"))


def test_the_endpoint_check_signs_like_wechat() -> None:
    token, stamp, nonce = "0123456789abcdef0123456789abcdef", str(int(time.time())), "12345"
    signature = _bash(_lines("SIG=")[0] + '\necho "$SIG"', TOKEN=token, TS=stamp, NONCE=nonce).strip()
    secrets = WebhookSecrets(token=token, app_id="wx", aes_key=None, mode="plain")
    check_signature(secrets, {"signature": signature, "timestamp": stamp, "nonce": nonce})  # raises when wrong
