"""The admin surface, the simulator endpoints and /metrics on the real webhook app over real HTTP."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from bot.wechat.testkit import FakeWeChatServer, MessageFactory, WebhookDriver
from tests.bot.admin.conftest import REAL_REDIS_URL
from tests.harness.admin import ADMIN_TOKEN, Stack, build_stack, make_settings

BEARER = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


@pytest.fixture(scope="module")
def wx() -> Iterator[FakeWeChatServer]:
    with FakeWeChatServer() as server:
        yield server


@pytest.fixture(scope="module")
def secured_stack(wx, tmp_path_factory) -> Iterator[Stack]:
    stack = build_stack(make_settings(tmp_path_factory.mktemp("sec"), wx, ADMIN_TOKEN=ADMIN_TOKEN)).start()
    yield stack
    stack.stop()


@pytest.fixture(scope="module")
def open_stack(wx, tmp_path_factory) -> Iterator[Stack]:
    stack = build_stack(make_settings(tmp_path_factory.mktemp("open"), wx)).start()
    yield stack
    stack.stop()


@pytest.fixture
def secured(secured_stack: Stack) -> Stack:
    return secured_stack


@pytest.fixture
def open_embedded(open_stack: Stack) -> Stack:
    return open_stack


def say(stack: Stack, user: str, text: str) -> str | None:
    with WebhookDriver(stack.url + "/wechat", "sim-token", attempts=1, attempt_timeout_s=5) as driver:
        return driver.deliver(MessageFactory().text(user, text)).reply


ADMIN_PATHS = ["/admin", "/admin/", "/admin/login", "/admin/static/admin.js", "/admin/api/users",
               "/admin/api/transcript?user=u", "/admin/api/context?user=u", "/admin/api/rerun?user=u",
               "/admin/api/stats", "/admin/anything/else", "/admin/login.css"]


def test_without_admin_token_the_admin_surface_does_not_exist(open_embedded: Stack) -> None:
    for path in ADMIN_PATHS:
        assert httpx.get(open_embedded.url + path, headers=BEARER).status_code == 404, path
    assert httpx.post(open_embedded.url + "/admin/login", data={"token": ""}).status_code == 404
    assert httpx.post(open_embedded.url + "/admin/logout").status_code == 404


def test_every_admin_request_without_valid_credentials_is_refused(secured: Stack) -> None:
    for path in ADMIN_PATHS:
        if path in ("/admin/login", "/admin/login.css"):
            continue
        missing = httpx.get(secured.url + path)
        assert missing.status_code == 401, path
        assert httpx.get(secured.url + path, headers={"Authorization": "Bearer nope"}).status_code == 403, path
        assert httpx.get(secured.url + path, headers={"Authorization": f"Basic {ADMIN_TOKEN}"}).status_code == 403
        assert httpx.get(secured.url + path, cookies={"wxbot_admin": ADMIN_TOKEN}).status_code == 403, path
    page = httpx.get(secured.url + "/admin")
    assert 'name="token"' in page.text and ADMIN_TOKEN not in page.text
    api = httpx.get(secured.url + "/admin/api/users")
    assert api.json() == {"error": "unauthorized"} and api.headers["www-authenticate"] == "Bearer"
    for method in ("POST", "PUT", "DELETE"):
        assert httpx.request(method, secured.url + "/admin/api/users").status_code == 401


def test_login_form_sets_an_httponly_cookie_that_is_not_the_token(secured: Stack) -> None:
    wrong = httpx.post(secured.url + "/admin/login", data={"token": "guess"})
    assert wrong.status_code == 403 and "set-cookie" not in wrong.headers
    ok = httpx.post(secured.url + "/admin/login", data={"token": ADMIN_TOKEN, "next": "https://evil.example/"})
    assert ok.status_code == 303 and ok.headers["location"] == "/admin"
    cookie = ok.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and ADMIN_TOKEN not in cookie
    value = ok.cookies["wxbot_admin"]
    assert httpx.get(secured.url + "/admin/api/users", cookies={"wxbot_admin": value}).status_code == 200
    out = httpx.post(secured.url + "/admin/logout", cookies={"wxbot_admin": value})
    assert out.status_code == 303 and 'wxbot_admin=""' in out.headers["set-cookie"]


def test_nothing_in_the_admin_surface_can_send(secured: Stack) -> None:
    writable = {(r.path, m) for r in secured.app.routes if getattr(r, "path", "").startswith("/admin")
                for m in (getattr(r, "methods", None) or ()) if m not in ("GET", "HEAD")}
    assert {p for p, _m in writable} == {"/admin/login", "/admin/logout", "/admin/{rest:path}"}


def test_a_webhook_conversation_is_browsable(secured: Stack) -> None:
    reply = say(secured, "wx-user-1", "现在几点")
    assert reply and reply.startswith("现在是")
    users = httpx.get(secured.url + "/admin/api/users", headers=BEARER).json()["users"]
    assert "wx-user-1" in [u["user"] for u in users]
    entries = httpx.get(secured.url + "/admin/api/transcript", params={"user": "wx-user-1"}, headers=BEARER).json()
    turn = entries["entries"][0]
    assert turn["kind"] == "turn" and turn["inbound"]["text"] == "现在几点" and turn["replies"] == [reply]
    assert turn["trace"]["stage"] == "rules" and turn["trace"]["intent"] == "datetime.query"
    rerun = httpx.get(secured.url + "/admin/api/rerun", params={"user": "wx-user-1"}, headers=BEARER,
                      timeout=30).json()
    assert rerun["changed"] == 0 and rerun["turns"][0]["rerun"]["reply"] == reply
    ctx = httpx.get(secured.url + "/admin/api/context", params={"user": "wx-user-1"}, headers=BEARER).json()
    assert ctx["context"]["user"] == "wx-user-1" and ctx["quarantined"] is None
    stats = httpx.get(secured.url + "/admin/api/stats", headers=BEARER).json()
    assert stats["turns"]["turns"] >= 1 and stats["turns"]["by_stage"]["rules"] >= 1
    assert httpx.get(secured.url + "/admin/api/transcript", headers=BEARER).status_code == 400
    bad_since = httpx.get(secured.url + "/admin/api/transcript", params={"user": "wx-user-1", "since": "soon"},
                          headers=BEARER)
    assert bad_since.status_code == 400
    recent = httpx.get(secured.url + "/admin/api/transcript", params={"user": "wx-user-1", "since": "1h"},
                       headers=BEARER).json()
    assert len(recent["entries"]) == len(entries["entries"])


def test_simulator_needs_the_admin_token_when_one_is_set(secured: Stack) -> None:
    assert httpx.get(secured.url + "/simulator").status_code == 401
    body = {"user": "sim-abc", "text": "现在几点"}
    assert httpx.post(secured.url + "/simulator/api/send", json=body).status_code == 401
    assert httpx.post(secured.url + "/simulator/api/send", json=body,
                      headers={"Authorization": "Bearer x"}).status_code == 403
    res = httpx.post(secured.url + "/simulator/api/send", json=body, headers=BEARER, timeout=20)
    assert res.status_code == 200 and res.json()["reply"].startswith("现在是")


def test_simulator_round_trip_and_pushes_in_embedded_mode(open_embedded: Stack) -> None:
    url = open_embedded.url
    assert httpx.get(url + "/simulator").status_code == 200
    start = httpx.get(url + "/simulator/api/updates", params={"user": "sim-t1"}).json()
    assert start == {"entries": [], "last_id": None}
    sent = httpx.post(url + "/simulator/api/send", json={"user": "sim-t1", "text": "今天星期几"}, timeout=20).json()
    assert sent["status"] == 200 and "星期" in sent["reply"] and sent["msg_id"].startswith("m")
    first = httpx.get(url + "/simulator/api/updates", params={"user": "sim-t1"}).json()
    turn = first["entries"][-1]
    assert turn["kind"] == "turn" and turn["msg_id"] == sent["msg_id"] and turn["replies"] == [sent["reply"]]
    open_embedded.transcript.record_delivery("sim-t1", "该喝水了", "custom", "sent", ref="push-1", push=True)
    later = httpx.get(url + "/simulator/api/updates", params={"user": "sim-t1", "after": first["last_id"]}).json()
    assert [(e["kind"], e["text"], e["push"]) for e in later["entries"]] == [("delivery", "该喝水了", True)]


@pytest.mark.parametrize("body", [{"user": "oREALopenid", "text": "hi"}, {"user": "sim-x", "text": ""},
                                  {"user": "sim-x", "text": "长" * 601}, {"text": "hi"}])
def test_simulator_only_speaks_as_sim_users(open_embedded: Stack, body) -> None:
    assert httpx.post(open_embedded.url + "/simulator/api/send", json=body).status_code == 400


def test_simulator_refuses_non_json_posts(open_embedded: Stack) -> None:
    res = httpx.post(open_embedded.url + "/simulator/api/send", data={"user": "sim-x", "text": "hi"})
    assert res.status_code == 415


def test_simulator_without_token_is_only_for_a_browser_on_the_same_machine(open_embedded: Stack) -> None:
    """README: without ADMIN_TOKEN the simulator exists only in embedded mode and only for loopback."""
    from starlette.testclient import TestClient

    # no `with`: the shared app's lifespan is the running server's, not this client's
    remote = TestClient(open_embedded.app, client=("192.0.2.7", 5000))
    assert remote.get("/simulator").status_code == 404
    assert remote.post("/simulator/api/send", json={"user": "sim-a", "text": "x"}).status_code == 404
    assert TestClient(open_embedded.app, client=("127.0.0.1", 5000)).get("/simulator").status_code == 200


def test_simulator_is_off_without_token_outside_embedded_mode(wx, tmp_path) -> None:
    stack = build_stack(make_settings(tmp_path, wx, REDIS_URL=REAL_REDIS_URL))
    from starlette.testclient import TestClient

    with TestClient(stack.app, client=("127.0.0.1", 5000)) as client:
        assert client.get("/simulator").status_code == 404
        assert client.post("/simulator/api/send", json={"user": "sim-a", "text": "x"}).status_code == 404
    stack.inline.shutdown()


def test_metrics_count_requests_turns_and_deliveries(secured: Stack) -> None:
    say(secured, "metrics-user", "现在几点")
    secured.transcript.record_delivery("metrics-user", "x", "passive", "sent")
    text = httpx.get(secured.url + "/metrics", headers=BEARER).text
    assert 'wxbot_webhook_requests_total{method="POST",route="webhook",status="200"}' in text
    assert "wxbot_webhook_ack_seconds_count" in text
    assert 'wxbot_turns_total{stage="rules"}' in text and "wxbot_redis_up 1.0" in text
    assert 'wxbot_deliveries_total{channel="passive",kind="reply",outcome="sent"} 1.0' in text
    assert 'wxbot_model_tokens_total{kind="prompt"}' in text


def test_metrics_on_the_web_port_need_the_admin_token_even_from_loopback(secured: Stack,
                                                                          open_embedded: Stack) -> None:
    # the test client is on 127.0.0.1, as nginx is: being local is not a credential
    assert httpx.get(secured.url + "/metrics").status_code == 404
    assert httpx.get(secured.url + "/metrics", headers={"Authorization": "Bearer nope"}).status_code == 404
    assert httpx.get(secured.url + "/metrics", headers={"X-Forwarded-For": "127.0.0.1"}).status_code == 404
    assert httpx.get(open_embedded.url + "/metrics").status_code == 404  # no token set: no /metrics here
    assert httpx.get(secured.url + "/metrics", headers=BEARER).status_code == 200


def test_metrics_addr_serves_the_same_figures_without_a_token(secured: Stack) -> None:
    from bot.bench import free_port
    from bot.metrics import serve_metrics

    port = free_port()
    server, thread = serve_metrics(secured.app.state.metrics, port, "127.0.0.1")
    try:
        say(secured, "metrics-addr-user", "现在几点")
        text = httpx.get(f"http://127.0.0.1:{port}/metrics").text
        assert 'wxbot_webhook_requests_total{method="POST",route="webhook",status="200"}' in text
        assert "wxbot_redis_up 1.0" in text
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_the_admin_cookie_is_secure_when_the_login_came_over_https(secured: Stack) -> None:
    """Behind nginx the app sees plain HTTP from 127.0.0.1 plus ``X-Forwarded-Proto: https``."""
    over_tls = httpx.post(secured.url + "/admin/login", data={"token": ADMIN_TOKEN},
                          headers={"X-Forwarded-Proto": "https"})
    cookie = over_tls.headers["set-cookie"]
    assert over_tls.status_code == 303 and "Secure" in cookie and "HttpOnly" in cookie, cookie
    plain = httpx.post(secured.url + "/admin/login", data={"token": ADMIN_TOKEN})  # a local, plain-HTTP login
    assert "Secure" not in plain.headers["set-cookie"] and "HttpOnly" in plain.headers["set-cookie"]
