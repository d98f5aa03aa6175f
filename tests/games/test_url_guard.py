"""The webhook URL guard (bots/remote/webhook.py): only global unicast addresses, and loopback
alone with BOTS_ALLOW_LOOPBACK_URLS (never 10.x, link-local, CGNAT, unique-local, multicast or an
IPv6 form of them); the host resolved once and the call made to the address that was checked
(DNS rebinding), Host header and TLS name still the host's; redirects refused.

Nothing here leaves loopback: a name's answers come from a stand-in for the resolver
(wire.resolve), and a connection to any other address is refused by a stand-in for the dialer
(wire.open_socket) that records where it was sent.
"""

from __future__ import annotations

import json
import shutil
import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from bots.remote import webhook, wire

PAYLOAD = {"game": 1, "seat": 0, "version": 1, "view": {}, "legal": [{"type": "draw", "seat": 0}]}
PUBLIC = "93.184.216.34"

# Refused whatever the setting says: private, link-local, CGNAT, unspecified, multicast,
# documentation and reserved IPv4; unique-local, link-local, multicast and unspecified IPv6; and
# IPv6 spellings of private IPv4 (mapped, 6to4, NAT64, IPv4-compatible).
NEVER = [
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.2",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.254",
    "0.0.0.0",
    "224.0.0.1",
    "192.0.2.10",
    "240.0.0.1",
    "255.255.255.255",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "ff02::1",
    "::",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "::ffff:100.64.0.1",
    "2002:a00:1::1",
    "64:ff9b::a00:1",
    "::10.0.0.1",
    "2001:db8::1",
]
LOOPBACK = ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"]


def literal(address: str) -> str:
    return f"http://[{address}]:8080/move" if ":" in address else f"http://{address}:8080/move"


def answers(*addresses: str, port: int = 80) -> list[webhook.Address]:
    """What the system resolver would give for a name with these addresses."""
    return [
        (socket.AF_INET6, (a, port, 0, 0)) if ":" in a else (socket.AF_INET, (a, port))
        for a in addresses
    ]


@pytest.mark.parametrize("address", NEVER)
@pytest.mark.parametrize("loopback_allowed", [False, True])
def test_non_global_addresses_are_refused_even_with_loopback_allowed(
    address, loopback_allowed, settings
):
    settings.BOTS_ALLOW_LOOPBACK_URLS = loopback_allowed
    with pytest.raises(webhook.RefusedURL, match="never private"):
        webhook.check_url(literal(address))


@pytest.mark.parametrize("address", NEVER)
def test_a_name_resolving_to_them_is_refused_too(address, settings, monkeypatch):
    settings.BOTS_ALLOW_LOOPBACK_URLS = True
    # One bad answer among good ones is enough: the connection may fall back to any of them.
    monkeypatch.setattr(wire, "resolve", lambda host, port: answers(PUBLIC, address))
    with pytest.raises(webhook.RefusedURL, match="'bot.example'"):
        webhook.check_url("https://bot.example/move")


@pytest.mark.parametrize("address", LOOPBACK)
def test_loopback_only_with_the_setting(address, settings):
    settings.BOTS_ALLOW_LOOPBACK_URLS = False
    with pytest.raises(
        webhook.RefusedURL, match="started with the server's setting BOTS_ALLOW_LOOPBACK_URLS=1"
    ):
        webhook.check_url(literal(address))
    settings.BOTS_ALLOW_LOOPBACK_URLS = True
    assert webhook.check_url(literal(address))


@pytest.mark.parametrize("address", [PUBLIC, "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"])
def test_global_addresses_pass(address, settings):
    settings.BOTS_ALLOW_LOOPBACK_URLS = False
    [(_, sockaddr)] = webhook.check_url(literal(address))
    assert sockaddr[0] == address


def test_urls_that_are_not_http_are_refused(settings):
    settings.BOTS_ALLOW_LOOPBACK_URLS = True
    for url in ("ftp://127.0.0.1/", "file:///etc/passwd", "http:///nohost", "http://127.0.0.1:x/"):
        with pytest.raises(webhook.RefusedURL):
            webhook.check_url(url)


class Recorder:
    """A loopback HTTP(S) server that keeps each request's Host header (and, for TLS, the name
    the client asked for) and answers with the first legal command, or a redirect."""

    def __init__(self, tls: ssl.SSLContext | None = None, redirect: str = "") -> None:
        self.hosts: list[str] = []
        self.server_names: list[str | None] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                recorder.hosts.append(self.headers["Host"])
                if redirect:
                    self.send_response(302)
                    self.send_header("Location", redirect)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                data = json.dumps(body["legal"][0]).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        if tls is not None:

            def note_name(sock: Any, name: str | None, context: Any) -> None:
                recorder.server_names.append(name)

            tls.sni_callback = note_name
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def __enter__(self) -> Recorder:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def dialled(monkeypatch) -> Iterator[list[str]]:
    """Every address the client connects to; anything but loopback is refused here, never
    dialled for real."""
    real = wire.open_socket
    seen: list[str] = []

    def open_socket(family: int, address: tuple[Any, ...], timeout: float) -> socket.socket:
        seen.append(str(address[0]))
        if not address[0].startswith("127.") and address[0] != "::1":
            raise ConnectionRefusedError(f"the test has no route to {address[0]}")
        return real(family, address, timeout)

    monkeypatch.setattr(wire, "open_socket", open_socket)
    yield seen


