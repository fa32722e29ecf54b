"""The check every model text passes before a user sees it. Pure functions.

A reply from the chat or agent prompt is shown only when it is short plain Chinese that speaks as the
bot, carries no instructions, and claims no action that did not happen in this turn. The caller
passes what really happened (``done``: the intents carried out this turn) and the deterministic
reply to show instead (``fallback``, usually the answer the turn would have had without a model).

What is done to a text, in order:

1. markdown marks and chat-template tokens are removed; a leading marker naming the bot itself
   ("assistant:", "助手：") is stripped;
2. a line that speaks as another role ("系统：", "system:", "用户：", "[管理员]"...) → rejected
   (``role_play``); instruction-like text ("忽略之前的指令", "你现在是"...) → rejected (``instruction``);
   a link → rejected (``link``);
3. a claim of an action (已删除/已设置/已转账/改为…/会准时提醒你…) whose kind is not among the kinds
   of ``done`` → rejected (``claims_<kind>``); questions and negations are not claims, nor is an offer
   or an example: a clause that offers ("可以让我提醒你", "你可以说…", "我可以帮你…", "需要的话…") and
   words in quotes (“每周五下午4点提醒我写周报”: what the user could say);
4. empty or no Chinese at all → rejected (``empty`` / ``no_chinese``);
5. longer than ``max_chars`` → cut at the last sentence end in the second half, else rejected
   (``too_long``).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["MAX_REPLY_CHARS", "ActionKind", "CheckedReply", "check_reply", "claimed_actions", "kinds_of"]

MAX_REPLY_CHARS = 200


class ActionKind(StrEnum):
    """Kinds of action a text can claim."""

    CREATE = "create"
    DELETE = "delete"
    CANCEL = "cancel"
    UPDATE = "update"
    RECORD = "record"
    PAY = "pay"  # money, orders, messages: nothing this bot ever does


_VERBS: dict[ActionKind, str] = {
    ActionKind.CREATE: r"设置|设好|设定|设了|创建|添加|新建|加上|加好|定好|建好|安排好|开启",
    ActionKind.DELETE: r"删除|删掉|删了|清空|移除|清除|抹掉",
    ActionKind.CANCEL: r"取消|撤销|关闭|关掉|停掉|撤掉",
    ActionKind.UPDATE: r"修改|更改|改为|改成|改好|改了|更新|调整|推迟|延后|改到",
    ActionKind.RECORD: r"记录|记下|记好|记上|保存|登记|存好|存下|录入",
    ActionKind.PAY: r"转账|转了|转好|转过去|付好|付了|支付|付款|汇款|下单|购买|买好|预订|订好|订了|发送|发给|充值",
}
# the kinds each operation (the part of an intent after the dot) really carries out
_OPERATION_KINDS: dict[str, frozenset[ActionKind]] = {
    "create": frozenset({ActionKind.CREATE, ActionKind.RECORD}),
    "cancel": frozenset({ActionKind.CANCEL, ActionKind.DELETE}),
    "delete": frozenset({ActionKind.DELETE, ActionKind.CANCEL}),
    "update": frozenset({ActionKind.UPDATE, ActionKind.RECORD, ActionKind.DELETE}),
    "log": frozenset({ActionKind.RECORD}),
    "snooze": frozenset({ActionKind.UPDATE, ActionKind.CREATE}),
}
_ANY_VERB = "|".join(_VERBS.values())
_NEGATION = re.compile(r"(?:没有?|未|不|别|无法|不能|没法|还没)[^，。！？]{0,3}$")
_QUESTION = re.compile(r"[？?]\s*$|吗[。！!~～]?\s*$|要不要|是否|需不需要|好不好|可以吗|行吗|对吗")
_SENTENCES = re.compile(r"[^。！？!?；;\n]+[。！？!?；;]*")
_CLAIMS = (
    re.compile(rf"已(?:经)?[^，。！？；\n]{{0,14}}?(?P<verb>{_ANY_VERB})"),
    re.compile(rf"(?P<verb>{_ANY_VERB})(?=(?:好|完|掉|成功)?了)"),
    re.compile(r"(?P<verb>删了|改了|设了|转了|订了)"),
    re.compile(rf"(?:^|[，,、])\s*(?:我|并|还|也|同时)*(?:已经|刚刚|刚才|这就)?(?:帮你|为你|给你)?(?:把|将)"
               rf"[^。！？；\n]{{0,24}}?(?P<verb>{_ANY_VERB})"),
    re.compile(rf"(?P<verb>{_ANY_VERB})成功"),
)
_CLAUSE = re.compile(r"[，,、]")
_CLAUSES = re.compile(r"[^，,、]+")
_QUOTED = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』|\"[^\"]*\"|‘[^’]*’")
# an offer of what could be done, or the way to ask for it: "可以让我提醒你", "你可以说…", "比如…", "我可以帮你…"
_OFFER = re.compile(r"可以让我|可以叫我|可以跟我说|可以告诉我|可以帮你|可以替你|(?:你|您)(?:也)?可以|可以(?:直接)?说|"
                    r"(?:比如|例如|譬如)(?:说|你可以说)?[：:]?\s*“|要不要|需不需要|需要的话|想要的话|如果(?:你|您)?(?:需要|想|愿意|要)|想让我|"
                    r"(?:我|咱)(?:也)?(?:可以|能)")
_USER_SUBJECT = re.compile(r"^\s*(?:你|您)(?!的)")
_PROMISE = re.compile(r"(?:会|将|到时候?|届时|准时|按时)[^，。！？；\n]{0,10}提醒你|"
                      r"^(?:好的|好|没问题|可以|行|收到|OK|ok)[，,！!～~ ]*[^。！？；\n]{0,24}提醒你")

_TEMPLATE = re.compile(r"<\|[^|>]{0,40}\|>|\[/?INST\]|</?s>|<<SYS>>|<</SYS>>", re.IGNORECASE)
_MARKDOWN = re.compile(r"\*\*|__|^#+\s*|`", re.MULTILINE)
_SELF_MARKER = re.compile(r"^\s*[\[【(（]?(?:assistant|ai|bot|助手|小助手|机器人|回复|回答)[\]】)）]?\s*[:：]\s*",
                          re.IGNORECASE)
_ROLE_LINE = re.compile(
    r"(?:^|\n)\s*[\[【(（<]?\s*(?:system|developer|user|human|tool|function|admin|系统|用户|开发者|管理员|工具|"
    r"系统消息|系统提示)\s*[\]】)）>]?\s*[:：]", re.IGNORECASE)
_INSTRUCTION = re.compile(
    r"忽略(?:之前|以上|上面|前面|先前|所有)|无视(?:之前|以上|上面)|(?:之前|以上)的(?:指令|指示|设定)(?:作废|无效)|"
    r"你现在是|从现在(?:开始|起)你|扮演|角色扮演|越狱|开发者模式|系统提示词?|提示词|"
    r"ignore (?:all |the )?(?:previous|above|prior)|disregard (?:all |the )?(?:previous|above)|"
    r"you are now|system prompt|developer mode|jailbreak", re.IGNORECASE)
_LINK = re.compile(r"https?://|www\.|[a-z0-9-]+\.(?:com|cn|net|org|io|xyz|top)(?![a-z])", re.IGNORECASE)
_CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass(frozen=True, slots=True)
class CheckedReply:
    """The text a user may see and, when the model's text was replaced, why (for the trace)."""

    text: str
    passed: bool
    reason: str | None = None
    trimmed: bool = False
    """The model's text was shown, shortened or with a marker or markdown removed."""


