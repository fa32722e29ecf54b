"""Routing rules of this skill: wordings that mean its intents (tried in ``order`` across skills)."""

from __future__ import annotations

from runtime.skill import Trigger

__all__ = ["TRIGGERS"]

TRIGGERS: tuple[Trigger, ...] = (
    Trigger(
        "dinner.plan", "dinner.plan", order=100,
        pattern=(
            r"(安排|规划|计划|准备|搭配|设计|推荐|定|弄|做)(一下|一顿|个|下)?.{0,8}(晚饭|晚餐|晚上吃|饭菜|菜单|一桌|家宴|聚餐)|"
            r"(晚饭|晚餐|今晚|晚上)(吃什么|吃啥|怎么吃)|(预算|块钱?|元).{0,10}(吃饭|晚饭|晚餐|做饭|买菜)|(人|个人|位).{0,6}(吃饭|晚饭|晚餐|聚餐|吃顿饭)|"
            r"买菜清单|采购清单|"
            r"[\d一二两三四五六七八九十俩仨]\s*(个人|口人|口|位|人).{0,10}预算|预算.{0,10}[\d一二两三四五六七八九十]\s*(个人|口人|位)|"
            r"(请|约|叫|招待).{0,8}(来|到)(家|我家|家里).{0,4}(吃饭|吃顿饭|聚餐|做客)|(在家|家里).{0,4}(请客|聚餐|办一桌)"
        ),
        unless=r"怎么做|做法|菜谱|孕|病|传染|会不会",
    ),
    Trigger(
        "recipe.query", "recipe.query", order=110,
        pattern=(
            r".{1,12}(怎么做|咋做|怎么烧|怎么炒|怎么煮|怎么炖|怎么蒸|的做法|做法|菜谱|食谱|需要什么材料|用什么材料)|"
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
    # 来个简单的汤 / 十分钟能做好的早餐 / 推荐个素菜
    Trigger(
        "recipe.query", "recipe.browse", order=112,
        pattern=(
            r"^(来|推荐|有没有|有什么|想吃|想做|教我做|做)(个|一个|一道|道|点|几个|几道|一些)?.{0,8}"
            r"(汤|粥|早餐|早饭|甜品|甜点|素菜|荤菜|凉菜|下饭菜|家常菜|快手菜)[吧呢吗？?。!！]*$|"
            r"(分钟|半小时|小时).{0,6}(做好|搞定|做完|能做|出锅).{0,4}(早餐|早饭|汤|菜|饭|甜品)"
        ),
        unless=r"晚饭|晚餐|预算|个人|提醒",
    ),
)
