"""Keep the embedded context store in a directory between ``wxbot chat --state DIR`` runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FILE = "contexts.json"


def save_state(store: Any, directory: Path) -> None:
    """Write every context blob of an in-memory store to ``directory``."""
    blobs = getattr(store, "_blobs", None)
    if blobs is None:
        return
    data = {user: {"version": version, "blob": blob} for user, (version, blob) in blobs.items()}
    (directory / FILE).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def load_state(store: Any, directory: Path) -> None:
    """Load blobs saved by :func:`save_state` (a missing or unreadable file starts fresh)."""
    path = directory / FILE
    if not path.exists() or not hasattr(store, "put_raw"):
        return
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    for user, item in data.items():
        store.put_raw(user, item["blob"], int(item["version"]))
