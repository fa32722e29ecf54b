"""``wxbot scheduler``: the leader-elected loop that finds due reminders and hands them to a sink."""

from bot.scheduler._lease import LeaderLease
from bot.scheduler.service import Scheduler, TickReport
from bot.scheduler.sinks import BatchPushSink, CollectingSink, DeliverySink, PushSink, RQPushSink

__all__ = ["BatchPushSink", "CollectingSink", "DeliverySink", "LeaderLease", "PushSink", "RQPushSink", "Scheduler", "TickReport"]
