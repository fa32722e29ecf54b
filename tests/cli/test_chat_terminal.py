"""``wxbot chat`` in a pseudo-terminal, as a person uses it: reminders print at their time while the
prompt waits, and log lines never appear in the conversation."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import time
from pathlib import Path

from tests.cli.test_cli_chat import WXBOT, _env

DUE_SLACK_S = 5.0


class Terminal:
    """A chat process on a pseudo-terminal, read as it writes."""

    def __init__(self, cwd: Path, *args: str) -> None:
        master, slave = pty.openpty()
        exe = [str(WXBOT)] if WXBOT.exists() else ["python", "-m", "bot.cli"]
        self.proc = subprocess.Popen([*exe, "chat", *args], stdin=slave, stdout=slave, stderr=slave, cwd=cwd,
                                     env=_env(), close_fds=True)
        os.close(slave)
        self.fd = master
        self.seen = ""

    def read_until(self, pattern: str, timeout: float) -> float:
        """Wait for ``pattern`` in the output; the monotonic time it appeared."""
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.seen):
            left = deadline - time.monotonic()
            assert left > 0, f"{pattern!r} not seen in {timeout} s: {self.seen!r}"
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.2))
            if ready:
                try:
                    self.seen += os.read(self.fd, 4096).decode("utf-8", "replace")
                except OSError:
                    break
        return time.monotonic()

    def send(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())

    def close(self) -> None:
        os.write(self.fd, b"\x04")  # Ctrl-D ends the chat
        try:
            self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            os.close(self.fd)


def test_a_reminder_prints_at_its_time_while_the_prompt_waits(tmp_path: Path) -> None:
    term = Terminal(tmp_path)
    try:
        term.read_until("你：", 30)
        term.send("1分钟后提醒我喝水")
        asked = term.read_until("提醒你：喝水", 15)
        term.send("北京明天天气怎么样")  # no network here: the real provider fails and logs a warning
        term.read_until("天气", 15)
        shown = term.read_until(r"\[提醒\][^\n]*喝水", 75)
    finally:
        term.close()
    assert 55 <= shown - asked <= 60 + DUE_SLACK_S, shown - asked
    assert "WARNING" not in term.seen and "Traceback" not in term.seen
    log = (tmp_path / ".wxbot" / "chat" / "wxbot.log").read_text(encoding="utf-8")
    assert "weather" in log  # the warning went to the log file instead
