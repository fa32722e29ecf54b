"""The webhook process: the ASGI app WeChat posts to (verify, dedupe, enqueue, wait briefly)."""

from bot.webhook._aio import PipelinedScripts, ScriptRunner, ThreadedScripts, script_runner
from bot.webhook._raw import BodyTooLarge, query_of, read_body, respond
from bot.webhook._sentinel import SentinelAddress
from bot.webhook.asgi import WebhookApp, WebhookConfig, create_app

__all__ = ["BodyTooLarge", "PipelinedScripts", "ScriptRunner", "SentinelAddress", "ThreadedScripts", "WebhookApp",
           "WebhookConfig", "create_app", "query_of", "read_body", "respond", "script_runner"]
