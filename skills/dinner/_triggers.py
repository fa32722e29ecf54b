"""Routing rules of this skill: wordings that mean its intents (tried in ``order`` across skills)."""

from __future__ import annotations

from runtime.skill import Trigger
from skills.cookbook.catalog import load_catalog

__all__ = ["TRIGGERS"]

_METHOD = (r"红烧|清蒸|凉拌|糖醋|干煸|水煮|酸辣|香辣|麻辣|宫保|鱼香|油焖|清炒|小炒|干锅|黄焖|家常|爆炒|蒜蓉|葱爆|椒盐|"
           r"炸|炒|蒸|煮|炖|烤|焖|卤|煎|烧|拌|熏|烩|涮|爆")
_SUFFIX = r"汤|羹|粥|饼|面|饭|糕|丸子|包子|饺子|馄饨|片|丝|丁|块|卷|煲|锅|盖饭|炒饭|沙拉"


def _dish_shaped() -> str:
    """A message that is only a dish's name (炸馒头片, 红烧茄子, 烤鸭): a catalog ingredient with a way of
    cooking or a dish's ending, nothing else — a recipe asked for by name, found or not."""
    words = sorted({a for a in load_catalog().ingredient_words() if len(a) > 1}, key=len, reverse=True)
    single = "|".join(a for a in load_catalog().ingredient_words() if len(a) == 1)
    food = "|".join(words)
    return (rf"^(?=[\u4e00-\u9fff]{{2,10}}[。！!~～]*$)(?:"
            rf"(?:{_METHOD})[\u4e00-\u9fff]{{0,3}}(?:{food}|{single})[\u4e00-\u9fff]{{0,3}}|"
            rf"[\u4e00-\u9fff]{{0,3}}(?:{food})[\u4e00-\u9fff]{{0,2}}(?:{_SUFFIX}))[。！!~～]*$")

_N = r"[\d一二两三四五六七八九十百千俩仨]"
_EASY = r"简单|容易|快手|新手|省事|不费事|好做|懒人|零失败"
# a cook who asks for easy dishes, in any words around it: 小白能学会的菜 / 别太麻烦的菜 / 刚学做饭 / 手残党
_BEGINNER = (r"简单|容易|快手|新手|小白|省事|不费事|好做|懒人|零失败|不(?:要|用)?太?(?:复杂|难做|麻烦)|别太(?:复杂|难|麻烦)|"
             r"不太?难(?![过受])|第一次(?:下厨|做饭|做菜)|刚学(?:做饭|做菜|下厨)|没(?:怎么)?(?:下过厨|做过饭)|不太?会做(?:饭|菜)|"
             r"手残|厨艺(?:不好|一般|差)")
_COOKING = r"菜|下厨|做饭|做菜|厨房|菜谱|食谱|做法|厨艺"
_HEADS = (rf"{_N}+\s*(?:个|位|名)?\s*(?:人|口|大人|小孩|孩子|娃|老人|朋友|同事|同学|客人)|"
          rf"(?:一共|总共|共计|总计|加起来|算上我|加上我|连我)\s*{_N}+\s*(?:个|位)?(?![\u4e00-\u9fff])|"
          r"就我(?:自己|一个)|我一个人|我自己|两口子|我们[俩仨]")
_MONEY = (rf"{_N}+\s*(?:块|元)|预算|人均|[¥￥]|(?:^|[，,\s])[一二两三四五六七八九][百千][一二两三四五六七八九十]?"
          r"(?:左右|以内|上下|出头)?(?:$|[，,。\s])")

