"""Chinese numerals → Arabic digits inside free text (三个人 → 3个人, 一百块 → 100块).

cn2an does the arithmetic of each numeral run; its own whole-text ``transform`` mis-reads clock
forms such as 五点四十五 and 两点半, so runs are found here and converted one by one.
"""

from __future__ import annotations

import re
import warnings
from functools import lru_cache

import cn2an

_RUN = re.compile(r"[零〇一二两三四五六七八九十百千万]+")
_DIGIT = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_SLANG = {"俩": "2个", "仨": "3个"}
_FULLWIDTH = str.maketrans("０１２３４５６７８９．，：", "0123456789.,:")


@lru_cache(maxsize=4096)
def chinese_to_number(run: str) -> str:
    """The Arabic form of one run of Chinese numerals; the run itself when it is not a number.

    Two neighbouring digits are an approximate range, not a two-digit number: 五六 → 5-6, 两三 → 2-3.
    """
    if len(run) == 2 and run[0] in _DIGIT and _DIGIT.get(run[1]) == _DIGIT[run[0]] + 1:
        return f"{_DIGIT[run[0]]}-{_DIGIT[run[1]]}"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = cn2an.cn2an(run, "smart")
        except (ValueError, KeyError, IndexError):
            return run
    return str(int(value)) if float(value).is_integer() else str(value)


def normalize_numerals(text: str) -> str:
    """Replace Chinese numeral runs and slang (俩, 仨) by Arabic numbers; full-width digits too."""
    text = text.translate(_FULLWIDTH)
    for word, repl in _SLANG.items():
        text = text.replace(word, repl)
    return _RUN.sub(lambda m: chinese_to_number(m.group(0)), text)
