"""The webhook exchange itself, pure Python (no Django): sign a request, check a URL, POST it
within one deadline, read the answer. bots/remote/webhook.py (the server's client, which adds the
settings and the metrics) and bots/arena.py (the standalone runner) both call bots through it,
so a bot is asked the same way by both.

The request is the JSON body `{"game", "variant", "seat", "version", "view", "legal",
"deadline"}` (plus `"optional": true` for an out-of-turn window), signed with HMAC-SHA256 under
the bot's secret and sent as `X-Uno-Signature: sha256=<hex>`. The bot answers 200 with a command
as JSON. A connection error (refused, reset before an answer) is retried once while time
remains; nothing else is. Redirects are not followed (a 3xx is an error). The URL guard
(check_url) resolves the host once and refuses it if any of its addresses is not global unicast:
private, link-local, CGNAT, unique-local, multicast, reserved, an IPv6 tunnel to IPv4, or
loopback (127.0.0.0/8, ::1), which only the caller's `allow_loopback` lets through (the server's
BOTS_ALLOW_LOOPBACK_URLS, for tests and local work); the call then connects to those checked
addresses only, never resolving again (a host that answers a public address when checked and a
private one when called gets nowhere), with the Host header, TLS's SNI and the certificate check
still for the host name. This module knows nothing of games, settings or the database: it
returns an `Answer` and its callers decide what it means.

The time limit is one deadline for the whole exchange (connecting, the TLS handshake, sending,
the status line, headers and body, the retry included), not a timeout for each socket
operation: a bot that trickles its answer a byte at a time would otherwise hold a worker for as
long as it likes. So the exchange runs on http.client with sockets we connect ourselves, each
operation given only the time left, and the body is read in bounded pieces up to MAX_ANSWER + 1
bytes. Resolving the host name (check_url, once a call) is bounded by the deadline too: the
standard library's getaddrinfo takes no timeout, so it runs in a thread of its own and the call
stops waiting for it when the time is up (a timeout; the thread ends when the resolver gives
up). The addresses it finds are checked as any others.

A call is two steps, `begin` (resolve and check the host, the deadline started) and `post` (the
POST), so that a caller can do something just before the request goes out
(bots/remote/webhook.py `ask(..., before_send=...)`).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import http.client
import io
import ipaddress
import json
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

SIGNATURE_HEADER = "X-Uno-Signature"
# Bytes of an answer read at most (config/settings.py BOTS_WEBHOOK_MAX_ANSWER says the same).
MAX_ANSWER = 64 * 1024

# Outcomes of one call.
OK = "ok"
TIMEOUT = "timeout"
ERROR = "error"


class RefusedURL(ValueError):
    """A URL the server will not call: not http(s), no host, or a private address."""

    code = "refused-url"


@dataclass(frozen=True, slots=True)
class Answer:
    outcome: str
    # The decoded JSON answer when the outcome is OK (not yet checked against the rules).
    command: Any = None
    latency: float = 0.0
    # Why the call failed, for the bot's owner.
    detail: str = ""


def sign(secret: str, body: bytes) -> str:
    """The value of the signature header for `body`."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def verify(secret: str, body: bytes, header: str) -> bool:
    """What a bot does with the header (documented in docs/workers.md)."""
    return hmac.compare_digest(sign(secret, body), header)


# One address a host name resolved to: the socket family and the address to connect to
# (getaddrinfo's sockaddr: (host, port) for IPv4, (host, port, flowinfo, scope_id) for IPv6).
Address = tuple[int, tuple[Any, ...]]

LOOPBACK_SETTING = "BOTS_ALLOW_LOOPBACK_URLS"

# IPv6 prefixes that carry an IPv4 address to be reached by another route (6to4, Teredo, NAT64,
# the deprecated IPv4-compatible form): whatever IPv4 address they embed, they are refused, so
# 2002:a00:1:: cannot smuggle 10.0.0.1 past a check that reads it as a global IPv6 address.
_TUNNELS = tuple(
    ipaddress.IPv6Network(prefix)
    for prefix in ("2002::/16", "2001::/32", "64:ff9b::/96", "64:ff9b:1::/48", "::/96")
)


