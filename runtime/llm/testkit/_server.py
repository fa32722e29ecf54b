"""A real OpenAI-compatible HTTP server on 127.0.0.1 for tests (stdlib ``http.server`` in a thread)."""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Iterable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

from ._modes import Ideal, Mode, mode_step
from ._script import Delay, Disconnect, Dynamic, HTTPFault, Malformed, RecordedRequest, Reply, Step

__all__ = ["FakeOpenAI"]

ALL_FEATURES = frozenset({"tools", "json_schema", "json_object"})


class FakeOpenAI:
    """An OpenAI-compatible chat-completions endpoint answering from a script.

    Usage::

        with FakeOpenAI() as fake:
            fake.script(reply("你好"), tool_call("get_weather", {"city": "北京"}), error(500))
            llm = OpenAILLM(LLMConfig.from_env({"OPENAI_BASE_URL": fake.base_url, "OPENAI_MODEL": "m"}))
            ...
            assert "北京" in fake.requests[0].prompt_text

    ``supports`` lists the optional features the simulated provider accepts (``tools``,
    ``json_schema``, ``json_object``); a request using another one gets an HTTP 400 like a real
    provider, without consuming a scripted step. When the script is empty the fake answers with
    ``default`` if given, else HTTP 500 ``x-should-retry: false`` and counts it in ``exhausted``.
    ``api_key`` set means requests without ``Authorization: Bearer <api_key>`` get 401.
    ``set_mode`` makes the default answer a whole behaviour (see ``Mode``): sensible, garbage, slow,
    HTTP 500, HTTP 400 or injection.
    """

    def __init__(
        self,
        *,
        supports: Iterable[str] = ALL_FEATURES,
        default: Step | None = None,
        api_key: str | None = None,
    ) -> None:
        self.supports = frozenset(supports)
        self.default = default
        self.api_key = api_key
        self.requests: list[RecordedRequest] = []
        self.exhausted = 0
        self._queue: deque[Step] = deque()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._counter = 0

    # -- lifecycle -------------------------------------------------------------------------------
    def start(self) -> FakeOpenAI:
        """Bind a free port on 127.0.0.1 and serve in a daemon thread."""
        fake = self

        class Handler(_Handler):
            owner = fake

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="fake-openai", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; delayed answers still sleeping are cut short."""
        self._stop.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``: what ``OPENAI_BASE_URL`` should be."""
        if self._server is None:
            raise RuntimeError("FakeOpenAI is not started")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def env(self, model: str = "fake-model", **extra: str) -> dict[str, str]:
        """An environment mapping pointing every profile at this fake."""
        return {"OPENAI_BASE_URL": self.base_url, "OPENAI_API_KEY": self.api_key or "test-key",
                "OPENAI_MODEL": model, **extra}

    def set_mode(self, mode: Mode | str, *, table: Mapping[str, Ideal] | None = None,
                 slow_s: float = 30.0) -> None:
        """Answer every request not scripted otherwise as ``mode`` (``table`` for ``sensible``)."""
        step = mode_step(mode, table=table, slow_s=slow_s)
        with self._lock:
            self.default = step

    # -- script ----------------------------------------------------------------------------------
    def script(self, *steps: Step) -> None:
        """Append steps; each chat-completions request consumes one (client retries consume more)."""
        with self._lock:
            self._queue.extend(steps)

    @property
    def pending(self) -> int:
        """Steps not consumed yet."""
        with self._lock:
            return len(self._queue)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        """Only the chat-completions requests."""
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def _next(self) -> Step | None:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
            if self.default is not None:
                return self.default
            self.exhausted += 1
            return None

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def _completion_id(self) -> str:
        with self._lock:
            self._counter += 1
            return f"chatcmpl-fake-{self._counter}"

    def _unsupported(self, body: dict[str, Any]) -> str | None:
        if body.get("tools") and "tools" not in self.supports:
            return "tools are not supported by this model"
        fmt = body.get("response_format")
        if isinstance(fmt, dict):
            kind = str(fmt.get("type"))
            if kind in ("json_schema", "json_object") and kind not in self.supports:
                return f"response_format type '{kind}' is not supported by this model"
        return None

    def completion_body(self, step: Reply, request: RecordedRequest) -> dict[str, Any]:
        """The JSON body of a 200 answer for ``step``."""
        message: dict[str, Any] = {"role": "assistant", "content": step.content}
        if step.tool_calls:
            message["tool_calls"] = [
                {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}
                for cid, name, args in step.tool_calls
            ]
        finish = step.finish_reason or ("tool_calls" if step.tool_calls else "stop")
        body: dict[str, Any] = {
            "id": self._completion_id(),
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.model or "fake-model",
            "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
        }
        if step.usage is not None and step.usage is not False:
            if isinstance(step.usage, tuple):
                prompt, completion = step.usage
            else:  # a crude deterministic count: one token per character
                prompt = len(request.prompt_text)
                completion = len(step.content or "") + sum(len(a) for _, _, a in step.tool_calls)
            body["usage"] = {"prompt_tokens": prompt, "completion_tokens": completion,
                             "total_tokens": prompt + completion}
        return body


class _Handler(BaseHTTPRequestHandler):
    owner: FakeOpenAI
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        return

    def _send(self, status: int, payload: bytes, headers: dict[str, str] | None = None) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout): nothing to answer

    def _send_json(self, status: int, value: Any, headers: dict[str, str] | None = None) -> None:
        self._send(status, json.dumps(value, ensure_ascii=False).encode(), headers)

    def _error(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        kind = "invalid_request_error" if status < 500 else "server_error"
        self._send_json(status, {"error": {"message": message, "type": kind, "code": None}}, headers)

    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        self.owner._record(RecordedRequest("GET", self.path, dict(self.headers.items()), None, b""))
        if self.path.rstrip("/").endswith("/models"):
            self._send_json(200, {"object": "list", "data": [{"id": "fake-model", "object": "model"}]})
        else:
            self._error(404, "not found")

    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except json.JSONDecodeError:
            body = None
        headers = {k.lower(): v for k, v in self.headers.items()}
        request = RecordedRequest("POST", self.path, headers, body, raw)
        self.owner._record(request)
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._error(404, f"unknown path {self.path}")
            return
        if self.owner.api_key is not None and headers.get("authorization") != f"Bearer {self.owner.api_key}":
            self._error(401, "invalid api key")
            return
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list) or not body.get("model"):
            self._error(400, "body must be JSON with 'model' and 'messages'")
            return
        unsupported = self.owner._unsupported(body)
        if unsupported:
            self._error(400, unsupported)
            return
        self._play(self.owner._next(), request)

    def _play(self, step: Step | None, request: RecordedRequest) -> None:
        if step is None:
            self._error(500, "fake: script exhausted", {"x-should-retry": "false"})
        elif isinstance(step, Dynamic):
            self._play(step.fn(request), request)
        elif isinstance(step, Delay):
            if not self.owner._stop.wait(step.seconds):
                self._play(step.then, request)
        elif isinstance(step, HTTPFault):
            self._error(step.status, step.message, dict(step.headers))
        elif isinstance(step, Malformed):
            self._send(200, step.body)
        elif isinstance(step, Disconnect):
            self.close_connection = True
        else:
            self._send_json(200, self.owner.completion_body(step, request))
