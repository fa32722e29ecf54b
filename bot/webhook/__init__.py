"""The webhook process: the ASGI app WeChat posts to (verify, dedupe, enqueue, wait briefly)."""

from bot.webhook._aio import ScriptRunner, ThreadedScripts, script_runner
from bot.webhook.app import WebhookApp, WebhookConfig, create_app

__all__ = ["ScriptRunner", "ThreadedScripts", "WebhookApp", "WebhookConfig", "create_app", "script_runner"]