def resolve(host: str, port: int) -> list[Address]:
    """Every address `host` resolves to, for a TCP connection to `port`.

    The one place the webhook client asks the system's resolver, so that a test can stand in for
    DNS (a name that answers a public address first and a private one next)."""
    return [
        (family, address)
        for family, _, _, _, address in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    ]


def address_refusal(address: str, *, allow_loopback: bool) -> str | None:
    """Why the server will not connect to `address` (an IP address as text), or None if it may:
    a global unicast address, or a loopback one when `allow_loopback`."""
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            # ::ffff:10.0.0.1 is 10.0.0.1 to the kernel: judge the IPv4 address.
            ip = ip.ipv4_mapped
        elif any(ip in tunnel for tunnel in _TUNNELS) and not ip.is_loopback:
            return f"{ip}, an IPv6 tunnel (6to4, Teredo, NAT64) address"
    if ip.is_loopback:
        return None if allow_loopback else f"{ip}, a loopback address"
    if ip.is_multicast:
        return f"{ip}, a multicast address"
    if not ip.is_global:
        # Private, link-local, CGNAT (100.64/10), unique-local (fc00::/7), unspecified (0.0.0.0
        # reaches this machine), documentation and reserved ranges alike.
        return f"{ip}, a private, link-local or reserved address"
    return None


def _resolve_within(host: str, port: int, timeout: float | None) -> list[Address]:
    """`resolve`, given at most `timeout` seconds (None: as long as the resolver takes);
    TimeoutError when it has not answered by then. getaddrinfo takes no timeout, so the lookup
    runs in a daemon thread, which is left to finish on its own when time is up."""
    if timeout is None:
        return resolve(host, port)
    found: list[list[Address]] = []
    failed: list[BaseException] = []

    def lookup() -> None:
        try:
            found.append(resolve(host, port))
        except BaseException as error:  # noqa: BLE001 (raised again in the caller's thread)
            failed.append(error)

    thread = threading.Thread(target=lookup, name="webhook-resolve", daemon=True)
    thread.start()
    thread.join(max(timeout, 0.0))
    if thread.is_alive():
        raise TimeoutError(f"{host!r} did not resolve in time")
    if failed:
        raise failed[0]
    return found[0]


