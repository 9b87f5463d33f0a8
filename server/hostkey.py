"""The server's SSH host key: made on first start, reused afterwards."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import asyncssh

log = logging.getLogger("throneroom.hostkey")

KEY_ALGORITHM = "ssh-ed25519"


class HostKeyError(Exception):
    """The host key file exists but cannot be used."""


def load_or_create(path: Path) -> tuple[asyncssh.SSHKey, bool]:
    """Return the private host key at ``path``, generating it first if absent.

    The key file is written with mode 0600 (its folder 0700 when created) and
    its public half beside it as ``<path>.pub``. Returns ``(key, created)``.
    """
    if path.exists():
        try:
            key = asyncssh.read_private_key(str(path))
        except (OSError, asyncssh.KeyImportError, ValueError) as exc:
            raise HostKeyError(f"cannot read host key {path}: {exc}") from exc
        mode = path.stat().st_mode & 0o777
        if mode & 0o077:
            log.warning("host key %s has mode %o; it should be 0600 (chmod 600 %s)", path, mode, path)
        return key, False

    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = asyncssh.generate_private_key(KEY_ALGORITHM, comment="throneroom host key")
    data = key.export_private_key("openssh")
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.chmod(tmp, 0o600)  # in case the file existed with a wider mode
    os.replace(tmp, path)
    pub = path.with_name(path.name + ".pub")
    pub.write_bytes(key.export_public_key("openssh"))
    return key, True


def fingerprint(key: asyncssh.SSHKey) -> str:
    """The key's OpenSSH fingerprint, ``SHA256:...``."""
    return key.get_fingerprint("sha256")
