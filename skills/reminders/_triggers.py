"""Routing rules of this skill: wordings that mean its intents (tried in ``order`` across skills)."""

from __future__ import annotations

from runtime.skill import Trigger
from runtime.skill.parsers import NOT_NEEDED

__all__ = ["TRIGGERS"]

_N = r"[\d零一二两三四五六七八九十百半俩]"
_CANCEL_VERB = r"(取消|删除|删掉|删了|删|清空|去掉|撤销|关掉|不要)"

TRIGGERS: tuple[Trigger, ...] = (
    Trigger(
        "reminder.cancel", "reminder.cancel.timer", order=5,
        pattern=r"(停止|停掉|停下|关掉|关闭|取消|结束|停)(一下)?(那个|这个)?(倒)?计时器?|计时器?.{0,4}(停|取消|关|不要了)",
    ),
    Trigger(
        "reminder.list", "reminder.list.timer", order=6,
        pattern=r"计时器?.{0,6}(还剩|剩|还有|到哪|多久)|还剩多(久|少时间)",
    ),
    Trigger(
        "reminder.create", "reminder.create.timer", order=7,
        pattern=(rf"(倒计时|计时器?|定时器?)(一下|个)?\s*{_N}+\s*(个)?(秒|分钟|分|小时|钟头)"
                 rf"|{_N}+\s*(个)?(秒钟?|分钟|小时|钟头)(的)?(倒计时|计时器?|定时器?)"),
    ),
    Trigger(
        "reminder.cancel", "reminder.cancel.number", order=8,
        pattern=rf"^(请|帮我|把)?(取消|删除|删掉|删了|去掉)(掉)?第?{_N}{{1,3}}(个|条)(提醒)?[吧了。！!]*$"
                rf"|^第{_N}{{1,3}}(个|条)(提醒)?(不要了|取消|删掉|删了|去掉)[吧了。！!]*$",
    ),
    Trigger(
        "reminder.cancel", "reminder.cancel.no_more", order=9,
        pattern=rf"(以后|今后)?({NOT_NEEDED})再?(提醒我?|叫我|喊我).{{0,12}}了|提醒.{{0,8}}(不用了|不需要了|别.{{0,2}}了)",
    ),
    Trigger(
        "reminder.snooze", "reminder.snooze", order=10,
        pattern=r"([\d零一二两三四五六七八九十百半俩]+\s*(分钟|小时|刻钟)|半小时|一会儿?|待会儿?|稍后)(之?后|以后)?再(提醒|叫|通知)我?",
    ),
    Trigger(
        "reminder.cancel", "reminder.cancel", order=20,
        pattern=rf"{_CANCEL_VERB}.{{0,12}}(提醒|闹钟)|(提醒|闹钟).{{0,6}}(取消|删除|删掉|删了|删|清空|不要了|关了|关掉)",
        unless=rf"^(?!.*{_CANCEL_VERB}.{{0,12}}提醒).*提醒我",  # 提醒我明天删照片 asks for a reminder
    ),
    Trigger(  # 复查那个改到周五 / 把喝水的提醒改成7点半: a reminder named by its words, moved
        "reminder.move", "reminder.move", order=25,
        pattern=r"^(?:把|将)?[^，,。]{2,12}?(?:那个|那条|这个|这条|的)(?:提醒)?(?:时间)?(?:改到|改成|改为|挪到|推到|推迟到|延后到|提前到|换到|调到)",
        # ... not one named only by pointing at what was just done ("把刚记的那条改成45分钟": whatever the focus is)
        unless=r"提醒我|叫我|喊我|预算|人数|个人|体重|身高|目标"
               r"|^(?:把|将)?(?:刚才|刚刚|刚)(?:记|设|加|说|录|填)?(?:下)?的?(?:那个|那条|这个|这条|那笔|那次)?"
               r"(?:改到|改成|改为|换成|换到|调到)",
    ),
    Trigger(
        "reminder.list", "reminder.list", order=30,
        pattern=(r"(我的|有哪些|有什么|有啥|有没有|有几个|查看|查查|看看|看下|看一下|列出|所有|全部)的?.{0,4}提醒"
                 r"|提醒(列表|清单|有哪些|有什么|有啥)"
                 # what have I set (我都设了些啥), the next one (下一个提醒), is it still there (刚设的提醒还在吧)
                 r"|^我?(都|还|之前|刚才|刚)?(设|定|加)(了|过)(些|的)?(哪些|什么|啥|几个|多少)"
                 r"|(下一?个|下一条|最近一?个|最近一条)提醒|提醒.{0,6}(还在|还有效|还算数|没丢)"),
        unless=r"提醒我",
    ),
    Trigger(
        "reminder.create", "reminder.create", order=40,
        pattern=(
            r"提醒我|提醒一下我|(\d|点|分钟|小时|钟|早上|早晨|上午|中午|下午|晚上|明天|后天|明早).{0,12}(叫|喊)我|"
            r"(叫|喊)我.{0,4}(起床|起来)|记得提醒|别让我忘|设(个|一个|置)?.{0,4}(提醒|闹钟)|[定订弄建加整搞](个|一个)(提醒|闹钟)|"
            r"定(个|一个)?闹钟|"
            r"到时候?(告诉|通知)我|"
            # "帮我提醒一下明早8点…", "帮我记住明天上午十点…": asked to remind, with the time said right after
            r"(帮我|给我|你|麻烦你?)(提醒|记住|记着|记好)(一下|一声)?(?=.{0,3}(今天|明天|后天|大后天|今晚|明早|明晚|早上|上午|"
            r"中午|下午|晚上|周|星期|礼拜|下周|\d|[一二两三四五六七八九十]+点))"
        ),
        # someone else reminding me is a story, not a request: 我老婆总是提醒我少喝酒; a question about the
        # reminders already set is a look at them: 我设了哪些提醒
        unless=r"(老婆|老公|媳妇|妈妈?|爸爸?|他|她|他们|老师|医生|朋友|同事|领导|老板)(总是|经常|老是|一直|每次都|又|也|天天)提醒我"
               r"|(设|定|加)(了|过)(哪些|什么|啥|几个|多少)",
    ),
)