def check_url(url: str, *, allow_loopback: bool, timeout: float | None = None) -> list[Address]:
    """Resolve `url`'s host once and return its addresses, or raise RefusedURL unless the server
    may call every one of them. The caller connects to these addresses and no others: resolving
    again could answer differently (DNS rebinding). With `timeout`, TimeoutError when the host
    has not resolved within that many seconds."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RefusedURL(f"{url!r} is not an http(s) URL with a host")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as error:
        raise RefusedURL(f"{url!r} has no valid port: {error}") from None
    try:
        addresses = _resolve_within(parts.hostname, port, timeout)
    except TimeoutError:
        raise
    except (OSError, UnicodeError) as error:
        raise RefusedURL(f"cannot resolve {parts.hostname!r}: {error}") from None
    if not addresses:
        raise RefusedURL(f"{parts.hostname!r} has no address")
    for _, sockaddr in addresses:
        # Every answer, not just the first: the connection may fall back to any of them.
        why = address_refusal(str(sockaddr[0]), allow_loopback=allow_loopback)
        if why is not None:
            allowed = (
                f"; loopback ones only on a site started with the server's setting "
                f"{LOOPBACK_SETTING}=1, for a local test only (e.g. {LOOPBACK_SETTING}=1 make run)"
                if "loopback" in why
                else ""
            )
            raise RefusedURL(
                f"{parts.hostname!r} resolves to {why}: the server calls only public "
                f"addresses, never private ones{allowed}"
            )
    return addresses


class _Deadline:
    """The end of an exchange, on the monotonic clock."""

    def __init__(self, at: float) -> None:
        self.at = at

    def left(self) -> float:
        """The seconds left; TimeoutError when there are none."""
        left = self.at - time.monotonic()
        if left <= 0:
            raise TimeoutError("no time left")
        return left


class _TimedSocket:
    """A connected socket (TLS or not) as http.client sees it: every send and receive first sets
    the socket's timeout to the time left, so no operation, however little it gets at a time,
    outlasts the deadline. http.client uses only `sendall`, `makefile` and `close`."""

    def __init__(self, sock: socket.socket, deadline: _Deadline) -> None:
        self.sock, self.deadline = sock, deadline

    def sendall(self, data: bytes) -> None:
        # Send by send: a TLS socket's sendall gives each of its sends the whole timeout.
        view = memoryview(data).cast("B")
        while view:
            self.sock.settimeout(self.deadline.left())
            view = view[self.sock.send(view) :]

    def recv_into(self, buffer: memoryview) -> int:
        self.sock.settimeout(self.deadline.left())
        return self.sock.recv_into(buffer)

    def makefile(self, mode: str) -> io.BufferedReader:
        # http.client reads the status line, headers and body through this buffered file.
        return io.BufferedReader(_TimedReader(self))

    def close(self) -> None:
        # http.client closes the connection as soon as it has the response to a "Connection:
        # close" request, and the body is read after that: _Connection.end closes the socket.
        pass


class _TimedReader(io.RawIOBase):
    def __init__(self, sock: _TimedSocket) -> None:
        self.sock = sock

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        return self.sock.recv_into(buffer)


@functools.cache
def _tls() -> ssl.SSLContext:
    # The defaults: the certificate checked against the system's authorities, for the host name.
    return ssl.create_default_context()


def open_socket(family: int, address: tuple[Any, ...], timeout: float) -> socket.socket:
    """A TCP socket connected to `address` within `timeout` seconds: the only place the client
    dials, so a test can see where a call goes without any network but loopback."""
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect(address)
    except BaseException:
        sock.close()
        raise
    return sock


class _Connection(http.client.HTTPConnection):
    """An HTTP(S) connection whose every socket operation keeps the deadline. It connects to the
    addresses check_url checked, never resolving the host again (a second answer could be a
    private address: DNS rebinding), and straight to the bot, never through a proxy named in the
    environment, whose own delays would be outside our reckoning. The Host header, TLS's SNI and
    the certificate check are still for the URL's host name."""

    def __init__(
        self,
        scheme: str,
        host: str,
        port: int | None,
        addresses: list[Address],
        deadline: _Deadline,
    ) -> None:
        self.tls = scheme == "https"
        # The Host header leaves out the scheme's default port.
        self.default_port = 443 if self.tls else 80
        super().__init__(host, port)
        self.addresses = addresses
        self.deadline = deadline
        self.raw: socket.socket | None = None

    def connect(self) -> None:
        # socket.create_connection would give each of the host's addresses the whole timeout.
        error: OSError = OSError(f"{self.host!r} has no address")
        for family, address in self.addresses:
            try:
                sock = open_socket(family, address, self.deadline.left())
            except TimeoutError:
                raise  # the deadline passed: no time for another address either
            except OSError as failed:
                error = failed
                continue
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                if self.tls:
                    # The context first: its first making loads the system's certificates.
                    context = _tls()
                    # The handshake is one call, bounded in all by the timeout it starts with.
                    sock.settimeout(self.deadline.left())
                    sock = context.wrap_socket(sock, server_hostname=self.host)
            except TimeoutError:
                sock.close()
                raise
            except OSError as failed:
                sock.close()
                if isinstance(failed, ssl.SSLError):
                    raise  # the host answered: another address would not do better
                error = failed
                continue
            self.raw = sock
            self.sock = _TimedSocket(sock, self.deadline)
            return
        raise error

    def end(self) -> None:
        """Close the connection and its socket, the response read or not."""
        self.close()
        if self.raw is not None:
            self.raw.close()


class _Status(Exception):
    """An answer other than 2xx."""

    def __init__(self, code: int) -> None:
        super().__init__(f"HTTP {code}")


