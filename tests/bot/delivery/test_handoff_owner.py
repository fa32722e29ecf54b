"""One module owns the passive-reply hand-off, and the worker's turn reaches delivery through one
object: checked on the source, so a script that writes the hand-off cannot grow back elsewhere."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
# the hand-off hash's fields and the user's flag naming the open passive reply, as Lua names them
FIELDS = ("'state'", "'attempts'", "'offer_by'", "'claim_by'", "'taker'", "'taker_arrived'", "'write_by'",
          "'offered'")


def _sources() -> dict[str, str]:
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in sorted((ROOT / "bot").rglob("*.py"))}


def test_every_script_that_writes_the_hand_off_is_in_its_one_module() -> None:
    writers = {path for path, text in _sources().items() if any(f in text for f in FIELDS)}
    assert writers == {"bot/delivery/_handoff_lua.py"}


def test_only_the_hand_off_module_imports_its_scripts() -> None:
    importers = {path for path, text in _sources().items()
                 if re.search(r"^\s*(from|import)\s.*_handoff_lua", text, re.MULTILINE)}
    assert importers == {"bot/delivery/handoff.py"}


def test_the_turn_calls_delivery_once_and_drives_the_object_it_returns() -> None:
    turn = (ROOT / "bot" / "worker" / "_turn.py").read_text(encoding="utf-8")
    assert set(re.findall(r"rt\.delivery\.(\w+)", turn)) == {"for_turn"}
    for internal in ("handoff", "TranscribedDelivery", "DeliveryStore", "on_user_message", "Started"):
        assert internal not in turn
