"""When a request reached this host — by the kernel's clock, not by when its handler ran.

WeChat waits 5 s from when it sent a request. A webhook process that was frozen (a long GC pause,
CPU starvation, SIGSTOP) reads the request late: counting its wait from the handler's start would
let it answer after WeChat gave up. The kernel stamps the last data it received on each TCP
connection (``TCP_INFO``'s ``tcpi_last_data_recv``, milliseconds ago); a request's bytes arrive
together and the client then waits, so that stamp is when the request arrived, whenever the process
gets to read it. Where it cannot be read (not Linux, a Unix socket, a server other than uvicorn),
the handler's start is used.
"""

from __future__ import annotations

import socket
import struct
import time
from typing import Any

__all__ = ["arrived"]

_TCP_INFO = getattr(socket, "TCP_INFO", None)
_LAST_DATA_RECV = 52  # offset of tcpi_last_data_recv (u32, ms) in struct tcp_info (Linux ≥ 2.6)
_INFO_LEN = 104


def arrived(receive: Any) -> float:
    """The ``time.monotonic()`` at which the request ``receive`` reads (uvicorn's request cycle, whose
    ``transport`` is the connection) reached this host: now, less what the kernel says is the age of
    the connection's last received data."""
    now = time.monotonic()
    age = _data_age_s(receive)
    return now - age if age is not None else now


def _data_age_s(receive: Any) -> float | None:
    transport = getattr(getattr(receive, "__self__", None), "transport", None)
    if transport is None or _TCP_INFO is None:
        return None
    try:
        sock = transport.get_extra_info("socket")
        info = sock.getsockopt(socket.IPPROTO_TCP, _TCP_INFO, _INFO_LEN)
        (ms,) = struct.unpack_from("I", info, _LAST_DATA_RECV)
    except (OSError, AttributeError, TypeError, struct.error):
        return None
    return float(ms) / 1000.0
