"""Test harnesses shared by the suite: the private Redis server (``redis_server``), a PostgreSQL
database per use (``pg``), the edge in threads and processes (``edge``, ``faults``), Sentinel
clusters and the processes on them (``sentinel``, ``failover``), the admin stack (``admin``) and the
webhook app in process (``webhook_app``). Fixtures built on them are in the ``conftest.py`` files."""
