"""Names older releases stored outside the code, and what they are called now (README, "Upgrade notes").

RQ keeps each queued job's function as an import path in Redis, and a deployment's own process
files may name an engine factory (``wxbot worker --engine module:callable``). When such a name moves,
its old spelling is listed here — the one place that knows old names — so that jobs queued by an
older release still run and old command lines still start.
"""

from __future__ import annotations

from rq.job import Job

__all__ = ["ENGINE_FACTORIES", "JOB_PATHS", "StoredJob", "current_engine_factory", "current_job_path"]

JOB_PATHS: dict[str, str] = {
    # reminder pushes queued before the worker package existed
    "bot._scheduler_sinks.deliver_push": "bot.worker.deliver_push",
}

ENGINE_FACTORIES: dict[str, str] = {
    # the default engine factory before the composition root was bot/compose/
    "bot.app:app_engine": "bot.compose:conversation_engine",
}


def current_job_path(path: str) -> str:
    """Where the job stored as ``path`` lives now."""
    return JOB_PATHS.get(path, path)


def current_engine_factory(ref: str) -> str:
    """Where the engine factory named ``ref`` (``module:callable``) lives now."""
    return ENGINE_FACTORIES.get(ref, ref)


class StoredJob(Job):
    """An RQ job whose stored function path may be one an older release wrote (see :data:`JOB_PATHS`)."""

    @property
    def func_name(self) -> str | None:
        name = super().func_name
        return None if name is None else current_job_path(name)

    @func_name.setter
    def func_name(self, value: str | None) -> None:
        Job.func_name.fset(self, value)  # type: ignore[attr-defined]
