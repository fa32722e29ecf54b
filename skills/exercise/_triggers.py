"""Routing rules of this skill: wordings that mean its intents (tried in ``order`` across skills).

The activity words come from the MET table (every name and alias), the period words from the history's
period reader, so a new activity or a new way to name a period is routed without a new rule.
"""

from __future__ import annotations

import re

from runtime.skill import Trigger
from skills.exercise._met import activities

__all__ = ["TRIGGERS"]


def _fast(words: set[str]) -> str:
    """``words`` as one alternation behind a look-ahead at their first characters: a position where none of
    them can start is passed over at once (a rule is tried on every message)."""
    firsts = "".join(sorted({re.escape(w[0]) for w in words}))
    return f"(?=[{firsts}])(?:{'|'.join(sorted(map(re.escape, words), key=len, reverse=True))})"


def _activity_words() -> set[str]:
    """Every activity name and alias of two or more characters that is a noun, not a verb said with 了."""
    return {w for a in activities().values() for w in (a.name, *a.aliases) if len(w) >= 2 and not w.endswith("了")}


_ACT = _fast(_activity_words())
_PERIOD = (r"(?:最近|过去|近|这|前)[\d一二两三四五六七八九十半]+\s*个?(?:天|日|周|星期|礼拜|月|年)(?:以来|来|内|里)?|"
           r"这周|本周|这个?星期|这个?礼拜|这一周|上上?周|上上?个?星期|上上?个?礼拜|这个?月|本月|上上?个?月|今年|去年|最近|近期|"
           r"近来|过去|这段时间|这阵子|这几天|这些天|[\d一二三四五六七八九十]{1,3}月份?|今天|昨天|一共|总共|到现在|周末")
_MOVE = _fast(_activity_words() | {"运动", "锻炼", "健身", "训练", "练", "跑", "游", "骑", "走", "爬", "跳"})
_STIR = r"动(?![车物画漫态作手工静脉力])"  # colloquial "moved" for exercised: "上周动了几天", "今天动过吗"
_YES_NO = r"了吗|了没|过吗|过没|过么|了么|没有"  # "这个月运动过没": a yes/no question about a period
_ASK = r"几次|几回|几天|多少|多久|多长时间|多远|多长|几公里|怎么样|咋样|如何|情况|记录|统计|总结|汇总"
# a statement of a workout done, without an amount: "今天跑步了", "下午去游泳了", "撸铁撸完了", "跑完步了"
_DONE = (rf"(?:{_ACT})(?:了|去了|回来了)(?![吗么])|(?:{_ACT})[^，,。！!？?\d]{{0,3}}?完了"
         rf"|(?:打|踢|练|跳|游|跑|骑|做|玩|爬)(?:了|完)(?:会儿?|一会儿?|一下|一阵|[一两几]?[场局组套遍]|几?圈|个?把小时)?"
         rf"(?:{_ACT})"
         r"|(?:跑|跑了|跑完|完成了?|参加了?)(?:个|一个|一场|了)?(?:半程马拉松|全程马拉松|半马|全马|马拉松)"
         r"|(?:跑|游|骑|跳|打|踢|爬|练)(?:完|了)(?:步|泳|车|绳|球|山|瑜伽|拳)")
_NOT_DONE = (r"吗|么|？|\?|几|多少|多久|怎么|什么|啥|哪|想|要去|准备|打算|计划|该去|得去|明天|后天|待会|等会|一会儿|提醒|记得|"
             r"别忘|没有?去|没(?:跑|游|骑|运动|锻炼|练)|还没|不想|不要|不能|别|安排|推荐|建议|好不好|可以吗|能不能|会不会|"
             r"有用|是不是|为什么|该不该")

# a question asked about the time after a workout, not a report of one
_ASKS = r"吗|么|？|\?|几|多少|多久|怎么|什么|啥|哪|好不好|推荐|建议|该不该|能不能|可以吗"
_WHEN = r"今天|昨天|前天|刚|刚才|刚刚|早上|上午|中午|下午|傍晚|晚上|今早|今晚|昨晚|又"  # said before a bare "运动了"

