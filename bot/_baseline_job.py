"""The empty job of the pipeline benchmark's baseline (RQ's forking worker).

A module of its own, outside ``bot.bench``: RQ's forking worker imports the job's module in every
forked child, so the job must cost what RQ itself costs, not the import of the benchmark package.
"""


def noop() -> None:
    """An empty job: what RQ's own per-job cost is measured with."""
