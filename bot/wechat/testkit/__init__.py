"""A WeChat test kit: a fake WeChat API over real HTTP and a webhook driver that talks like WeChat.

Use it to test wxbot or your own deployment without WeChat::

    with FakeWeChatServer() as wx:              # point WECHAT_API_BASE at wx.url
        driver = WebhookDriver("http://127.0.0.1:8000/wechat", token="...")
        driver.deliver(MessageFactory().text("user-1", "你好")).reply
"""

from bot.wechat.testkit._serve import ServerThread
from bot.wechat.testkit._server_state import FakeWeChatState, Fault, RandomFaults, Sent
from bot.wechat.testkit.driver import Delivery, WebhookDriver, sign
from bot.wechat.testkit.fake_server import FakeWeChatServer, build_app
from bot.wechat.testkit.messages import MessageFactory, next_msg_id

__all__ = [
    "Delivery", "FakeWeChatServer", "FakeWeChatState", "Fault", "MessageFactory", "RandomFaults", "Sent",
    "ServerThread", "WebhookDriver", "build_app", "next_msg_id", "sign",
]
