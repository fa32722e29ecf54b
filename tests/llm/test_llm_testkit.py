"""The fake server itself, spoken to with plain HTTP (no openai client)."""

from __future__ import annotations

import json

import httpx

from runtime.llm.testkit import FakeOpenAI, reply, respond, tool_calls


def _post(fake: FakeOpenAI, body: dict[str, object], key: str = "k") -> httpx.Response:
    return httpx.post(f"{fake.base_url}/chat/completions", json=body, headers={"Authorization": f"Bearer {key}"})


def test_scripted_answers_in_order_and_exhaustion_is_loud() -> None:
    with FakeOpenAI() as fake:
        fake.script(reply("一"), tool_calls(("a", {"x": 1}, None), ("b", "{broken", "id-b")))
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
        first = _post(fake, body).json()
        assert first["choices"][0]["message"]["content"] == "一"
        assert first["usage"]["prompt_tokens"] == 2
        second = _post(fake, body).json()
        calls = second["choices"][0]["message"]["tool_calls"]
        assert [c["function"]["name"] for c in calls] == ["a", "b"]
        assert calls[1]["function"]["arguments"] == "{broken" and calls[1]["id"] == "id-b"
        third = _post(fake, body)
        assert third.status_code == 500 and third.headers["x-should-retry"] == "false"
        assert fake.exhausted == 1


def test_invalid_requests_and_keys_are_refused() -> None:
    with FakeOpenAI(api_key="right", default=reply("ok")) as fake:
        good = {"model": "m", "messages": []}
        assert _post(fake, good, key="wrong").status_code == 401
        assert _post(fake, {"messages": []}, key="right").status_code == 400
        assert _post(fake, good, key="right").status_code == 200
        assert len(fake.requests) == 3


def test_dynamic_step_sees_the_request() -> None:
    with FakeOpenAI() as fake:
        fake.script(respond(lambda req: reply(f"收到{len(req.messages)}条")))
        out = _post(fake, {"model": "m", "messages": [{"role": "system", "content": "s"},
                                                      {"role": "user", "content": "u"}]})
        assert json.loads(out.text)["choices"][0]["message"]["content"] == "收到2条"
        assert fake.requests[0].prompt_text == "s\nu"


def test_unsupported_features_get_400_without_consuming_the_script() -> None:
    with FakeOpenAI(supports=set()) as fake:
        fake.script(reply("kept"))
        out = _post(fake, {"model": "m", "messages": [], "response_format": {"type": "json_object"}})
        assert out.status_code == 400 and "json_object" in out.text
        out = _post(fake, {"model": "m", "messages": [], "tools": [{"type": "function"}]})
        assert out.status_code == 400
        assert fake.pending == 1
