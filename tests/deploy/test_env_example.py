"""deploy/.env.example lists every setting of bot/settings.py, and nothing that is not one; its values
(and the defaults it shows commented) are what Settings accepts and uses."""

from __future__ import annotations

import re
from pathlib import Path

from bot.settings import Settings

EXAMPLE = Path(__file__).resolve().parents[2] / "deploy" / ".env.example"
DERIVED = {"OPENAI_EXTRA"}  # collected from every OPENAI_* variable (documented in a comment there)
LINE = re.compile(r"^(#?)([A-Z][A-Z0-9_]*)=(.*)$")


def _entries() -> dict[str, tuple[bool, str]]:
    """name → (commented out, value) for each ``NAME=value`` or ``#NAME=value`` line."""
    found: dict[str, tuple[bool, str]] = {}
    for line in EXAMPLE.read_text().splitlines():
        if match := LINE.match(line):
            assert match.group(2) not in found, f"{match.group(2)} is listed twice"
            found[match.group(2)] = (match.group(1) == "#", match.group(3))
    return found


def test_every_setting_is_listed_and_every_listed_name_is_a_setting() -> None:
    settings = {name.upper() for name in Settings.model_fields} - DERIVED
    listed = set(_entries())
    assert settings - listed == set(), f"missing from deploy/.env.example: {sorted(settings - listed)}"
    assert listed - settings == set(), f"not settings: {sorted(listed - settings)}"


def test_the_commented_lines_show_the_defaults() -> None:
    defaults = Settings.from_env({}, env_file=None)
    shown = {name: value for name, (commented, value) in _entries().items() if commented and value}
    for name in shown.keys() - {"REDIS_SENTINELS", "REDIS_SENTINEL_MASTER", "REDIS_WAIT_REPLICAS"}:  # examples
        parsed = Settings.from_env({name: shown[name]}, env_file=None)
        assert getattr(parsed, name.lower()) == getattr(defaults, name.lower()), name


def test_the_example_as_a_whole_is_valid_settings() -> None:
    values = {name: value for name, (commented, value) in _entries().items() if not commented}
    settings = Settings.from_env(values, env_file=None)
    assert not settings.embedded and settings.unsafe_secret() is not None  # its placeholders must be replaced
