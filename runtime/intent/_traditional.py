"""Traditional → simplified characters, one character at a time, for the model's features.

Users in Hong Kong, Taiwan and abroad type traditional characters (計時器, 天氣, 幾點); the training
data is almost all simplified. Folding each character to its simplified form before the n-grams are
taken lets one model serve both. The table (``data/traditional.txt``) is generated from OpenCC's ``t2s``, ``hk2s`` and
``tw2s`` conversions by ``python -m runtime.intent._traditional`` (needs the ``train`` extra); at run
time it is only read, once, into a ``str.translate`` table. The file holds two lines: the traditional
characters, then their simplified forms in the same order.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

TABLE_FILE = Path(__file__).with_name("data") / "traditional.txt"
_RANGES = ((0x3400, 0x4DC0), (0x4E00, 0xA000), (0xF900, 0xFB00))
_CONFIGS = ("t2s", "hk2s", "tw2s")


@cache
def translation() -> dict[int, int]:
    """The ``str.translate`` table; empty when the data file is missing (no folding, never an error)."""
    if not TABLE_FILE.is_file():
        return {}
    lines = TABLE_FILE.read_text(encoding="utf-8").splitlines()
    if len(lines) != 2 or len(lines[0]) != len(lines[1]):
        return {}
    return str.maketrans(lines[0], lines[1])


def to_simplified(text: str) -> str:
    """``text`` with every traditional character that has a one-character simplified form replaced."""
    return text.translate(translation())


def build_pairs() -> list[tuple[str, str]]:
    """(traditional, simplified) pairs from OpenCC, per character, sorted; first config wins.

    A character that is itself simplified (OpenCC's ``s2t`` changes it, as 么 → 麼) is left alone:
    folded one at a time, such characters would be turned into rarer variants (么 → 幺).
    """
    import opencc  # the ``train`` extra: only needed to regenerate the table

    simplified = opencc.OpenCC("s2t")
    pairs: dict[str, str] = {}
    for name in _CONFIGS:
        converter = opencc.OpenCC(name)
        for start, stop in _RANGES:
            for code in range(start, stop):
                char = chr(code)
                simple = converter.convert(char)
                if (simple != char and len(simple) == 1 and char not in pairs
                        and simplified.convert(char) == char):
                    pairs[char] = simple
    return sorted(pairs.items())


def main() -> None:
    """Rewrite ``data/traditional.txt``."""
    pairs = build_pairs()
    TABLE_FILE.write_text("".join(a for a, _ in pairs) + "\n" + "".join(b for _, b in pairs) + "\n",
                          encoding="utf-8")
    print(f"wrote {len(pairs)} pairs to {TABLE_FILE}")


if __name__ == "__main__":
    main()
