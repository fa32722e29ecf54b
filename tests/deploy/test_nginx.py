"""deploy/nginx/wxbot.conf as shipped: accepted by Debian 12's nginx 1.22 (``nginx -t``), within the
directive subset that nginx 1.22 through current releases all accept, and /metrics never proxied.

``nginx -t`` runs when nginx is installed (``apt-get install nginx``; .ci/run installs it, and in CI a
missing nginx fails the test); the subset check runs everywhere.
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.harness.pg import in_ci

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "deploy" / "nginx" / "wxbot.conf"
# Every directive the site may use: known to nginx 1.22 (Debian 12) and still accepted by 1.24–1.27
# (Ubuntu 24.04 LTS and later). `http2 on;` (1.25.1+) is not among them: Debian 12 rejects it.
DIRECTIVES_1_22 = frozenset({
    "upstream", "server", "keepalive", "listen", "server_name", "location", "root", "return",
    "ssl_certificate", "ssl_certificate_key", "ssl_protocols", "ssl_session_cache", "ssl_session_timeout",
    "ssl_ciphers", "ssl_prefer_server_ciphers", "add_header", "client_max_body_size", "client_body_timeout",
    "proxy_pass", "proxy_http_version", "proxy_set_header", "proxy_read_timeout", "proxy_buffering",
    "allow", "deny", "access_log", "error_log",
})


def _directives(conf: str) -> list[str]:
    text = re.sub(r"#[^\n]*", "", conf)
    return re.findall(r"(?:^|[{;}])\s*([a-z_0-9]+)\b", text)


def test_the_site_uses_only_directives_that_nginx_1_22_knows() -> None:
    conf = SITE.read_text()
    used = set(_directives(conf))
    assert used <= DIRECTIVES_1_22, sorted(used - DIRECTIVES_1_22)
    assert "http2 on" not in re.sub(r"#[^\n]*", "", conf)
    assert re.search(r"^\s*listen 443 ssl http2;", conf, re.M)


def test_metrics_is_not_proxied_and_everything_unknown_is_404() -> None:
    conf = re.sub(r"#[^\n]*", "", SITE.read_text())
    locations = dict(re.findall(r"location ([^{]+?) \{([^}]*)\}", conf))
    assert not any("metrics" in where for where in locations), locations
    assert "return 404" in locations["/"]
    for where, body in locations.items():  # whatever reaches the app says how it was reached
        if "proxy_pass" in body:
            assert "proxy_set_header X-Forwarded-Proto $scheme;" in body, where


def _self_signed(directory: Path) -> tuple[Path, Path]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "bot.example.com")])
    now = dt.datetime.now(dt.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now)
            .not_valid_after(now + dt.timedelta(days=1)).sign(key, hashes.SHA256()))
    cert_path, key_path = directory / "fullchain.pem", directory / "privkey.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def test_nginx_accepts_the_site_as_shipped(tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)
    if nginx is None:
        if in_ci():
            pytest.fail("CI needs nginx for `nginx -t` (apt-get install nginx; .ci/run does it)", pytrace=False)
        pytest.skip("nginx not installed (apt-get install nginx): `nginx -t` did not run; the subset check did")
    cert, key = _self_signed(tmp_path)
    site = SITE.read_text().replace("/etc/letsencrypt/live/bot.example.com/fullchain.pem", str(cert))
    site = site.replace("/etc/letsencrypt/live/bot.example.com/privkey.pem", str(key))
    assert str(cert) in site and str(key) in site, "the certificate paths moved: update this test"
    (tmp_path / "wxbot.conf").write_text(site)
    main = tmp_path / "nginx.conf"
    main.write_text(f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
                    f"http {{\n  access_log off;\n  include {tmp_path}/wxbot.conf;\n}}\n")
    out = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c", str(main), "-e", str(tmp_path / "error.log")],
                         capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 0, out.stderr
    assert "syntax is ok" in out.stderr and "[warn]" not in out.stderr, out.stderr
