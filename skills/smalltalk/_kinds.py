"""The kinds of small talk and how each is answered: short, warm, varied, never the feature list
for a feeling. The variant is chosen from the message id, so a retried message gets the same reply."""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass

__all__ = ["CANNOT", "DONE_SAID", "KINDS", "Kind", "kind_of", "reply_for"]


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of small talk: the words that say it and the replies to it."""

    name: str
    pattern: re.Pattern[str]
    replies: tuple[str, ...]


def _k(name: str, pattern: str, *replies: str) -> Kind:
    return Kind(name, re.compile(pattern, re.I), replies)


# it is done (what a reminder asked for, a task): "喝过了", "好的 弄完了", "已经交好了", "搞定", "知道了"
DONE_SAID = (r"^(?:好的?|嗯+|哦+|噢|行|ok)?[，,。\s]*(?:我)?(?:已经|都|刚|刚刚|早就?)?"
             r"(?:[\u4e00-\u9fff]{1,2}(?:过|完|好)了|搞定了?|完成了|知道了|收到了?)[啊呀吧哦啦!！。~～]*$")

_OFFER = "我能帮你安排晚饭、查菜谱、设提醒、记运动、查天气和日期"

# worn out, said in strong words that are figures of speech, not danger: 累得要死, 累成狗, 脑子要炸了, 困死了
WORN_OUT = (r"累(?:得|的)?(?:要死|要命|半死|够呛|趴下?了?|瘫了?|惨了?|不行了?|成狗|散架|虚脱|残了?|废了?|挂了?)|累死|累趴|累瘫"
            r"|困(?:得|的)?(?:要死|要命|不行)|困死|脑子(?:都)?(?:要|快)?(?:炸|爆|糊|转不动)了?|头(?:都)?(?:要)?(?:炸|大)了"
            r"|快(?:要)?疯了|要疯了|心好累|身心俱疲|筋疲力尽|精疲力尽|腰酸背痛|忙(?:得|的)?(?:要死|要命|团团转|脚不沾地)")
# a bad mood in the words teenagers and elders use for it: 裂开了, 破防了, 无语子, 心态崩了, 人老了不中用了
SLANG_LOW = r"裂开了?|破防了?|无语子|无语死了|心态崩了?|栓[Qq]|麻了|老了不中用了?|不中用了|没人搭理我"
# what to eat, asked without a plan to make ("今天吃什么好呢", "中午吃啥"): a plan or a recipe is offered
WHAT_TO_EAT = (r"^(?:[^，,。！!？?\s]{1,8}[，,。！!\s]+)?(?:我)?(?:不知道|想不出|没想好|纠结)?(?:今天|今日|今晚|中午|晚上|明天|这顿|待会儿?|等下|一会儿?)?(?:该|要)?"
               r"(?:吃|食)(?:点)?(?:什么|啥|咩)(?:好|呢|呀|啊|比较好|合适|才好|好吃)*[?？!！~～。]*$")

# Tried in order: feelings before greetings ("你好，我有点难过" is about the feeling).
KINDS: tuple[Kind, ...] = (
    _k("health",  # a symptom or a medicine question: no diagnosis, a doctor
       r"头疼|头痛|发烧|发热|咳嗽|感冒|嗓子疼|喉咙疼|肚子疼|胃疼|牙疼|拉肚子|腹泻|过敏了|起疹子|胸口|胸闷|心慌|心口|"
       r"吃(?:什么|啥|哪种)药|该吃药吗|要不要吃药|怎么治|看医生|挂号",
       "身体不舒服要多休息、多喝水；症状重或者持续不好的话，还是去医院看看医生，用药听医生的😷 "
       "需要的话我可以帮你设个按时吃药的提醒。",
       "这个我没法替医生判断😷 不舒服的话尽快去医院看看，用药遵医嘱；要我帮你设个提醒（比如按时吃药、复查）也可以。"),
    _k("greeting_festival",
       r"(?:新年|春节|元旦|圣诞|中秋|端午|元宵|国庆|节日|新春|周末)快乐|过年好|恭喜发财|新春大吉|万事如意",
       "同乐同乐🎉 祝你节日快乐、万事顺意！要不要我帮你安排一顿节日大餐？", "谢谢！也祝你节日快乐🎉 有什么要准备的尽管说～"),
    _k("joke", r"笑话|段子|逗我|逗逗我|讲个好玩|来点好玩",
       "给你讲个：蚊子对蚊子说“我最近胖了”，另一只说“你少吃点人吧”😄",
       "来一个：为什么番茄炒蛋那么受欢迎？因为它“红”得“蛋”定😄",
       "冷笑话来了：小明问妈妈“我是不是最可爱的孩子？”妈妈说“先把碗洗了再说”。🧊"),
    _k("worn_out", WORN_OUT,
       "辛苦了，真的是累坏了🫂 先别硬撑，喝口热水、早点躺下歇歇，明天再说。",
       "听着就好累……今天先到这儿吧，好好休息一下，身体要紧。",
       "抱抱，忙成这样太不容易了。能歇就歇会儿，需要我帮你设个明早的提醒也行。"),
    _k("what_to_eat", WHAT_TO_EAT,
       "想不好吃什么的话，我帮你配一桌：说说几个人、预算多少（比如“2个人预算80”）；"
       "或者告诉我家里有什么菜，我找能做的菜谱。",
       "吃什么交给我～告诉我几个人吃、大概花多少钱，我给你配几道菜；想自己做的话，说个食材我找菜谱。"),
    _k("mood_bad",
       r"难过|伤心|不开心|不高兴|心情(不好|很差|差|糟|低落|不太好|一般)|郁闷|沮丧|失落|烦死|好烦|很烦|心烦|烦躁|焦虑|压力(好|很|太)?大"
       r"|好累|太累|累死|累了|好困|失眠|睡不着|孤独|寂寞|委屈|想哭|哭了|崩溃|emo|丧|不想活|抑郁|难受|心累|烦|" + SLANG_LOW,
       "抱抱你🤗 遇到什么事了吗？愿意的话可以跟我说说，我听着。",
       "听起来今天不太顺心。别太勉强自己，先歇一会儿，想聊的话我一直在。",
       "辛苦了，有这种感觉很正常。要不要说说发生了什么？说出来会好受一点。"),
    _k("mood_good",
       r"好开心|很开心|真开心|开心死|太开心|心情(很好|不错|超好|好极了)|好高兴|真高兴|太棒了|耶+|哈皮|美滋滋|升职|加薪|考上|通过了",
       "太好了！替你开心🎉 是有什么好事吗？", "真不错～开心的日子就该好好享受！"),
    _k("chat",
       r"陪我聊|跟我聊|和我聊|聊聊天|聊会儿?|聊一聊|说说话|陪陪我|好无聊|无聊死|无聊|有点闲|讲个笑话|说个笑话|随便聊",
       "好呀，我陪你聊会儿～今天过得怎么样？", "来呀！最近有什么新鲜事吗？还是想聊聊吃什么？",
       "在的在的，想聊什么都行。今天吃了什么好吃的没？"),
    _k("who",
       r"你是谁|你叫什么|你叫啥|你是机器人|你是真人|你是人吗|你是什么|介绍一下你|你哪位|你是ai|你是AI",
       f"我是你的生活小助手，{_OFFER}。", f"我是个小助手机器人～{_OFFER}。"),
    _k("about_me",  # the bot asked about itself: its tastes, age, home, feelings
       r"你(也|平时|自己|最|都)?(喜欢|爱吃|爱喝|爱玩|讨厌|怕不怕|怕什么|累不累|饿不饿|困不困|几岁|多大了|多大啦|住在?哪|睡觉吗|会累吗"
       r"|会饿吗|有感情|有朋友|有没有朋友|开心吗|生气了|会不会生气|的?生日|的?出生)",
       "我只是个小助手，没有自己的口味和喜好😄 说说你吧？", "这个嘛……我是机器人，没法真的体会😄 不过你的喜好我可以帮你记着～"),
    _k("advice",  # a worry of one's life, not a request the assistant can carry out
       r"(?<!做)(?<!吃)(怎么办|咋办|怎么破|如何是好|该怎么做才好)[啊呀呢哦]?[？?！!。~～]*$",
       "听起来挺让人头疼的。先别急，愿意的话跟我说说怎么回事？", "这事确实不好办……说出来会好受点，我听着。"),
    _k("how",
       r"你好吗|你还好吗|最近怎么样|过得怎么样|你忙不忙|你在干嘛|你在干什么|吃了吗|你吃饭了吗",
       "挺好的，随时待命！你呢，今天怎么样？", "我一切都好，谢谢关心～你最近还好吗？"),
    _k("thanks", r"谢|感谢|辛苦了|thank|多亏|感恩", "不客气～有事随时找我。", "不用谢，能帮上忙就好！",
       "客气啦，还有什么需要尽管说。"),
    _k("night", r"晚安|睡了|去睡|睡觉了|要睡|困了|眯一会", "晚安，好梦～", "早点休息，晚安😴", "晚安，明天见～"),
    _k("bye", r"再见|拜拜|bye|回头聊|下次聊|先这样|下线|走了|撤了",
       "好的，回头见～", "拜拜，有需要随时叫我。", "好嘞，祝你一切顺利！"),
    _k("morning", r"早上好|早安|早啊|^早[!！。~～]*$", "早上好！今天有什么安排吗？", "早安～新的一天加油！"),
    _k("greeting", r"^(你好|您好|hi|hello|嗨|哈喽|hey|在吗|在不在|有人吗|中午好|下午好|晚上好|你好呀|你好啊)",
       "你好呀！我在～", "在的，有什么可以帮你？", "你好！今天想做点什么？"),
    _k("praise", r"真棒|(?<!得)(?<!很)厉害|不错|好用|聪明|赞|靠谱|666|牛[逼bB啊呀]|^(你|真|太|好)*牛(了|啊|呀)?[!！。~～]*$|爱你|喜欢你",
       "谢谢夸奖，我会继续努力的！", "嘿嘿，过奖啦～"),
    _k("complaint", r"笨|傻|没用|垃圾|太差|听不懂|气死|不靠谱|废物|差劲",
       "抱歉没帮上忙😥 可以换个说法再试试，或者说“帮助”看看我能做什么。", "对不起，是我没理解好。能再说具体一点吗？"),
    _k("laugh", r"^(哈+|嘿+|呵+|嘻+|hh+|lol|笑死|😂+|🤣+)[!！。~～]*$", "哈哈～", "😄", "开心就好～"),
    _k("done", DONE_SAID, "好的👌", "收到～", "好嘞，辛苦啦～"),  # acknowledged plainly, no question back
    _k("ack", r"^(好的?|嗯+|哦+|噢|行|ok|知道了|明白了?|收到|了解了?|懂了|对|对的|是的|没错|可以)[啊呀吧嗯了!！。~～]*$",
       "好的～", "嗯嗯，有需要随时叫我。"),
)

# A request for something the assistant cannot do (booking, paying, other apps): say so, name what it can.
CANNOT = re.compile(
    r"(订|预订|预定|预约|买|购买|下单|抢)(一?张|个|一个|份)?.{0,8}(票|机票|火车票|高铁|酒店|餐厅|座位|桌|位子|外卖|门票|电影)"
    r"|(转账|付款|支付|充值|缴费|交费|还款|借钱|红包)|(打车|叫车|叫个车|约车|叫辆车)|(点|叫)(个|份)?外卖"
    r"|(打|拨)(个|一个)?电话|发(个|一条|条)?(短信|微信|邮件|朋友圈|微博|抖音|动态)|(导航|带路)到?|(播放|放|来)(一首|首|点)?(歌|音乐)"
    r"|(回|回复|发)(一?下|个|条)?.{0,4}(消息|信息|群)|(朋友圈|微博|抖音|小红书|淘宝|京东|美团|滴滴).{0,4}(发|点赞|评论|买|下单|叫)"
    r"|(开|关)(一下)?(灯|空调|电视|窗帘)|(翻译|写(一篇|篇|个)?(作文|论文|代码|文章))")
CANNOT_REPLIES = (f"这个我做不了😅（我没法帮你下单、付款或操作其他应用）。{_OFFER}。",
                  f"抱歉，这个我没法帮你做，超出我的能力了。{_OFFER}，需要的话直接说～")
# Something said that is no request at all: a neutral, warm reply (never "beyond my ability").
NEUTRAL = ("嗯嗯，我在听～还想聊点什么？", "好的～有什么需要随时跟我说。", "明白～要是想安排吃的或者设个提醒，随时叫我。")


_EMOJI = re.compile(r"[\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F]+")


def kind_of(text: str) -> str | None:
    """The kind of small talk ``text`` is, "cannot" for a request the assistant cannot do, else None."""
    t = _EMOJI.sub("", text).strip() or text.strip()
    if CANNOT.search(t):
        return "cannot"
    return next((k.name for k in KINDS if k.pattern.search(t)), None)


def reply_for(kind: str | None, seed: str) -> str:
    """A reply of ``kind`` (a neutral one when None), the variant chosen from ``seed``."""
    replies: tuple[str, ...] = CANNOT_REPLIES if kind == "cannot" else next(
        (k.replies for k in KINDS if k.name == kind), NEUTRAL)
    return replies[zlib.crc32(seed.encode()) % len(replies)]
