"""`wxbot menu`: a declarative menu file whose keys are intent labels, published through the WeChat API
(the fake server's menu endpoints), and a click on the published menu starting its intent."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from bot.wechat.menu import MenuError, from_wechat, parse_menu, to_wechat
from bot.wechat.testkit import FakeWeChatServer, MessageFactory, WebhookDriver
from bot.wechat.testkit.menu import menu_error, published_menu
from tests.harness.admin import build_stack, make_settings

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "deploy" / "menu.toml"


@pytest.fixture
def wx() -> Iterator[FakeWeChatServer]:
    with FakeWeChatServer() as server:
        yield server


@pytest.fixture
def account(wx: FakeWeChatServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> FakeWeChatServer:
    """The environment `wxbot menu` reads, pointed at the fake WeChat API (embedded Redis for the token)."""
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    monkeypatch.delenv("REDIS_URL", raising=False)
    for name, value in {"WECHAT_APP_ID": wx.state.app_id, "WECHAT_APP_SECRET": wx.state.secret,
                        "WECHAT_API_BASE": wx.url, "DATA_DIR": str(tmp_path)}.items():
        monkeypatch.setenv(name, value)
    return wx


def test_the_example_file_parses_into_wechat_json_that_wechat_accepts() -> None:
    menu = parse_menu(EXAMPLE.read_text(encoding="utf-8"))
    body = to_wechat(menu)
    assert menu_error(body) == 0
    assert body["button"][0] == {"type": "click", "name": "安排晚饭", "key": "dinner.plan"}
    assert [b["name"] for b in body["button"][1]["sub_button"]] == ["新建提醒", "我的提醒"]
    assert from_wechat(body) == menu


@pytest.mark.parametrize(("source", "message"), [
    ('[[button]]\nname = "晚饭"\nkey = "dinner.make"', "button 1 «晚饭»: key 'dinner.make' is not an intent label"),
    ('[[button]]\nname = "闲聊"\nkey = "chitchat"', "key 'chitchat' is not an intent label"),
    ("\n".join(f'[[button]]\nname = "b{i}"\nkey = "help"' for i in range(4)), "a menu has 1 to 3 [[button]]"),
    ('[[button]]\nname = "今天晚饭吃点啥"\nkey = "dinner.plan"', "name is 21 bytes, WeChat allows 16"),
    ('[[button]]\nname = "提醒"\nkey = "help"\nurl = "https://a.example"', "needs exactly one of key, url or sub"),
    ('[[button]]\nname = "提醒"\nsub = []', "sub holds 1 to 5 buttons"),
    ('[[button]]\nname = "提醒"\nsub = [' + ", ".join(['{name = "x", key = "help"}'] * 6) + "]",
     "sub holds 1 to 5 buttons"),
    ('[[button]]\nname = "更多"\nsub = [{name = "a", sub = [{name = "b", key = "help"}]}]',
     "button 1 «更多» sub-button 1 «a»: needs exactly one of key or url"),
    ('[[button]]\nname = "网页"\nurl = "ftp://a.example"', "url must be an http(s) address"),
    ('[[button]]\nname = "x"\nkey = "help"\ncolour = "red"', "unknown field colour"),
    ('[[button]\nname = "x"', "not a TOML file"),
    ('title = "菜单"', "unknown top-level field title"),
])
def test_a_bad_menu_file_is_refused_with_the_button_and_the_reason(source: str, message: str) -> None:
    with pytest.raises(MenuError) as caught:
        parse_menu(source)
    assert message in str(caught.value)


def test_show_file_checks_it_without_wechat(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["menu", "show", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "安排晚饭  → starts dinner.plan" in out and "  帮助  → shows the help text" in out
    bad = tmp_path / "bad.toml"
    bad.write_text('[[button]]\nname = "晚饭"\nkey = "dinner"', encoding="utf-8")
    assert main(["menu", "push", str(bad)]) == 2
    assert capsys.readouterr().err.startswith(f"wxbot menu: {bad}: button 1 «晚饭»: key 'dinner' is not")


def test_push_publishes_through_the_api_and_reads_it_back(
        account: FakeWeChatServer, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["menu", "show"]) == 0
    assert "the account has no custom menu" in capsys.readouterr().out

    assert main(["menu", "push", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("published: 3 buttons, 8 actions")
    assert published_menu(account.state) == to_wechat(parse_menu(EXAMPLE.read_text(encoding="utf-8")))
    assert account.state.token_fetches == 1  # through the shared access_token, like every other call

    assert main(["menu", "show"]) == 0
    assert "安排晚饭  → starts dinner.plan" in capsys.readouterr().out



# The webhook reads a CLICK as origin "menu" (bot/_worker_inbound.py); the event stage takes it like any
# event, so a click on the published menu starts its intent through the real webhook path.
def test_a_click_on_the_published_menu_starts_its_intent(account: FakeWeChatServer, tmp_path: Path) -> None:
    assert main(["menu", "push", str(EXAMPLE)]) == 0
    # a user clicks the published button: WeChat posts a CLICK event with the button's key
    published = published_menu(account.state)
    assert published is not None
    dinner = next(b for b in published["button"] if b["name"] == "安排晚饭")
    stack = build_stack(make_settings(tmp_path / "bot", account)).start()
    try:
        with WebhookDriver(stack.url + "/wechat", "sim-token", attempts=1) as wechat:
            reply = wechat.deliver(MessageFactory().click("wx-menu-1", dinner["key"])).reply
        assert reply is not None and "几个人" in reply
        turn = stack.transcript.turns("wx-menu-1")[-1]
        assert (str(turn.trace.stage), turn.trace.intent) == ("event", "dinner.plan")
        assert turn.trace.state_after.active_skill == "dinner" and turn.trace.state_after.expected_field == "people"
    finally:
        stack.stop()


def test_wechat_refusing_the_menu_is_one_line_and_exit_1(account: FakeWeChatServer,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    account.fail("menu_create", errcode=40018)
    assert main(["menu", "push", str(EXAMPLE)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("wxbot menu: WeChat refused: WeChat API error 40018") and err.count("\n") == 1
    assert published_menu(account.state) is None


def test_push_needs_the_account_credentials(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WECHAT_APP_ID", raising=False)
    monkeypatch.delenv("WECHAT_APP_SECRET", raising=False)
    assert main(["menu", "push", str(EXAMPLE)]) == 2
    assert "set WECHAT_APP_ID and WECHAT_APP_SECRET" in capsys.readouterr().err
