"""The admin page and the simulator in headless Chromium (Debian's chromium + chromium-driver, Selenium)
against the real webhook app served by uvicorn on 127.0.0.1:<free port>."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator

import pytest

from bot.wechat.testkit import FakeWeChatServer, MessageFactory, WebhookDriver
from tests.harness.admin import ADMIN_TOKEN, Stack, build_stack, make_settings

pytestmark = pytest.mark.browser

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1400,1000"]
WAIT_S = 20

if not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)):  # pragma: no cover - environment guard
    if os.environ.get("CI"):  # tests/run.sh installs them; in CI a missing browser is a failure, not a skip
        raise RuntimeError("CI needs Debian's chromium and chromium-driver (tests/run.sh installs them)")
    pytest.skip("needs Debian's chromium and chromium-driver", allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support import expected_conditions as ec  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(WAIT_S)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def stack(tmp_path_factory) -> Iterator[Stack]:
    with FakeWeChatServer() as wx:
        built = build_stack(make_settings(tmp_path_factory.mktemp("browser"), wx, ADMIN_TOKEN=ADMIN_TOKEN)).start()
        yield built
        built.stop()


def wait(browser: WebDriver) -> WebDriverWait:
    return WebDriverWait(browser, WAIT_S)


def log_in(browser: WebDriver, stack: Stack, path: str, token: str = ADMIN_TOKEN) -> None:
    browser.get(stack.url + path)
    field = wait(browser).until(ec.presence_of_element_located((By.ID, "token")))
    field.send_keys(token)
    browser.find_element(By.ID, "login").click()


def test_admin_page_refuses_without_token_and_shows_a_trace_with_it(browser: WebDriver, stack: Stack) -> None:
    browser.delete_all_cookies()
    with WebhookDriver(stack.url + "/wechat", "sim-token", attempts=1) as wechat:
        reply = wechat.deliver(MessageFactory().text("wx-browser-1", "现在几点")).reply
    assert reply and reply.startswith("现在是")
    stack.transcript.record_delivery("wx-browser-1", reply, "passive", "sent")  # as `wxbot serve` records it

    browser.get(stack.url + "/admin")
    assert browser.find_elements(By.ID, "token") and not browser.find_elements(By.ID, "users")
    log_in(browser, stack, "/admin", token="wrong-token")
    error = wait(browser).until(ec.presence_of_element_located((By.ID, "login-error")))
    assert "不正确" in error.text and not browser.find_elements(By.ID, "users")

    log_in(browser, stack, "/admin")
    user = wait(browser).until(ec.element_to_be_clickable((By.CSS_SELECTOR, '#users button[data-user="wx-browser-1"]')))
    user.click()
    turn = wait(browser).until(ec.visibility_of_element_located((By.CSS_SELECTOR, "#transcript .entry.turn")))
    assert "现在几点" in turn.text and reply in turn.text
    stage = turn.find_element(By.CSS_SELECTOR, 'dd[data-field="stage"]')
    assert not stage.is_displayed()  # traces are collapsed until expanded
    turn.find_element(By.CSS_SELECTOR, "details.trace summary").click()
    wait(browser).until(ec.visibility_of(stage))
    assert stage.text == "规则（rules）"
    assert turn.find_element(By.CSS_SELECTOR, 'dd[data-field="intent"]').text.startswith("datetime.query")
    assert turn.find_element(By.CSS_SELECTOR, 'dd[data-field="state_before"]').text == "空闲（没有进行中的任务）"
    assert turn.find_element(By.CSS_SELECTOR, 'dd[data-field="state_after"]').text == "空闲（没有进行中的任务）"
    said = turn.find_element(By.CSS_SELECTOR, ".said").text  # 2026-12-01 20:05:09 in WXBOT_TZ, 24-hour
    assert re.match(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\s+用户：现在几点$", said), said
    assert "AM" not in browser.page_source and "PM" not in browser.page_source

    browser.find_element(By.CSS_SELECTOR, '.tabs button[data-tab="rerun"]').click()
    summary = wait(browser).until(ec.visibility_of_element_located((By.ID, "rerun-summary")))
    assert summary.text == "1 轮中有 0 轮不同"
    stats = wait(browser).until(ec.visibility_of_element_located((By.ID, "stats-table")))
    assert "阶段 规则" in stats.text
    # the charts are drawn by the page itself (SVG), one bar per figure
    bars = browser.find_elements(By.CSS_SELECTOR, '#chart-hourly rect[data-stage="rules"]')
    assert sum(int(b.get_attribute("data-count")) for b in bars) >= 1
    assert browser.find_elements(By.CSS_SELECTOR, '#chart-latency rect[data-label="p99"]')
    assert browser.find_elements(By.CSS_SELECTOR, '#chart-deliveries rect[data-label="被动回复"]')
    assert browser.find_elements(By.CSS_SELECTOR, "#chart-queues rect")


def chat(browser: WebDriver, text: str) -> str:
    """Send ``text`` in the simulator and return the next bot bubble's text."""
    before = len(browser.find_elements(By.CSS_SELECTOR, ".bubble.bot:not(.typing)"))
    box = browser.find_element(By.ID, "text")
    box.send_keys(text)
    browser.find_element(By.ID, "send").click()
    wait(browser).until(lambda b: len(b.find_elements(By.CSS_SELECTOR, ".bubble.bot:not(.typing)")) > before)
    bubbles = browser.find_elements(By.CSS_SELECTOR, ".bubble.bot:not(.typing)")
    return str(bubbles[before].text)


def open_simulator(browser: WebDriver, stack: Stack) -> None:
    browser.delete_all_cookies()
    browser.get(stack.url + "/simulator")
    assert browser.find_elements(By.ID, "token")  # the simulator is behind the admin login too
    log_in(browser, stack, "/simulator")
    wait(browser).until(ec.presence_of_element_located((By.ID, "composer")))
    browser.find_element(By.ID, "new-user").click()
    wait(browser).until(lambda b: b.find_element(By.ID, "whoami").text.startswith("sim-"))


def test_simulator_completes_a_short_conversation(browser: WebDriver, stack: Stack) -> None:
    open_simulator(browser, stack)
    assert chat(browser, "现在几点").startswith("现在是")
    assert "星期" in chat(browser, "今天星期几")
    user = browser.find_element(By.ID, "whoami").text
    turns = stack.transcript.turns(user)
    assert [t.inbound.text for t in turns] == ["现在几点", "今天星期几"]


def test_simulator_shows_pushes_as_they_are_delivered(browser: WebDriver, stack: Stack) -> None:
    open_simulator(browser, stack)
    assert chat(browser, "现在几点").startswith("现在是")
    user = browser.find_element(By.ID, "whoami").text
    stack.transcript.record_delivery(user, "提醒：该倒垃圾了", "custom", "sent", ref="push-9", push=True)
    push = wait(browser).until(ec.visibility_of_element_located((By.CSS_SELECTOR, ".bubble.push")))
    assert push.text.startswith("提醒：该倒垃圾了") and "推送 · 客服消息" in push.text




def test_simulator_completes_a_dinner_planning_dialogue(browser: WebDriver, stack: Stack) -> None:
    open_simulator(browser, stack)
    assert "几个人" in chat(browser, "帮我安排一下今晚的晚饭")
    assert "预算" in chat(browser, "3个人")
    assert "忌口" in chat(browser, "200块")
    plan = chat(browser, "没有")
    assert plan and "？" not in plan.splitlines()[0]
    user = browser.find_element(By.ID, "whoami").text
    final = stack.transcript.turns(user)[-1]
    assert final.trace.intent == "dinner.plan" and final.trace.state_after.active_skill is None
