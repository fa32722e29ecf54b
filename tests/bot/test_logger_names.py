"""Modules that moved keep the logger names operators filter on (their names before the move)."""

from __future__ import annotations

import importlib

import pytest

LOGGERS = {
    "bot.webhook.asgi": "bot.webhook",
    "bot.webhook._wait": "bot._webhook_wait",
    "bot.worker.jobs": "bot.worker",
    "bot.worker._turn": "bot.worker",
    "bot.worker._lease": "bot._worker_lease",
    "bot.worker._piggyback": "bot._worker_piggyback",
    "bot.queue.sweeper": "bot._worker_sweeper",
    "bot.scheduler.service": "bot.scheduler",
    "bot.scheduler.sinks": "bot._scheduler_sinks",
    "bot.delivery.transcribed": "bot._delivery_transcript",
}


@pytest.mark.parametrize("module", sorted(LOGGERS))
def test_a_moved_module_logs_under_its_old_name(module: str) -> None:
    assert importlib.import_module(module).log.name == LOGGERS[module]
