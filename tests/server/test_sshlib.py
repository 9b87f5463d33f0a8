"""The server starts clean: no DSA anywhere (issue 44 item 11), and real
warnings stay visible (server/sshlib.py)."""

from __future__ import annotations

import base64
import os
import select
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import asyncssh
import pytest
from asyncssh.packet import MPInt, String
from cryptography.utils import CryptographyDeprecationWarning

from server import sshlib

ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("PYTHONWARNINGS", None)  # as an operator starts it
    return env


def test_a_server_start_prints_no_dsa_warning(tmp_path: Path) -> None:
    """Started as an operator starts it, the server says its host key and that
    it listens, and nothing on stderr: every start printed five
    "CryptographyDeprecationWarning: DSA is deprecated" blocks."""
    cmd = [
        sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--port", "0",
        "--keys", str(tmp_path / "keys"), "--db", str(tmp_path / "db.sqlite"),
    ]
    err_path = tmp_path / "stderr.txt"
    with err_path.open("w") as err:
        proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL, env=_env())
    assert proc.stdout is not None
    out = b""
    deadline = time.monotonic() + 60
    try:
        while b"listening on" not in out:
            assert time.monotonic() < deadline, f"no 'listening on' within 60 s:\n{out.decode()}\n{err_path.read_text()}"
            ready, _, _ = select.select([proc.stdout], [], [], 0.5)
            if ready:
                chunk = os.read(proc.stdout.fileno(), 4096)
                assert chunk, f"the server ended before listening:\n{err_path.read_text()}"
                out += chunk
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
    said = out.decode() + err_path.read_text()
    assert "host key fingerprint SHA256:" in said
    assert "DSA" not in said
    assert "Warning" not in said, said


def test_other_warnings_still_show() -> None:
    """Only the import's DSA warnings were set aside: a warning the server
    raises later, of cryptography's kind too, is printed as ever."""
    code = (
        "import server.cli, warnings\n"
        "from cryptography.utils import CryptographyDeprecationWarning\n"
        "warnings.warn('FFDH is deprecated', CryptographyDeprecationWarning)\n"
        "warnings.warn('something else')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), timeout=60, check=True)
    assert "CryptographyDeprecationWarning: FFDH is deprecated" in run.stderr
    assert "UserWarning: something else" in run.stderr
    assert "DSA" not in run.stderr


def test_no_dsa_filter_is_left_installed() -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("default")
        warnings.warn("DSA is deprecated and so on", CryptographyDeprecationWarning, stacklevel=1)
    assert [str(w.message) for w in seen] == ["DSA is deprecated and so on"]
    assert not any(f[1] is not None and "DSA" in f[1].pattern for f in warnings.filters)


def test_asyncssh_offers_and_reads_no_dsa_key() -> None:
    """ssh-dss is in none of asyncssh's key, certificate or X.509 algorithms,
    and a DSA public key reads as an unknown key type (the public calls: this
    fails if asyncssh keeps DSA some other way than the tables
    server.sshlib.drop_dsa empties)."""
    algorithms = (
        asyncssh.public_key.get_public_key_algs()
        + asyncssh.public_key.get_default_public_key_algs()
        + asyncssh.public_key.get_certificate_algs()
        + asyncssh.public_key.get_default_certificate_algs()
        + asyncssh.public_key.get_x509_certificate_algs()
        + asyncssh.public_key.get_default_x509_certificate_algs()
    )
    assert b"ssh-ed25519" in algorithms
    assert not [alg for alg in algorithms if b"dss" in alg]
    blob = String(b"ssh-dss") + b"".join(MPInt(n) for n in (2**1023 + 1155, 2**159 + 7, 4, 9))
    with pytest.raises(asyncssh.KeyImportError):  # (read with the DSA handler back in place, it is a key)
        asyncssh.import_public_key(b"ssh-dss " + base64.b64encode(blob))
    before = asyncssh.public_key.get_public_key_algs()
    sshlib.drop_dsa()  # twice changes nothing
    assert asyncssh.public_key.get_public_key_algs() == before