class Rebinding:
    """A resolver whose first answer for a name differs from its later ones."""

    def __init__(self, first: str, then: str) -> None:
        self.first, self.then, self.calls = first, then, 0

    def __call__(self, host: str, port: int) -> list[webhook.Address]:
        self.calls += 1
        return answers(self.first if self.calls == 1 else self.then, port=port)


def test_a_name_rebound_to_loopback_after_the_check_is_never_called_there(
    settings, monkeypatch, dialled
):
    # Production: no loopback. Checked: a public address. Asked again: the bot on loopback.
    settings.BOTS_ALLOW_LOOPBACK_URLS = False
    with Recorder() as bot:
        resolver = Rebinding(PUBLIC, "127.0.0.1")
        monkeypatch.setattr(wire, "resolve", resolver)

        answer = webhook.ask(
            url=f"http://rebind.example:{bot.port}/move", secret="s", payload=PAYLOAD, timeout=1.0
        )

    assert resolver.calls == 1
    # The checked address, tried twice (a refused connection is retried once), and nothing else.
    assert dialled == [PUBLIC, PUBLIC]
    assert answer.outcome == webhook.ERROR
    assert bot.hosts == []


def test_a_name_rebound_to_a_private_address_still_reaches_the_checked_one(
    settings, monkeypatch, dialled
):
    # Tests' loopback bot: checked at 127.0.0.1, then the name answers 10.0.0.1.
    settings.BOTS_ALLOW_LOOPBACK_URLS = True
    with Recorder() as bot:
        resolver = Rebinding("127.0.0.1", "10.0.0.1")
        monkeypatch.setattr(wire, "resolve", resolver)

        answer = webhook.ask(
            url=f"http://rebind.example:{bot.port}/move", secret="s", payload=PAYLOAD, timeout=1.0
        )

    assert answer.outcome == webhook.OK, answer.detail
    assert answer.command == PAYLOAD["legal"][0]
    assert resolver.calls == 1 and dialled == ["127.0.0.1"]
    # The Host header is still the URL's host, not the address dialled.
    assert bot.hosts == [f"rebind.example:{bot.port}"]


def test_ipv6_loopback_is_dialled_at_the_checked_address(settings, monkeypatch, dialled):
    settings.BOTS_ALLOW_LOOPBACK_URLS = True
    try:
        probe = socket.socket(socket.AF_INET6)
        probe.bind(("::1", 0))
        probe.close()
    except OSError:
        pytest.skip("this machine has no IPv6 loopback")

    class V6Server(ThreadingHTTPServer):
        address_family = socket.AF_INET6

    with Recorder() as recorder:
        # Re-serve the same handler on ::1.
        server = V6Server(("::1", 0), recorder.server.RequestHandlerClass)
        server.daemon_threads = True
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
        thread.start()
        try:
            port = server.server_address[1]
            monkeypatch.setattr(wire, "resolve", Rebinding("::1", "fd00::1"))
            answer = webhook.ask(
                url=f"http://six.example:{port}/", secret="s", payload=PAYLOAD, timeout=1.0
            )
        finally:
            server.shutdown()
            server.server_close()
    assert answer.outcome == webhook.OK, answer.detail
    assert dialled == ["::1"]
    assert recorder.hosts == [f"six.example:{port}"]


def test_a_redirect_is_not_followed(settings, monkeypatch, dialled):
    settings.BOTS_ALLOW_LOOPBACK_URLS = True
    with Recorder(redirect="http://169.254.169.254/latest/meta-data/") as bot:
        answer = webhook.ask(
            url=f"http://127.0.0.1:{bot.port}/move", secret="s", payload=PAYLOAD, timeout=1.0
        )
    assert answer.outcome == webhook.ERROR and answer.detail == "HTTP 302"
    assert len(bot.hosts) == 1 and dialled == ["127.0.0.1"]


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> tuple[Path, Path]:
    """A self-signed certificate for bot.test (openssl, as on every machine of ours)."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=bot.test", "-addext", "subjectAltName=DNS:bot.test",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def tls_pair(certificate: tuple[Path, Path]) -> tuple[ssl.SSLContext, ssl.SSLContext]:
    cert, key = certificate
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(cert, key)
    # The client as in production (hostname checked, certificate required), trusting our CA.
    client = ssl.create_default_context(cafile=str(cert))
    return server, client


@pytest.mark.parametrize("name, ok", [("bot.test", True), ("other.test", False)])
def test_https_dials_the_checked_address_and_checks_the_certificate_for_the_name(
    name, ok, certificate, settings, monkeypatch, dialled
):
    settings.BOTS_ALLOW_LOOPBACK_URLS = True
    server_tls, client_tls = tls_pair(certificate)
    monkeypatch.setattr(wire, "_tls", lambda: client_tls)
    with Recorder(tls=server_tls) as bot:
        resolver = Rebinding("127.0.0.1", "10.0.0.1")
        monkeypatch.setattr(wire, "resolve", resolver)
        answer = webhook.ask(
            url=f"https://{name}:{bot.port}/move", secret="s", payload=PAYLOAD, timeout=2.0
        )

    assert resolver.calls == 1 and dialled == ["127.0.0.1"]
    # SNI names the host, not the address.
    assert bot.server_names == [name]
    if ok:
        assert answer.outcome == webhook.OK, answer.detail
        assert bot.hosts == [f"bot.test:{bot.port}"]
    else:
        # The certificate is bot.test's: talking to other.test at that address is refused.
        assert answer.outcome == webhook.ERROR
        assert "certificate" in answer.detail.lower()
        assert bot.hosts == []
