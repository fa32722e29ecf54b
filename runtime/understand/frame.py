"""The frame: one message, parsed once (DESIGN §1, §3.4).

The :class:`Parser` normalises a message and makes its :class:`Frame`. The frame is the only holder of
the message's words: everything after the parser — the resolver, the slot filling, the skills — asks
the frame typed questions (its dialogue act, the operations it names with their spans, the values of an
action's slots, which shown thing it points at, what stays unexplained) and never reads the text. Each
reading is computed at most once, when first asked (a turn asks only what its decision needs), and
kept with the frame. A part of a message (a clause, the words after a correction, one request of
several) is a frame of its own, made by the parser from the whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

from runtime.parsers.correction import CORRECTION, correction_tail
from runtime.parsers.slots import parse_yes_no
from runtime.skill import DomainObject, Operation, SkillRegistry
from runtime.understand import lexicon, spans
from runtime.understand._frame_values import FrameValues
from runtime.understand.control import ControlReading, read_control
from runtime.understand.crisis import Crisis, detect_crisis
from runtime.understand.domain import domain_guesses, domain_intents
from runtime.understand.grounding import focus_texts, split_grounded
from runtime.understand.language import Language
from runtime.understand.reasons import reason_spans
from runtime.understand.typos import Repair

__all__ = ["Frame", "Language", "Parser", "Span"]

Span = tuple[int, int]
T = TypeVar("T")

# a question, in any of the shapes people ask one
QUESTION = re.compile(r"[?？]|几[号点月天时个]|几点|多少|什么|啥|哪[天里儿个些]|怎么|吗|呢$|来着|是不是|有没有|星期几|周几|(.)不\1")
# asking the bot to suggest the awaited value: "你推荐多少预算合适", "一般多少钱", "你定吧"
_ADVICE = re.compile(r"(推荐|建议|觉得)(一下)?(多少|几|多久|多长)|多少(钱|块)?(比较)?(合适|够|好)|一般(要)?(多少|几|多久)|"
                     r"^(你|您)(来)?定(吧|呗)?$|你看着(办|定|来)")
_SIDE_CLAUSES = re.compile(r"[，,。；;！!？?]|顺便|另外|对了")
_SENTENCE_END = re.compile(r"[？?！!。]+|(?<=[吧吗呢嘛])[\s，,]+")  # "前一天就是初四吧 那天下午4点…": a tag ends it too
_BARE_TAIL = re.compile(r"[吧啊呀哦嘛呢的。.！!~～\s]+$")
_BARE_HEAD = re.compile(r"^(?:哎哟|哎呀|哎|唉|哦|噢|嗯|呃|额|诶|欸|哟|嗨)+[，,。！!\s]*")
_FREE_TRIM = "。.!！"
# pointing at one thing ("把那个取消了"), not at a stretch of time
_DEIXIS = re.compile(r"那件事|这件事|那事|这事|那个|这个|那条|这条|那件|这件")
# "取消刚才那个" / "刚才那个不要了": takes back what was just done
_UNDO = re.compile(r"^(?:把)?(?:取消|删掉|删除|删了|撤销|撤回|去掉)(?:掉)?(?:刚才|刚刚)(?:设的|加的|记的|的)?(?:那个|那条|这个)?"
                   r"(?:提醒)?(?:吧|了)?[。！!]*$|^(?:刚才|刚刚)(?:设的|加的|的)?(?:那个|那条|这个)?(?:提醒)?"
                   r"(?:不要了|取消|取消掉|删掉|删了|撤销|算了|作废)(?:吧|了)?[。！!]*$")
_FOREIGN = re.compile(r"[A-Za-z0-9\s,.;:'\"!?&()/-]+")


class Frame(FrameValues):
    """One message (or a part of one), parsed. Built by :class:`Parser`; read through its methods."""

    __slots__ = ("_memo", "lang", "now", "original", "repairs", "text")

    def __init__(self, text: str, now: datetime, lang: Language, repairs: tuple[Repair, ...] = (),
                 original: str | None = None) -> None:
        self.text = text  # read only inside runtime.understand (a test fails the build otherwise)
        self.now = now
        self.lang = lang
        self.repairs = repairs
        self.original = text if original is None else original  # the words as typed, before normalising
        self._memo: dict[Any, Any] = {}

    def __repr__(self) -> str:
        return f"Frame({self.text!r})"

    def _once(self, key: Any, make: Callable[[], T]) -> T:
        try:
            return self._memo[key]  # type: ignore[no-any-return]
        except KeyError:
            value = self._memo[key] = make()
            return value

    # -- parts ------------------------------------------------------------------------------
    def part(self, start: int, end: int | None = None) -> Frame:
        """The frame of the characters ``start..end`` of this one."""
        return Frame(self.text[start:end], self.now, self.lang)

    def part_of(self, words: str) -> Frame:
        """The frame of ``words`` a reader took out of this message (a fragment, a piece)."""
        return Frame(words, self.now, self.lang)

    def joined(self, parts: Sequence[Frame]) -> Frame:
        """The frame of ``parts`` said together, joined by a comma."""
        return Frame("，".join(p.text for p in parts), self.now, self.lang)

    def side_clauses(self) -> list[Frame]:
        """The clauses a question may stand in beside a request (cut at punctuation, 顺便, 另外, 对了)."""
        return self._once("side", lambda: [Frame(c.strip(), self.now, self.lang)
                                           for c in _SIDE_CLAUSES.split(self.text) if c.strip()])

    def without(self, clause: Frame) -> Frame:
        """This message without one of its side clauses (the rest, joined)."""
        return self.joined([c for c in self.side_clauses() if c.text != clause.text])

    def sentences(self) -> tuple[Frame, Frame] | None:
        """The first sentence (ended by ？！。) and the rest, when both say something."""
        cut = _SENTENCE_END.search(self.text)
        if cut is None or not self.text[cut.end():].strip():
            return None
        end = cut.end() if cut.group(0)[0] in "？?！!。" else cut.start()  # a tag (吧, 吗) ends it without the space
        return self.part(0, end), Frame(self.text[cut.end():].strip(), self.now, self.lang)

    def correction(self) -> Frame | None:
        """The corrected words of a correction (不是3个，是4个 → 4个), or None."""
        tail = correction_tail(self.text)
        return Frame(tail, self.now, self.lang) if tail else None

    def after(self, words: str) -> Frame | None:
        """The message read after ``words`` already understood ("那天早上" + "7点"), unless it says them."""
        if words in self.text:
            return None
        return Frame(f"{words} {self.text}", self.now, self.lang)

    def resolved(self, entities: Sequence[Any], registry: SkillRegistry) -> Frame:
        """This message with a word pointing at the one entity of its kind just shown ("那天") read as
        what it names (the entity's ``phrase``), or counted from it ("前一天早上9点…"); never when the word
        belongs to a value the message names itself ("中秋那天": the user's entity, not the focus)."""
        text = self.text
        if not text:
            return self
        for entity in entities:
            obj = registry.object(entity.kind)
            phrase = entity.attrs.get("phrase")
            if obj is None or not isinstance(phrase, str) or sum(e.kind == entity.kind for e in entities) != 1:
                continue
            for word in sorted(obj.refers, key=len, reverse=True):
                at = text.find(word)
                if at >= 0 and not any(s < at < e for s, e in self.value_spans):
                    return Frame(text.replace(word, phrase, 1), self.now, self.lang)
            for word in sorted(obj.anchors, key=len, reverse=True):
                at = text.find(word)
                if at >= 0 and not lexicon.unexplained(text[:at], []):  # "前一天早上9点提醒我…": counted from that day
                    return Frame(f"{text[:at]}{phrase}{text[at:]}", self.now, self.lang)
        return self

    @property
    def crisis(self) -> Crisis | None:
        """The crisis the message tells of (thoughts of suicide or self-harm, a medical emergency, violence
        at home), if any."""
        return self._once("crisis", lambda: detect_crisis(self.text))

    def request_after_crisis(self) -> Frame | None:
        """What the message asks besides its crisis words, from the first piece that asks something by
        itself in so many words ("…，明早提醒我去挂号"; "还一直出冷汗" beside a crisis is no request)."""
        found = self.crisis
        if found is None:
            return None
        pieces = [p for p in found.rest(self.text).split("，") if p.strip()]
        start = self.lang.requests.request_after(pieces)
        return Frame("，".join(pieces[start:]), self.now, self.lang) if start < len(pieces) else None

    def several_pieces(self) -> bool:
        """Whether it has more than one piece (split at punctuation, spaces and 顺便/还有…) at all."""
        return self._once("several", lambda: self.lang.requests.several(self.text))

    def requests(self) -> list[tuple[str, Frame, bool]]:
        """Each request the message holds: (intent, its words, whether it is one more of a list said
        before it); one when it is a single request."""
        return self._once("requests", lambda: [(r.intent, Frame(r.words, self.now, self.lang), r.listed)
                                               for r in self.lang.requests.split(self.text)])

    def complete(self, intent: str) -> bool:
        """Whether the message gives ``intent`` everything it needs."""
        return self.lang.requests.complete(intent, self.text)

    def domain(self) -> tuple[str, ...]:
        """The intents operation × object reads in the message, when they explain it whole."""
        return self._once("domain", lambda: domain_intents(self.text, self.lang.registry.objects))

    def guesses(self) -> tuple[str, ...]:
        """The requests a message that hints at the domain may mean (for a numbered question)."""
        return domain_guesses(self.text, self.lang.registry.objects)

    def reasons(self) -> list[Frame]:
        """The clauses that say why, not what ("早上我在开会" beside "改到中午吧")."""
        return [self.part(a, b) for a, b in self._once("reasons", lambda: reason_spans(self.text))]

    def without_reasons(self) -> Frame:
        """This message without the clauses that say why (itself when none does)."""
        spans = self._once("reasons", lambda: reason_spans(self.text))
        if not spans:
            return self
        kept, start = [], 0
        for a, b in spans:
            kept.append(self.text[start:a])
            start = b
        kept.append(self.text[start:])
        return Frame(" ".join(k.strip() for k in kept if k.strip()), self.now, self.lang)

    def grounded(self, params: Mapping[str, Any], focus: Any = None) -> tuple[dict[str, Any], list[str]]:
        """``params`` a model proposed, kept where the user said them — in this message (as typed or as read)
        or in what the ``focus`` last showed — and the names of those dropped."""
        return split_grounded(params, [self.text, self.original, *focus_texts(focus)])

    def keep(self) -> str:
        """The words, for storing with a request that is carried out later (parsed again then)."""
        return self.text

    def for_model(self) -> str:
        """The words as a model is shown them (the model port cuts a long message itself)."""
        return self.text

    # -- shape -------------------------------------------------------------------------------
    @property
    def empty(self) -> bool:
        """Whether the message says nothing."""
        return not self.text.strip()

    @property
    def length(self) -> int:
        """Characters, as written."""
        return len(self.text)

    @property
    def size(self) -> int:
        """Characters said (without the spaces around them)."""
        return len(self.text.strip())

    @property
    def foreign(self) -> bool:
        """Whether it is written in another language (two or more Latin words, no Chinese)."""
        return bool(_FOREIGN.fullmatch(self.text)) and len(re.findall(r"[A-Za-z]{2,}", self.text)) >= 2

    @property
    def has_digits(self) -> bool:
        """Whether a digit is written in it."""
        return any(ch.isdigit() for ch in self.text)

    @property
    def question(self) -> bool:
        """Whether it asks something (a question mark or a question word)."""
        return self._once("question", lambda: bool(QUESTION.search(self.text)))

    @property
    def asks_advice(self) -> bool:
        """Whether it asks the bot to suggest a value ("你推荐多少预算合适")."""
        return bool(_ADVICE.search(self.text))

    @property
    def corrects(self) -> bool:
        """Whether it says a correction word (不对, 不是, 改成…)."""
        return self._once("corrects", lambda: bool(CORRECTION.search(self.text)))

    @property
    def control(self) -> ControlReading:
        """Its control words and yes/no (取消, 继续, 好的, 算了先留着…)."""
        return self._once("control", lambda: read_control(self.text))

    @property
    def yes_no(self) -> bool | None:
        """A yes (True) or a no (False) when the message is nothing but one."""
        return self._once("yes_no", lambda: lexicon.yes_no(self.text))

    @property
    def says_yes(self) -> bool | None:
        """A yes or a no as the answer to a question that offered a remembered value ("是的" to 还是3个人吗)."""
        return parse_yes_no(self.text, True)

    @property
    def elliptical(self) -> bool:
        """"那广州呢": a question that only makes sense against the last query."""
        return lexicon.is_elliptical_question(self.text)

    @property
    def correction_only(self) -> bool:
        """"不对，是6个人" / "改成9点半": the message corrects what was said or done last."""
        return lexicon.is_correction(self.text)

    def fragment(self) -> Frame | None:
        """The changed part of an elliptical follow-up or a correction ("那广州呢" → 广州)."""
        said = lexicon.follow_up_fragment(self.text)
        return Frame(said, self.now, self.lang) if said else None

    def ahead(self) -> float | None:
        """Minutes of "提前半小时(提醒我)", when that is all the message says."""
        return lexicon.ahead_minutes(self.text)

    def again_now(self) -> bool:
        """"现在呢": how things stand now."""
        return lexicon.asks_again_now(self.text)

    @property
    def takes_back(self) -> bool:
        """"取消刚才那个": the message only takes back what was just done."""
        return bool(_UNDO.match(self.text))

    @property
    def asks_another(self) -> bool:
        """Whether it asks for something other than what was shown ("再来一个别的", "换一个")."""
        return lexicon.asks_for_another(self.text)

    def deixis(self) -> Span | None:
        """Where it points at one thing ("那个", "这条"), if it does."""
        m = _DEIXIS.search(self.text)
        return m.span() if m else None

    def words_beyond(self, taken: Sequence[Span]) -> str:
        """The words ``taken`` spans, pointing words and function words leave: what names a thing
        ("打疫苗那个取消吧" → 打疫苗)."""
        return lexicon.unexplained(_DEIXIS.sub(lambda m: " " * len(m.group()), self.text), list(taken)).strip()

    @property
    def slack(self) -> int:
        """Characters a follow-up may leave unexplained: one in a short message, a quarter of a long one."""
        return spans.slack(self.text)

    def bare(self) -> Frame:
        """The message without the interjection it starts with and the particles and punctuation it ends
        with ("哎哟 早上8点吧" → 早上8点)."""
        return Frame(_BARE_TAIL.sub("", _BARE_HEAD.sub("", self.text)), self.now, self.lang)

    def free_text(self) -> str:
        """The message as a free-text value (the words said, trimmed)."""
        return self.text.strip().strip(_FREE_TRIM)

    # -- words of the domain -----------------------------------------------------------------
    @property
    def rule(self) -> tuple[str, str] | None:
        """(intent, rule name) of the skills' routing rule that reads it, if any."""
        return self._once("rule", lambda: self.lang.rules.classify(self.text.strip()) if self.text.strip() else None)

    @property
    def rule_span(self) -> Span | None:
        """Where the routing rule that reads it found its words."""
        return self.lang.rules.said_by(self.text)

    @property
    def operations(self) -> list[tuple[Operation, Span]]:
        """Every operation it names, with where (the shared lexicon)."""
        return self._once("ops", lambda: lexicon.operations(self.text))

    @property
    def value_spans(self) -> list[Span]:
        """Where it says a value: numbers with what they count, periods, time phrases."""
        return self._once("values", lambda: lexicon.value_spans(self.text))

    def named(self, obj: DomainObject) -> list[Span]:
        """Where it names ``obj`` by one of its words."""
        return [m.span() for m in obj.pattern.finditer(self.text)]

    def hints(self, obj: DomainObject) -> Span | None:
        """Where it first names or hints at ``obj`` (its words or signals)."""
        m = obj.hints.search(self.text)
        return m.span() if m else None

    def names_any(self, objects: Sequence[DomainObject]) -> bool:
        """Whether it names one of ``objects``."""
        return any(o.pattern.search(self.text) for o in objects)

    def finds(self, pattern: re.Pattern[str]) -> list[re.Match[str]]:
        """Where a pattern a skill declared (a modifier, a derived question) is said."""
        return list(pattern.finditer(self.text))

    def explains(self, spans: Sequence[Span], *, slack: int = 0) -> bool:
        """Whether ``spans`` and function words explain the whole message."""
        return lexicon.explained(self.text, list(spans), slack=slack)

    def unexplained(self, spans: Sequence[Span] = ()) -> str:
        """The characters neither ``spans`` nor function words account for."""
        return lexicon.unexplained(self.text, list(spans))

    def clause_spans(self) -> list[Span]:
        """Its clauses, split at punctuation and spaces."""
        return lexicon.clauses(self.text)

    def clauses(self) -> list[tuple[Span, Frame]]:
        """Its clauses (split at punctuation and spaces), each with where it stands."""
        return [((a, b), self.part(a, b)) for a, b in lexicon.clauses(self.text)]


class Parser:
    """Normalises and parses messages with one :class:`Language`."""

    def __init__(self, lang: Language) -> None:
        self.lang = lang

    def parse(self, text: str, now: datetime) -> Frame:
        """The frame of ``text`` said at ``now`` (the user's clock)."""
        said = self.lang.normalise(text.strip())
        return Frame(said.text, now, self.lang, said.repairs, original=text)

    def again(self, words: str, now: datetime) -> Frame:
        """The frame of words kept from an earlier message (already normalised)."""
        return Frame(words, now, self.lang)
