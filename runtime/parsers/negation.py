"""Words that say a thing is not needed (别, 不用, 用不着, 甭…): shared by the operation lexicon (a delete:
"用不着叫我了") and the skills that read such a wish in their own words."""

from __future__ import annotations

__all__ = ["NOT_NEEDED"]

NOT_NEEDED = r"别|不用|不要|用不着|用不到|不需要|不必|甭|无需|没必要"