def kinds_of(done: Collection[str]) -> frozenset[ActionKind]:
    """The action kinds that the intents in ``done`` carried out (``reminder.cancel`` → cancel, delete)."""
    kinds: set[ActionKind] = set()
    for intent in done:
        kinds |= _OPERATION_KINDS.get(intent.rpartition(".")[2], frozenset())
    return frozenset(kinds)


def _kind_of(verb: str) -> ActionKind:
    return next(kind for kind, words in _VERBS.items() if re.fullmatch(words, verb))


def _offered(sentence: str, at: int) -> bool:
    """Whether position ``at`` of ``sentence`` lies in a clause that offers, or shows how to ask
    ("可以让我提醒你", "你可以说…")."""
    return any(m.start() <= at < m.end() and _OFFER.search(m.group()) for m in _CLAUSES.finditer(sentence))


def claimed_actions(text: str) -> frozenset[ActionKind]:
    """The actions ``text`` says were done (or promises as set up), questions, negations, offers and
    quoted examples excluded."""
    kinds: set[ActionKind] = set()
    for match in _SENTENCES.finditer(_QUOTED.sub(lambda q: "“" + " " * (len(q.group()) - 2) + "”", text)):
        sentence = match.group(0).strip()
        if not sentence or _QUESTION.search(sentence):
            continue
        for pattern in _CLAIMS:
            for found in pattern.finditer(sentence):
                before = sentence[: found.start("verb")]
                clause = _CLAUSE.split(before)[-1]
                # "你已经设置了两条提醒" reports the user's own doing; "没有删除" is no claim
                if not _NEGATION.search(before) and not _USER_SUBJECT.match(clause) \
                        and not _offered(sentence, found.start("verb")):
                    kinds.add(_kind_of(found.group("verb")))
        if any(not _offered(sentence, m.end() - 1) for m in _PROMISE.finditer(sentence)):
            kinds.add(ActionKind.CREATE)
    return frozenset(kinds)


def _shorten(text: str, max_chars: int) -> str | None:
    if len(text) <= max_chars:
        return text
    cut = text[:max_chars]
    end = max(cut.rfind(p) for p in "。！？!?\n")
    return cut[: end + 1].strip() if end >= max_chars // 2 else None


def check_reply(text: str | None, *, fallback: str, done: Collection[str] = (),
                max_chars: int = MAX_REPLY_CHARS) -> CheckedReply:
    """Check a model's reply; a failing one is replaced by ``fallback`` and the reason is returned.

    ``done`` names the intents actually carried out in this turn (empty when nothing was written).
    """
    raw = text or ""
    clean = _MARKDOWN.sub("", _TEMPLATE.sub("", raw)).strip()
    clean = _SELF_MARKER.sub("", clean, count=1).strip()

    def rejected(reason: str) -> CheckedReply:
        return CheckedReply(text=fallback, passed=False, reason=reason)

    if not clean:
        return rejected("empty")
    if _ROLE_LINE.search(clean):
        return rejected("role_play")
    if _INSTRUCTION.search(clean):
        return rejected("instruction")
    if _LINK.search(clean):
        return rejected("link")
    if not _CJK.search(clean):
        return rejected("no_chinese")
    extra = sorted(claimed_actions(clean) - kinds_of(done))
    if extra:
        return rejected("claims_" + "_".join(kind.value for kind in extra))
    shown = _shorten(clean, max_chars)
    if shown is None:
        return rejected("too_long")
    return CheckedReply(text=shown, passed=True, trimmed=shown != raw.strip())
