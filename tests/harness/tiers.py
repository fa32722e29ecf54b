"""The two tiers of the suite: every run proves each mechanism once; ``WXBOT_LONG=1`` (CI) proves the
same mechanisms again under repetition and load, and runs the slowest real-process tests
(docs/testing.md, "What each tier proves")."""

from __future__ import annotations

import os

__all__ = ["LONG"]

LONG = os.environ.get("WXBOT_LONG") == "1"
