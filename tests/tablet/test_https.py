"""A game night over HTTPS: a certificate made on the laptop, gunicorn serving TLS with the flags
`manage.py rungame` gives it, cookies only over TLS and HSTS (README "HTTPS on the hall's Wi-Fi")."""
import http.client
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import pytest
from django.test import override_settings

from larp.campaign.management.commands.rungame import tls_arguments
from tests import workers

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _openssl():
    if shutil.which("openssl") is None:
        pytest.fail("openssl is not installed: install Debian's openssl (scripts/services.sh tools does)", pytrace=False)


@pytest.fixture
def certificate(tmp_path):
    env = dict(os.environ, TLS_CERT=str(tmp_path / "cert.pem"), TLS_KEY=str(tmp_path / "key.pem"),
               TABLET_BASE_URL="https://192.168.1.10:8000", HOST="0.0.0.0")
    out = subprocess.run([str(ROOT / "scripts" / "make-certificate"), "10.20.30.40"], env=env, check=True,
                         capture_output=True, text=True, timeout=60).stdout
    return tmp_path / "cert.pem", tmp_path / "key.pem", out, env


def test_the_certificate_names_the_laptops_addresses_and_is_kept(certificate):
    cert, key, out, env = certificate
    names = subprocess.run(["openssl", "x509", "-in", str(cert), "-noout", "-ext", "subjectAltName"],
                           capture_output=True, text=True, check=True).stdout
    for name in ("DNS:localhost", "IP Address:127.0.0.1", "IP Address:192.168.1.10", "IP Address:10.20.30.40"):
        assert name in names
    assert key.stat().st_mode & 0o077 == 0  # the private key is the laptop user's alone
    fingerprint = re.search(r"Fingerprint=([0-9A-F:]+)", out).group(1)
    again = subprocess.run([str(ROOT / "scripts" / "make-certificate")], env=env, check=True, capture_output=True,
                           text=True, timeout=60).stdout
    assert "kept" in again and fingerprint in again


def test_rungame_adds_tls_only_when_https_is_on(certificate, tmp_path):
    cert, key, _out, _env = certificate
    with override_settings(HTTPS=False):
        assert tls_arguments() == []
    with override_settings(HTTPS=True, TLS_CERT=str(cert), TLS_KEY=str(key)):
        assert tls_arguments() == ["--certfile", str(cert), "--keyfile", str(key)]
    with override_settings(HTTPS=True, TLS_CERT=str(tmp_path / "missing.pem"), TLS_KEY=str(key)):
        with pytest.raises(SystemExit, match="make-certificate"):
            tls_arguments()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_night_over_https_serves_tls_secure_cookies_and_hsts(certificate, transactional_db, tiny_game):
    from larp.campaign.services.members import create_player

    cert, key, _out, env = certificate
    create_player(tiny_game.factions.get(code="north"), "north-tls", password="north-tls-password-1")
    port = free_port()
    env = dict(env, HTTPS="1", DJANGO_SETTINGS_MODULE="larp.settings_test", DATABASE_URL=workers.test_database_url(),
               DEBUG="0", ALLOWED_HOSTS="localhost,127.0.0.1")
    with override_settings(HTTPS=True, TLS_CERT=str(cert), TLS_KEY=str(key)):
        flags = tls_arguments()
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "larp.wsgi:application", "--bind",
                               f"127.0.0.1:{port}", "--workers", "1", "--threads", "2", "--keep-alive", "75",
                               *flags], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              preexec_fn=workers.dies_with_the_tests)
    try:
        trusted = ssl.create_default_context(cafile=str(cert))  # the tablet that installed the certificate
        deadline = time.monotonic() + 30
        while True:
            try:
                conn = http.client.HTTPSConnection("localhost", port, context=trusted, timeout=5)
                conn.request("GET", "/login/")
                response = conn.getresponse()
                break
            except (ConnectionError, OSError):
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.3)
        page = response.read().decode()
        assert response.status == 200
        assert response.getheader("Strict-Transport-Security") == "max-age=86400"
        csrf_cookie = [c for c in response.headers.get_all("Set-Cookie") if c.startswith("csrftoken=")][0]
        assert "Secure" in csrf_cookie
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({"username": "north-tls", "password": "north-tls-password-1",
                                       "csrfmiddlewaretoken": token})
        conn.request("POST", "/login/", body=body, headers={
            "Content-Type": "application/x-www-form-urlencoded", "Cookie": csrf_cookie.split(";")[0],
            "Origin": f"https://localhost:{port}", "Referer": f"https://localhost:{port}/login/"})
        response = conn.getresponse()
        response.read()
        assert response.status == 302
        session = [c for c in response.headers.get_all("Set-Cookie") if c.startswith("sessionid=")][0]
        assert "Secure" in session and "HttpOnly" in session
        # Plain HTTP is not served on the night's port: nobody reads a session cookie off the Wi-Fi there.
        plain = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        with pytest.raises((http.client.HTTPException, ConnectionError, OSError)):
            plain.request("GET", "/login/")
            plain.getresponse().read()
    finally:
        server.terminate()
        server.wait(timeout=10)
