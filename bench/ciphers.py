"""CPU per SSH packet of each cipher (and MAC) the server can offer, in the
server's own SSH library (asyncssh), for a frame-sized packet.

    ./manage bench ciphers [--bytes 1632] [--packets 20000]

Why the server does not offer chacha20-poly1305 by default: see
``server/config.py`` (``CIPHERS``) and deploy/README.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


from server.config import CIPHERS, MACS
from server.sshlib import asyncssh

PAIRS = [
    ("chacha20-poly1305@openssh.com", ""),
    ("aes128-gcm@openssh.com", ""),
    ("aes256-gcm@openssh.com", ""),
    ("aes128-ctr", "hmac-sha2-256-etm@openssh.com"),
    ("aes256-ctr", "hmac-sha2-512-etm@openssh.com"),
    ("aes128-ctr", "hmac-sha2-256"),
]


def per_packet(cipher: str, mac: str, size: int, packets: int) -> float:
    """Seconds of CPU to encrypt and sign one packet of ``size`` bytes."""
    key_size, iv_size, _block, mac_size, _hash, etm = asyncssh.encryption.get_encryption_params(cipher.encode(), mac.encode())
    enc = asyncssh.encryption.get_encryption(cipher.encode(), os.urandom(key_size), os.urandom(iv_size), mac.encode(), os.urandom(mac_size), etm)
    assert enc is not None
    data = os.urandom(size)
    start = time.process_time()
    for seq in range(packets):
        enc.encrypt_packet(seq, b"\0\0\0\0", data)
    return (time.process_time() - start) / packets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bytes", type=int, default=1632, help="packet size (default: a table frame's mean)")
    parser.add_argument("--packets", type=int, default=20000)
    args = parser.parse_args(argv)
    print(f"CPU per {args.bytes}-byte packet, {args.packets} packets each:")
    for cipher, mac in PAIRS:
        offered = cipher in CIPHERS and (not mac or mac in MACS)
        seconds = per_packet(cipher, mac, args.bytes, args.packets)
        label = f"{cipher} {mac}".strip()
        print(f"  {label:50} {seconds * 1e6:6.1f} us   {'offered' if offered else 'not offered by default'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