TRIGGERS: tuple[Trigger, ...] = (
    Trigger(
        "dinner.plan", "dinner.plan", order=100,
        pattern=(
            r"(安排|规划|计划|准备|搭配|设计|推荐|定|弄|做)(一下|一顿|个|下)?.{0,8}(晚饭|晚餐|晚上吃|饭菜|菜单|一桌|家宴|聚餐)|"
            r"(晚饭|晚餐|今晚|晚上)(吃什么|吃啥|怎么吃)|(预算|块钱?|元).{0,10}(吃饭|晚饭|晚餐|做饭|买菜)|(人|个人|位).{0,6}(吃饭|晚饭|晚餐|聚餐|吃顿饭)|"
            # the meal named, then its budget: 晚饭的预算就两百吧 / 聚餐那件事预算三百
            r"(吃饭|晚饭|晚餐|聚餐|这顿饭|饭局)(那个|那件事|的事|的)?.{0,4}预算|"
            r"买菜清单|采购清单|"
            r"[\d一二两三四五六七八九十俩仨]\s*(个人|口人|口|位|人).{0,10}预算|预算.{0,10}[\d一二两三四五六七八九十]\s*(个人|口人|位)|"
            r"(请|约|叫|招待).{0,8}(来|到)(家|我家|家里).{0,4}(吃饭|吃顿饭|聚餐|做客)|(在家|家里).{0,4}(请客|聚餐|办一桌)"
        ),
        unless=r"怎么做|做法|菜谱|孕|病|传染|会不会",
    ),
    Trigger(
        "recipe.query", "recipe.query", order=110,
        pattern=(
            r".{1,12}(怎么做|咋做|咋弄|怎么弄|怎么整|咋整|怎么烧|怎么炒|怎么煮|怎么炖|怎么蒸|的做法|做法|菜谱|食谱|需要什么材料|用什么材料)|"
            r"(如何|怎样|怎么|咋)(给.{1,4})?(做|烧|炒|煮|炖|蒸).{1,12}$"
        ),
        unless=r"提醒|运动|健身|锻炼|计划",
    ),
    # 鸡胸肉能做什么 / 冰箱里有土豆和鸡蛋能做啥: before the pantry rules, which also listen for 冰箱
    Trigger(
        "recipe.query", "recipe.by_ingredient", order=75,
        pattern=r".{1,16}(能|可以|可)(做|弄|烧|炒|煮)(点|个|些)?(什么|啥|哪些)",
        unless=r"晚饭|晚餐|今晚|预算|运动|提醒|天|周末|假期|有空|工作|时间",
    ),
    # "3个大人一个小孩，一百五" / "就我自己，二三十块": a plan said only by its values (who eats, what it may
    # cost) — late, so that any skill whose own words are in the message goes first
    # a kind of dish asked for with what goes in it: 想喝汤 加山药的那种 / 有没有放香菇的鸡汤
    Trigger("recipe.query", "recipe.made_with", order=114,
            pattern=r"^(?=.*(?:想喝|想吃|想做|有没有|有什么|来(?:个|碗|份|点)|推荐|求))(?=.*(?:汤|粥|羹|菜))"
                    r"(?=.*(?:放|加|带)(?:了|点|有)?[\u4e00-\u9fff]{1,4}的)",
            unless=r"晚饭|晚餐|预算|个人|提醒|冰箱|运动"),
    Trigger("recipe.query", "recipe.easy", order=113, pattern=rf"^(?=.*(?:{_BEGINNER}))(?=.*(?:{_COOKING}))",
            unless=r"晚饭|晚餐|预算|个人|提醒|运动|健身|锻炼|计划|冰箱"),
    Trigger("dinner.plan", "dinner.values", order=285, pattern=rf"^(?=.*(?:{_HEADS}))(?=.*(?:{_MONEY}))",
            unless=r"提醒|闹钟|运动|跑步|健身|冰箱|天气|花了|买了|工资|红包|转账|借|还钱|怎么做|菜谱|做法"),
    Trigger("recipe.query", "recipe.dish_named", order=290, pattern=_dish_shaped(),
            unless=r"^(?:我|你|他|她|想|要|买|有|在|去|没|不|别|吃了|喝了)|冰箱|家里|多少|价|斤|块钱|提醒"),
    # 来个简单的汤 / 十分钟能做好的早餐 / 推荐个素菜
    Trigger(
        "recipe.query", "recipe.browse", order=112,
        pattern=(
            r"^(来|推荐|有没有|有什么|想吃|想做|教我做|做)(个|一个|一道|道|点|几个|几道|一些)?.{0,8}"
            r"(汤|粥|早餐|早饭|甜品|甜点|素菜|荤菜|凉菜|下饭菜|家常菜|快手菜)[吧呢吗？?。!！]*$|"
            r"(分钟|半小时|小时).{0,6}(做好|搞定|做完|能做|出锅).{0,4}(早餐|早饭|汤|菜|饭|甜品)|"
            # a dish asked for by how easy it is: 来点简单的菜 / 推荐点容易做的 / 来个好做的
            rf"^(?:来|推荐|有没有|有什么|有|想吃|想做|教我做|做|给我|找|换)(?:个|一个|一道|道|点|几个|几道|一些|些)?"
            rf"(?:更|再|比较|稍微|稍)?(?:{_EASY})(?:一点|一些|点|些)?(?:做)?(?:的)?(?:菜|吃的|东西|菜谱|做法|家常菜|饭)?"
            r"[吧呢吗啊？?。!！]*$"
        ),
        unless=r"晚饭|晚餐|预算|个人|提醒",
    ),
)
