"""Where reminder pushes queued before the worker package existed find their job: RQ stored them as
``bot._scheduler_sinks.deliver_push``. New pushes are queued as :data:`bot.queue.PUSH_JOB`."""

from bot.worker import deliver_push

__all__ = ["deliver_push"]
