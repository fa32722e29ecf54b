"""Routing rules of this skill: wordings that mean its intents (tried in ``order`` across skills)."""

from __future__ import annotations

from runtime.skill import Trigger

__all__ = ["TRIGGERS"]

_STORE = r"冰箱|冷藏|冷冻|库存|存货|囤货|食材|储物柜|厨房里|家里|我家|家中"
_WHAT = (r"有什么|有啥|有哪些|有些啥|有些什么|还有什么|还有啥|还有哪些|还剩什么|还剩啥|还剩哪些|还剩下|剩什么|剩啥|剩哪些|"
         r"剩下什么|剩下啥|剩多少|还有多少|都有啥|都有什么|都有哪些|有多少|什么都有|啥都有")
_SEE = r"看看|看下|看一下|瞧瞧|瞅瞅|查查|查一下|查下|查看|列一下|列个|报一下|盘点一下|盘点"
_FOOD_AT_HOME = r"家里的菜|家里的食材|家里的东西|吃的|菜|食材"
_COUNTED = r"个|斤|两|克|公斤|盒|袋|瓶|包|把|块|根|颗|只|枚|条|板|头|棵"
# what "还有几个…" / "还剩多少…" counts that is no food: time, people, money, records of other skills
_NOT_FOOD = (r"小时|钟头|分钟|天|周|星期|礼拜|月|年|人|位|次|回|趟|提醒|闹钟|事|件|任务|公里|步|节|集|号|钱|块钱|元|"
             r"道菜|菜|热量|卡|作业|页|题|没|不|要|在|是|能|可以|就|都")

TRIGGERS: tuple[Trigger, ...] = (
    Trigger(  # what is at home: a place or a store of food, and a question of what or how much is there
        "pantry.view", "pantry.view", order=80,
        pattern=rf"(?:{_STORE}).{{0,6}}?(?:{_WHAT})|(?:{_STORE})(?:里)?的?(?:清单|列表|明细|情况)$|(?:{_SEE})(?:一下)?(?:我|我家|我们家)?的?(?:{_STORE})"
                rf"|^(?:{_FOOD_AT_HOME})(?:还)?(?:有|剩|剩下)(?:些|点)?(?:什么|啥|哪些)",
        unless=r"能做|可以做|做什么|做啥|怎么做|吃什么|吃啥|买什么|买啥|提醒|天气|几个人|预算",
    ),
    Trigger(  # "鸡蛋还剩几个" / "排骨还有多少": how much of one thing is left
        "pantry.view", "pantry.view.item", order=81,
        pattern=r"^[\u4e00-\u9fff]{1,5}?(?:还)?(?:(?:剩|有|剩下)多少|(?:剩|有|剩下)?(?:几|多少)"
                r"(?:个|斤|两|克|公斤|盒|袋|瓶|包|把|块|根|颗|只|枚|条|板|头|棵))(?:了|呀|啊|来着|呢)*[?？吗]?$",
        unless=r"^(?:今天|明天|现在|一共|总共|要|买|需要|你|我|他|她|做|吃|煮|炒|放|用|还要|一周|每天)",
    ),
    Trigger(  # "还有几根黄瓜" / "还剩多少排骨": the same question, the item said last
        "pantry.view", "pantry.view.item_last", order=82,
        pattern=rf"^(?:那|那么|现在)?(?:家里|冰箱里?)?(?:还)?(?:剩下?|有)(?:几|多少)(?:{_COUNTED})?"
                rf"(?!{_COUNTED})[\u4e00-\u9fff]{{1,5}}?(?:了|呀|啊|来着|呢)*[?？吗]?$",
        unless=rf"^(?:那|那么|现在)?(?:家里|冰箱里?)?(?:还)?(?:剩下?|有)(?:几|多少)(?:{_COUNTED})?(?:{_NOT_FOOD})",
    ),
    Trigger(
        "pantry.update", "pantry.update", order=90,
        pattern=(
            r"(冰箱|家里)(里)?(有|还有|放了|新买了|买了).{0,20}[\d零一二两三四五六七八九十百半俩]+|[\d零一二两三四五六七八九十百半俩]+\s*(个|斤|克|盒|瓶|袋|把|颗|根|块|升)?.{0,8}(用完了|吃完了|没了)|"
            r"(用完了|吃完了|喝完了|没了|木有了|用光了|吃光了|喝光了|见底了)$|(买了|囤了).{0,20}(个|斤|克|盒|瓶|袋)|"
            # all gone, said twice over: 啤酒都喝光了 一瓶不剩 / 面条吃完了，一包都没了
            r"(用完了|吃完了|喝完了|用光了|吃光了|喝光了)[\s，,]+一[个瓶盒袋包根颗只块]?都?(不剩|没了|没有了|木有了)$|"
            r"(冰箱|家里)(里)?的?.{1,8}(清空|扔了|都扔了|用光了|吃光了)"
        ),
        unless=r"提醒|预算|怎么做|怎么|为什么|吗|？|\?|会不会|是不是|能不能|有用|[\d一二两三四五六七八九十]\s*(?:个)?(?:人|位)|口人",
    ),
    Trigger(  # "今天用掉了半斤五花肉" / "炒菜用了俩西红柿": how many went, then the item
        "pantry.update", "pantry.update.used_first", order=92,
        pattern=(r"(?:用|吃|炒|煮|炖|蒸|拿|做|烧)(?:掉了?|了|完了?)\s*(?:[\d一二两三四五六七八九十半]+\s*"
                 r"(?:个|斤|克|两|盒|瓶|袋|包|把|颗|根|块|只|枚|打)(?!小时|钟|月|星期|礼拜|人|菜|天|次|遍)|俩|仨)"
                 r"[\u4e00-\u9fff]{1,5}"),
        unless=r"吗|？|\?|怎么|什么|啥|多少|几|提醒|跑|游|骑|练|走了",
    ),
    Trigger(  # "鸡蛋吃了两个" / "西红柿用掉3个": the item first, then how many went
        "pantry.update", "pantry.update.used", order=91,
        pattern=(r"^[\u4e00-\u9fff]{1,5}?(吃|用)(了|掉了?)\s*([\d零一二两三四五六七八九十半]+\s*"
                 r"(个|斤|克|两|盒|瓶|袋|包|把|颗|根|块|只|枚)(?!小时|钟|月|星期|礼拜|人|菜)|俩|仨)[了啦吧。！!~]*$"),
        unless=r"^(今天|昨天|刚才|刚刚|早上|中午|晚上|上午|下午|我|你|他|她|咱|孩子|宝宝|一共|总共)",
    ),
)