TRIGGERS: tuple[Trigger, ...] = (
    Trigger(
        "exercise.log", "exercise.log.done", order=46,
        pattern=rf"^(我)?(?:{_WHEN})*(去)?(运动|锻炼|健身|练)(了|完了?)(一下|一会儿?|会儿)?[!！。~～]*$"
                rf"|^(我)?(?:{_WHEN})*(去)?(?:做|搞)了(?:会儿?|一会儿?|一下|点)?(?:运动|锻炼)[!！。~～]*$"
                r"|^(我)?(今天|刚|刚才|刚刚|早上|晚上|又)?(去)?(游完泳|跑完步|骑完车|打完球|健完身|跳完绳|爬完山|练完|游了泳|跑了步)",
        unless=_ASKS,  # "游完泳一般吃点啥好": the workout only says when; the message asks something else
    ),
    Trigger("exercise.log", "exercise.log.activity_done", order=47, pattern=_DONE, unless=_NOT_DONE),
    Trigger(
        "exercise.delete", "exercise.delete", order=45,
        pattern=r"(删|删掉|删除|去掉|撤销|撤回|取消|不算).{0,10}(运动|锻炼|跑步|健身|游泳|骑车)?.{0,4}(记录|那条|这条|那次|打卡)"
                r"|(运动|锻炼|跑步|健身|游泳|骑车)?(记录|那条|那次).{0,6}(记错了|删了|删掉|不算|撤销)",
        unless=r"提醒",
    ),
    Trigger(
        "exercise.history", "exercise.history", order=50,
        pattern=r"(运动|锻炼|健身|跑步|训练)的?(记录|历史|统计|情况|总结)"
                rf"|^(?=.*?(?:{_ASK})).*?(?:{_PERIOD}).{{0,6}}?(?:{_MOVE}).{{0,8}}?(?:{_ASK})"
                rf"|(?:看看|看下|看一下|查查|查一下|查下|瞧瞧)(?:我)?(?:的)?(?:{_PERIOD})?的?(?:运动|锻炼|健身)"
                rf"|^(?=.*?(?:几次|几回|多少次|多少回)).*?(?:{_MOVE}|{_STIR})[了过]?(?:几次|几回|多少次|多少回)"
                rf"|^(?=.*?(?:{_YES_NO})).*?(?:{_PERIOD}).{{0,6}}?(?:运动|锻炼|健身|练|{_STIR})(?:{_YES_NO})"
                rf"|^(?:我)?(?:{_PERIOD})(?:以来)?的?(?:运动|锻炼|健身|训练)(?:记录|情况|数据|量)?(?:呢|吧)?$"
                # whether or what, asked of a period: 这个月有没有做运动 / 昨天做了什么运动 / 上周都练了些啥
                rf"|(?:{_PERIOD}).{{0,3}}?(?:有没有|有没)(?:去|做|搞)?(?:过)?(?:{_MOVE}|{_STIR})"
                rf"|(?:{_PERIOD}).{{0,3}}?(?:做|练|搞|玩)了?(?:些|点)?(?:什么|啥|哪些|哪几样)(?:运动|锻炼|项目)?",
        unless=r"提醒|计划|安排|方案|应该|要练|该练|比较好|合适|建议|推荐|能不能|可以吗|减肥吗",
    ),
    Trigger(
        "exercise.plan", "exercise.plan", order=60,
        pattern=r"(运动|健身|锻炼|训练|减脂|增肌)的?(计划|安排|方案|课表)|(制定|安排|做|定|给我|帮我).{0,6}(运动|健身|锻炼|训练)"
                # how often and how long, then a plan asked for: "每周练三次 每次四十分钟 帮我排个计划"
                r"|(?:每|一)个?(?:周|星期|礼拜)[^，,。]{0,4}?(?:练|运动|锻炼|健身|训练).{0,24}?(?:计划|课表|方案)",
        unless=r"(跑|骑|游|走|做|练|搞)了|(运动|锻炼)了|记一下|记录|打卡|哪些|什么运动|怎么|为什么|吗|？|\?|会不会|是不是|能不能|有用"
               r"|有没有|有没|过没|了没|几次|几回|多少",
    ),
    Trigger(  # an activity and then its amount, no verb: "爬山两个小时", "跳绳十五分钟", "游泳1000米"
        "exercise.log", "exercise.log.amount_after", order=71,
        pattern=rf"(?:{_ACT})[^，,。？?\d零一二两三四五六七八九十百半俩]{{0,3}}?(?:[\d零一二两三四五六七八九十百半俩.]+|个半|个把)\s*"
                r"(?:个[来多半]?)?\s*(?:分钟|小时|钟头|公里|千米|km|个钟|米|h(?![a-z])|min|hours?)"
                r"(?![\u4e00-\u9fff]{0,2}(?:吗|呢|？|\?))",
        unless=_NOT_DONE,
    ),
    Trigger(
        "exercise.log", "exercise.log", order=70,
        pattern=(
            r"(跑了|跑步|骑了|骑车|游了|游泳|走了|快走|散步|跳了|跳绳|打了|踢了|练了|爬了|做了|健身了|瑜伽|打球"
            r"|[跑游骑走爬练打踢]完)"
            r".{0,12}(?:[\d零一二两三四五六七八九十百半俩]+|个半|个把)\s*"
            r"(?:个[来多半]?)?\s*(分钟|小时|钟头|公里|千米|km|个钟|钟|米|[kK](?![a-zA-Z])|min|h(?![a-z]))|"
            r"[\d零一二两三四五六七八九十百半俩]+\s*(分钟|小时|公里|千米|km).{0,6}(跑步|骑车|游泳|快走|散步|跳绳|瑜伽|健身|爬山|篮球|足球|羽毛球)|"
            r"(记录|记一下|打卡).{0,6}(运动|锻炼|跑步|健身)|"
            r"(做了|练了|完成了?).{0,4}[\d零一二两三四五六七八九十百俩]+\s*(个|下|组)\s*(俯卧撑|仰卧起坐|深蹲|引体向上|卷腹)"
        ),
    ),
)
