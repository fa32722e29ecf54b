"""Token bench: our prompts (as sent over HTTP to a local fake) vs a naive baseline built in the same run.

Baseline per turn: a system prompt with the raw context as JSON, the last 20 messages, the message,
and every tool schema. Ours: what ``llm_router`` / the fallback agent actually sent. Both sides are
counted with the same documented estimate (``estimate_prompt_tokens``), so the ratio is fair even
though the absolute figures are estimates.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from ._bench_data import AT, TURNS, catalog, context, transcript
from ._labels import labels_from_registry
from ._tokens import estimate_prompt_tokens
from .agent import FallbackAgent
from .openai_adapter import OpenAILLM
from .profiles import LLMConfig
from .routing import Router
from .testkit import FakeOpenAI, json_reply, reply

__all__ = ["BenchReport", "TurnFigures", "run_bench"]

TARGET_RATIO = 1 / 3


class TurnFigures(BaseModel):
    """Prompt tokens of one turn, ours and the baseline's."""

    stage: str
    text: str
    ours: int
    baseline: int


class BenchReport(BaseModel):
    """The bench result."""

    turns: list[TurnFigures]
    ours_total: int
    baseline_total: int
    ratio: float
    target: float = round(TARGET_RATIO, 4)
    within_target: bool
    estimated: bool = True


def _baseline(text: str, raw_context: str, tools: list[dict[str, Any]]) -> int:
    messages = [
        {"role": "system", "content": "你是微信助手，可以调用工具完成用户的任何请求。用户的完整上下文如下：\n" + raw_context},
        *transcript(),
        {"role": "user", "content": text},
    ]
    return estimate_prompt_tokens(messages, tools)


def _sent(body: Any) -> int:
    return estimate_prompt_tokens(body.get("messages") or [], body.get("tools"), body.get("response_format"))


def run_bench(skills: Iterable[Any]) -> BenchReport:
    """Run every fixed turn through the real router/agent against a local fake, and the baseline; ``skills``
    are the registered skills (their actions are the naive agent's tools and the router's labels)."""
    skills = tuple(skills)
    tools = catalog(lambda: AT, skills)
    all_schemas = [t.schema() for t in tools]
    raw_context = context().model_dump_json()
    figures: list[TurnFigures] = []
    with FakeOpenAI(default=reply("好的")) as fake:
        llm = OpenAILLM(LLMConfig.from_env(fake.env()))
        try:
            router = Router(llm, labels_from_registry(skills))
            agent = FallbackAgent(llm)
            for stage, text, summary in TURNS:
                before = len(fake.chat_requests)
                if stage == "llm_router":
                    fake.script(json_reply({"intent": "unknown", "confidence": 0.5}))
                    router.route(text, summary)
                else:
                    agent.answer(text, summary, tools)
                ours = sum(_sent(r.body or {}) for r in fake.chat_requests[before:])
                figures.append(TurnFigures(stage=stage, text=text, ours=ours,
                                           baseline=_baseline(text, raw_context, all_schemas)))
        finally:
            llm.close()
    ours_total = sum(f.ours for f in figures)
    base_total = sum(f.baseline for f in figures)
    ratio = ours_total / base_total if base_total else 0.0
    return BenchReport(turns=figures, ours_total=ours_total, baseline_total=base_total, ratio=round(ratio, 4),
                       within_target=ratio <= TARGET_RATIO)