def _exchange(
    url: str,
    addresses: list[Address],
    body: bytes,
    headers: dict[str, str],
    deadline: _Deadline,
) -> bytes:
    """POST `body` to `url` at one of `addresses` (check_url's) and return the answer's body, at
    most MAX_ANSWER + 1 bytes, by the deadline. Raises TimeoutError, _Status,
    ConnectionError, OSError, ValueError or http.client.HTTPException."""
    parts = urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    connection = _Connection(parts.scheme, parts.hostname or "", parts.port, addresses, deadline)
    try:
        connection.request("POST", target, body=body, headers=headers)
        response = connection.getresponse()
        if not 200 <= response.status < 300:
            # A redirect could lead anywhere, a private address included: a 3xx is an error too.
            raise _Status(response.status)
        limit = MAX_ANSWER + 1
        raw = bytearray()
        while len(raw) < limit:
            deadline.left()
            # At most one receive, itself given only the time left.
            piece = response.read1(limit - len(raw))
            if not piece:
                break
            raw += piece
        return bytes(raw)
    finally:
        connection.end()


@dataclass(frozen=True, slots=True)
class Call:
    """A call begun (`begin`): the host resolved and checked, its deadline running; `answer` is
    set when it ended there (a refused URL, no address in time) and `send` sends nothing."""

    url: str
    timeout: float
    started: float
    deadline: _Deadline
    addresses: list[Address]
    answer: Answer | None = None


def begin(url: str, *, timeout: float, allow_loopback: bool) -> Call:
    """Start a call of `url` with `timeout` seconds in all: resolve and check its host within
    them. Sends nothing; `send` does."""
    started = time.monotonic()
    deadline = _Deadline(started + timeout)
    try:
        # Resolved once: the retry in `send` goes to the same checked addresses.
        addresses = check_url(url, timeout=timeout, allow_loopback=allow_loopback)
    except RefusedURL as error:
        return Call(url, timeout, started, deadline, [], Answer(ERROR, detail=str(error)))
    except TimeoutError as error:
        latency = time.monotonic() - started
        return Call(
            url, timeout, started, deadline, [], Answer(TIMEOUT, latency=latency, detail=str(error))
        )
    return Call(url, timeout, started, deadline, addresses)


def post(call: Call, *, secret: str, payload: dict[str, Any]) -> Answer:
    """POST `payload` for the call `begin` started and return the bot's answer, by its deadline
    (the answer `begin` ended with, if it did)."""
    if call.answer is not None:
        return call.answer
    url, timeout, started, deadline, addresses = (
        call.url, call.timeout, call.started, call.deadline, call.addresses,
    )  # fmt: skip
    body = json.dumps(payload, separators=(",", ":")).encode()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "uno-league-worker",
        SIGNATURE_HEADER: sign(secret, body),
        # One exchange a connection: an answer without a length ends when the bot closes.
        "Connection": "close",
    }
    for attempt in (1, 2):
        if deadline.at <= time.monotonic():
            return Answer(TIMEOUT, latency=time.monotonic() - started, detail="no time left")
        try:
            raw = _exchange(url, addresses, body, headers, deadline)
            break
        except TimeoutError:
            return Answer(TIMEOUT, latency=time.monotonic() - started, detail="no answer in time")
        except _Status as error:
            return Answer(ERROR, latency=time.monotonic() - started, detail=str(error))
        except ConnectionError as error:
            # Refused, or reset (http.client's RemoteDisconnected among them): once more.
            if attempt == 1:
                continue
            return Answer(ERROR, latency=time.monotonic() - started, detail=_describe(error))
        except (OSError, ValueError) as error:
            # A TLS failure, an unreachable host, a port that is no number...
            return Answer(ERROR, latency=time.monotonic() - started, detail=_describe(error))
        except http.client.HTTPException as error:
            # Its message may quote the bot's garbage, 64 KiB of it: only the kind.
            detail = f"the exchange is not valid HTTP ({type(error).__name__})"
            return Answer(ERROR, latency=time.monotonic() - started, detail=detail)
    latency = time.monotonic() - started
    if latency > timeout:
        return Answer(TIMEOUT, latency=latency, detail=f"answered after {latency:.2f} s")
    if len(raw) > MAX_ANSWER:
        return Answer(ERROR, latency=latency, detail="the answer is too long")
    try:
        command = json.loads(raw)
    # A body nested thousands deep exhausts the decoder's recursion: not JSON we can use.
    except (ValueError, RecursionError):
        return Answer(ERROR, latency=latency, detail="the answer is not JSON")
    return Answer(OK, command=command, latency=latency)


def _describe(error: Exception) -> str:
    return str(error) or type(error).__name__
