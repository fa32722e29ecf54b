"""Fixed Chinese replies of the edge (message types the engine does not handle)."""

from __future__ import annotations

VOICE_NOT_UNDERSTOOD = "抱歉，我暂时还听不清这条语音，可以打字告诉我吗？"
RATE_LIMITED = "你发得有点快啦，我先消化一下，请稍等一分钟再发～"
TURN_FAILED = "抱歉，我这边刚刚出了点问题，请稍后再试一次。"
UNSUPPORTED = {
    "image": "收到你的图片啦！不过我目前只看得懂文字，请用文字告诉我你想做什么～",
    "video": "收到你的视频啦！不过我目前只看得懂文字，请用文字告诉我你想做什么～",
    "shortvideo": "收到你的小视频啦！不过我目前只看得懂文字，请用文字告诉我你想做什么～",
    "location": "收到你的位置啦。我暂时还不会处理位置信息，想查天气的话可以直接问我“北京明天天气怎么样”。",
    "link": "收到你分享的链接啦，不过我暂时还读不了链接里的内容，请用文字告诉我你想做什么～",
    "file": "收到你的文件啦，不过我暂时还打不开文件，请用文字告诉我你想做什么～",
    "unknown": "这类消息我暂时还处理不了，请用文字告诉我你想做什么～",
}
