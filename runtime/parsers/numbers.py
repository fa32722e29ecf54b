"""Chinese numerals → Arabic digits inside free text (三个人 → 3个人, 一百块 → 100块), and the colloquial
ways people give an amount roughly (四十来分钟, 二十多个, 个把小时, 一打, 四五十, 一公里半).

cn2an does the arithmetic of each numeral run; its own whole-text ``transform`` mis-reads clock
forms such as 五点四十五 and 两点半, so runs are found here and converted one by one.
"""

from __future__ import annotations

import re
import warnings
from functools import lru_cache

import cn2an

__all__ = ["approximate_numerals", "chinese_to_number", "midpoint", "normalize_numerals"]

# a run of numerals, but not 一 in a word that counts nothing (一下, 一起, 一直, 一般, 一样, 一些, 一定)
_RUN = re.compile(r"[零〇一二两三四五六七八九十百千万]+(?<!(?<![零〇一二两三四五六七八九十百千万])一(?=[下起直般样些定切旦向阵]))")
# 七十一点五 / 一点五 / 三点零五: a decimal said in words. Not a clock time: digits after 点 that run on
# into 十/分/刻 (五点四十五, 三点一刻, 八点五分) or a count (一点三个人) stay as they are.
_DECIMAL = re.compile(r"([零〇一二两三四五六七八九十百千]+)点([零〇一二三四五六七八九]{1,3})"
                      r"(?![零〇一二两三四五六七八九十百千万分秒刻钟点位人号半]|个(?!小时|钟))")
_DIGITS = str.maketrans("零〇一二三四五六七八九", "00123456789")
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


def _decimal(m: re.Match[str]) -> str:
    whole = chinese_to_number(m.group(1))
    return f"{whole}.{m.group(2).translate(_DIGITS)}" if whole.isdigit() else m.group(0)


def normalize_numerals(text: str) -> str:
    """Replace Chinese numeral runs and slang (俩, 仨) by Arabic numbers, decimals said in words too (七十点八 →
    70.8); full-width digits too."""
    text = _DECIMAL.sub(_decimal, text.translate(_FULLWIDTH))
    for word, repl in _SLANG.items():
        text = text.replace(word, repl)
    return _RUN.sub(lambda m: chinese_to_number(m.group(0)), text)


# What an amount counts or measures: the words after which 来/多/半 qualify the number before them.
_UNIT = (r"(?:个人|个|位|名|口|人|分钟|分|小时|钟头|钟|公里|千米|km|米|斤|公斤|千克|kg|块钱|块|元|次|回|趟|圈|组|下|"
         r"天|岁|盒|袋|包|瓶|把|根|颗|只|枚|头|条|克|g)")
# 四五十 / 二三十 / 一两百: two neighbouring digits before a unit of ten name a range (→ 40-50)
_CN_TENS_RANGE = re.compile(r"([一二两三四五六七八九])([一二两三四五六七八九])([十百千])(?![一二三四五六七八九])")
_CN_UNIT = {"十": 10, "百": 100, "千": 1000}
# 一打 鸡蛋 (12), 半打 (6), 两打 (24): dozens, said of things counted (never 打球 / 打了)
_DOZEN = re.compile(r"(半|\d+(?:\.\d+)?)\s*打(?![了过完球车卡针算听电扫])")
_ABOUT_ONE = re.compile(r"个把(?=个|小时|钟头|月|星期|礼拜|人|钟)|(?<![\d.])个把")
# 个半小时 / 个半钟: one and a half (the 一 left out, as people say it)
_ONE_AND_A_HALF = re.compile(r"(?<![\d.零一二两三四五六七八九十百几多])个半(?=小时|钟头|钟(?!点)|月)")
# 四十来分钟 / 十来个 / 一百三十来斤: about that many (来 drops)
_ABOUT = re.compile(r"(\d+)\s*来\s*(?=" + _UNIT + ")")
# 一个来小时 / 两个来钟头 / 一个来月: about that many of a unit counted with 个 (来 drops; never 三个来回)
_ABOUT_COUNTED = re.compile(r"(\d+)\s*个\s*来\s*(?=小时|钟头|钟(?![点头])|月|星期|礼拜)")
# 二十多分钟 / 130多斤 / 十多个: a round number and a part of its last step (二十多 → 25, 130多 → 135)
_MORE = re.compile(r"(?<![\d.])(\d*[1-9]0+|[1-9]\d*0)\s*多\s*(?=" + _UNIT + ")")
# 一公里半 / 两小时半 / 一斤半: half a unit more
_AND_A_HALF = re.compile(r"(\d+)\s*(公里|千米|小时|钟头|斤|公斤)半")


def _tens_range(m: re.Match[str]) -> str:
    low, high, unit = _DIGIT[m.group(1)], _DIGIT[m.group(2)], _CN_UNIT[m.group(3)]
    return f"{low * unit}-{high * unit}" if high > low else m.group(0)


def _more(m: re.Match[str]) -> str:
    number = int(m.group(1))
    step = 10 ** (len(m.group(1)) - len(m.group(1).rstrip("0")))
    return f"{number + step // 2}"


def _dozens(m: re.Match[str]) -> str:
    count = 0.5 if m.group(1) == "半" else float(m.group(1))
    return f"{count * 12:g}个"


def approximate_numerals(text: str) -> str:
    """:func:`normalize_numerals`, with rough amounts made plain: 四十来分钟 → 40分钟, 二十多个 → 25个,
    130多斤 → 135斤, 个把小时 → 1个小时, 两个来钟头 → 2个钟头, 一打鸡蛋 → 12个鸡蛋, 四五十分钟 → 40-50分钟, 一公里半 → 1.5公里.

    Ranges stay ranges ("40-50", "3-4"): :func:`midpoint` reads them where one value is wanted.
    """
    t = _CN_TENS_RANGE.sub(_tens_range, text.translate(_FULLWIDTH))
    t = _ONE_AND_A_HALF.sub("1个半", _ABOUT_ONE.sub("1", t))
    t = normalize_numerals(t.replace("半打", "0.5打"))
    t = _DOZEN.sub(lambda m: _dozens(m) if m.group(1) != "0.5" else "6个", t)
    t = _ABOUT.sub(r"\1", t)
    t = _ABOUT_COUNTED.sub(r"\1个", t)
    t = _MORE.sub(_more, t)
    return _AND_A_HALF.sub(lambda m: f"{int(m.group(1)) + 0.5:g}{m.group(2)}", t)


RANGE = r"(\d+(?:\.\d+)?)(?:\s*(?:-|~|～|到|至)\s*(\d+(?:\.\d+)?))?"


def midpoint(low: str, high: str | None) -> float:
    """One value for a number said alone or as a range ("3-4" → 3.5)."""
    return (float(low) + float(high)) / 2 if high else float(low)
