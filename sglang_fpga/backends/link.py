# SPDX-License-Identifier: Apache-2.0
"""Messages between the ``sim`` back end and the simulator serving it: a 4-byte length,
a JSON header, and the header's ``bytes`` count of raw payload."""

from __future__ import annotations

import json
import socket
import struct


def send(sock: socket.socket, header: dict[str, object], payload: bytes = b"") -> None:
    head = json.dumps({**header, "bytes": len(payload)}).encode()
    sock.sendall(struct.pack("<I", len(head)) + head + payload)


def recv(sock: socket.socket) -> tuple[dict[str, object], bytes]:
    (n,) = struct.unpack("<I", _exactly(sock, 4))
    header = json.loads(_exactly(sock, n))
    return header, _exactly(sock, int(header["bytes"]))


def _exactly(sock: socket.socket, n: int) -> bytes:
    chunks, got = [], 0
    while got < n:
        chunk = sock.recv(min(n - got, 1 << 20))
        if not chunk:
            raise ConnectionError("the simulator closed the connection")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)
