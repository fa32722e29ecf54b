"""Stage ``rules``: precise, high-confidence patterns for the intents of DESIGN §3.2.

Only wording is looked at — never the user's lists or business data (DESIGN §6.2). Rules are
checked in order; the first that matches and is not vetoed by its ``unless`` pattern wins.
Parameters are extracted afterwards by the engine from the skill's slot specs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from runtime.cascade._match import Kind, Match
from runtime.turn import Stage
from runtime.views import RouterView

CONFIDENCE = 0.95


@dataclass(frozen=True, slots=True)
class Rule:
    """One pattern for one intent."""

    name: str
    intent: str
    pattern: re.Pattern[str]
    unless: re.Pattern[str] | None = None

    def matches(self, text: str) -> bool:
        """True when the pattern is found and the veto is not."""
        return bool(self.pattern.search(text)) and not (self.unless and self.unless.search(text))


def _r(name: str, intent: str, pattern: str, unless: str | None = None) -> Rule:
    return Rule(name, intent, re.compile(pattern, re.I), re.compile(unless, re.I) if unless else None)


_NUM = r"[\d零一二两三四五六七八九十百半俩]"

RULES: tuple[Rule, ...] = (
    _r("reminder.snooze", "reminder.snooze", rf"({_NUM}+\s*(分钟|小时|刻钟)|半小时|一会儿?|待会儿?|稍后)(之?后|以后)?再(提醒|叫|通知)我?"),
    _r("reminder.cancel", "reminder.cancel", r"(取消|删除|删掉|删了|去掉|撤销|关掉|不要).{0,12}提醒|提醒.{0,6}(取消|删除|删掉|不要了)"),
    _r("reminder.list", "reminder.list",
       r"(我的|有哪些|有什么|有几个|查看|看看|看下|看一下|列出|所有|全部)的?.{0,4}提醒|提醒(列表|清单|有哪些|有什么)",
       r"提醒我"),
    _r("reminder.create", "reminder.create",
       r"提醒我|提醒一下我|(\d|点|分钟|小时|早上|早晨|上午|中午|下午|晚上|明天|后天|明早).{0,12}(叫|喊)我"
       r"|(叫|喊)我.{0,4}(起床|起来)|记得提醒|别让我忘|设(个|一个|置)?.{0,4}(提醒|闹钟)|定(个|一个)?闹钟"
       r"|到时候?(告诉|通知)我"),
    _r("exercise.history", "exercise.history",
       r"(运动|锻炼|健身|跑步|训练)的?(记录|历史|统计|情况|总结)|(这周|本周|最近|过去.天|上周).{0,6}(运动|锻炼|跑|练)了?(多少|几次|什么|哪些|情况)"),
    _r("exercise.plan", "exercise.plan",
       r"(运动|健身|锻炼|训练|减脂|增肌)的?(计划|安排|方案|课表)|(制定|安排|做|定|给我|帮我).{0,6}(运动|健身|锻炼|训练)",
       r"(跑|骑|游|走)了|哪些|什么运动|怎么|为什么|吗|？|\?|会不会|是不是|能不能|有用"),
    _r("exercise.log", "exercise.log",
       rf"(跑了|跑步|骑了|骑车|游了|游泳|走了|快走|散步|跳了|跳绳|打了|练了|爬了|做了|健身了|瑜伽|打球).{{0,12}}{_NUM}+\s*(分钟|小时|公里|千米|km|个钟|米)"
       rf"|{_NUM}+\s*(分钟|小时|公里|千米|km).{{0,6}}(跑步|骑车|游泳|快走|散步|跳绳|瑜伽|健身|爬山|篮球|足球|羽毛球)"
       r"|(记录|记一下|打卡).{0,6}(运动|锻炼|跑步|健身)"),
    _r("pantry.view", "pantry.view", r"(冰箱|家里|库存).{0,4}(有什么|有啥|还有什么|还剩什么|剩什么)|(查看|看看)(冰箱|库存)"),
    _r("pantry.update", "pantry.update",
       rf"(冰箱|家里)(里)?(有|还有|放了|新买了|买了).{{0,20}}{_NUM}+|{_NUM}+\s*(个|斤|克|盒|瓶|袋|把|颗|根|块|升)?.{{0,8}}(用完了|吃完了|没了)"
       r"|(用完了|吃完了|没了)$|(买了|囤了).{0,20}(个|斤|克|盒|瓶|袋)",
       r"提醒|预算|怎么做|怎么|为什么|吗|？|\?|会不会|是不是|能不能|有用"),
    _r("dinner.plan", "dinner.plan",
       r"(安排|规划|计划|准备|搭配|设计|推荐|定|弄|做)(一下|一顿|个|下)?.{0,8}(晚饭|晚餐|晚上吃|饭菜|菜单|一桌|家宴|聚餐)"
       r"|(晚饭|晚餐|今晚|晚上)(吃什么|吃啥|怎么吃)|(预算|块钱?|元).{0,10}(吃饭|晚饭|晚餐|做饭|买菜)"
       r"|(人|个人|位).{0,6}(吃饭|晚饭|晚餐)|买菜清单|采购清单",
       r"怎么做|做法|菜谱|孕|病|传染|会不会"),
    _r("recipe.query", "recipe.query",
       r".{1,12}(怎么做|咋做|怎么烧|怎么炒|怎么煮|怎么炖|怎么蒸|的做法|做法|菜谱|需要什么材料|用什么材料)"),
    _r("weather.query", "weather.query",
       r"天气|下雨|下雪|气温|温度|冷不冷|热不热|要不要带伞|带伞吗|刮风|雾霾|空气质量|晴天|阴天|几度"),
    _r("datetime.query", "datetime.query",
       r"几号|几月几|几点了?$|现在几点|几点钟|什么时间了|星期几|周几|礼拜几|日期|哪天|哪一天|什么日子|工作日|放假|节假日|调休|上班吗|休息吗"
       r"|多少号|今年是|几年|农历|过年|元旦|春节|国庆|中秋|端午|清明|劳动节",
       r"提醒|天气|下雨"),
    _r("profile.update", "profile.update",
       r"我的目标是|目标(改成|是|设为)|我(想|要)(减脂|增肌|减肥|控糖|保持)|身高\s*\d|体重\s*\d|我(身高|体重)"
       r"|我\d+(斤|公斤|kg|cm|厘米)|(我)?对.{1,6}过敏|我不吃|我是素食|我住在|^我(现在)?(在|住|人在)[\u4e00-\u9fa5]{2,5}(市)?$"
       r"|(默认|常住)城市",
       r"提醒|天气|今天|明天|是什么|是多少|是啥|多少|英文|怎么|为什么|吗|？|\?|会不会|是不是|能不能|有用"),
    _r("profile.view", "profile.view",
       r"(我的|查看|看看|看一下)(健康)?(档案|资料|信息|目标|身高|体重|身体数据)|我(多高|多重|的目标是什么)"),
    _r("chitchat", "chitchat",
       r"^(你好|您好|hi|hello|嗨|哈喽|在吗|在不在|早上好|早安|中午好|下午好|晚上好|晚安|谢谢|谢啦|多谢|感谢|辛苦了|再见|拜拜|哈哈+|嘿嘿|你是谁|你叫什么|你是机器人吗)"
       r"[！!。.～~？?]*$"),
)


class RuleRouter:
    """Pure pattern matching over the router view's text."""

    stage = Stage.RULES

    def __init__(self, rules: tuple[Rule, ...] = RULES, known_intents: frozenset[str] | None = None) -> None:
        self._rules = rules
        self._known = known_intents

    def classify(self, text: str) -> tuple[str, str] | None:
        """(intent, rule name) for ``text``, or None."""
        for rule in self._rules:
            if (self._known is None or rule.intent in self._known or rule.intent == "chitchat") \
                    and rule.matches(text):
                return rule.intent, rule.name
        return None

    def match(self, view: RouterView) -> Match | None:
        if view.origin not in ("text", "voice", "menu") or not view.text.strip():
            return None
        found = self.classify(view.text.strip())
        if found is None:
            return None
        intent, name = found
        kind = Kind.CHITCHAT if intent == "chitchat" else Kind.INTENT
        return Match(self.stage, kind, intent=intent, confidence=CONFIDENCE, detail=f"rule {name}")
