"""asyncssh as this server uses it: imported once, without DSA.

cryptography 51 deprecates DSA, and asyncssh 2.24 names cryptography's DSA
classes while its modules load (type unions and annotations) and registers the
``ssh-dss`` key type: every start printed five ``CryptographyDeprecationWarning:
DSA is deprecated`` blocks, which an operator reads as faults, for an algorithm
this server never needs (its host key is Ed25519; OpenSSH dropped DSA in 10.0).

So asyncssh is imported here with those warnings, and only those (their
category and message, for the import alone), set aside, and :func:`drop_dsa`
takes ``ssh-dss`` out of every table asyncssh reads key and certificate types
from: a DSA key, host or client, in any format, is refused as an unknown key
type. Every other warning shows as before. ``server/__init__.py`` imports this
module, so it runs before any other import of asyncssh in the server; a test
(tests/server/test_sshlib.py) fails if asyncssh keeps DSA some other way.
"""

from __future__ import annotations

import warnings

with warnings.catch_warnings():
    try:
        from cryptography.utils import CryptographyDeprecationWarning
    except ImportError:  # an older cryptography: nothing of DSA to set aside
        pass
    else:
        warnings.filterwarnings("ignore", message="DSA is deprecated", category=CryptographyDeprecationWarning)
    import asyncssh as asyncssh
    import asyncssh.public_key as _keys

DSA_ALGORITHMS = (b"ssh-dss", b"ssh-dss-cert-v01@openssh.com", b"x509v3-ssh-dss")
"""Every name asyncssh registers for DSA: the key, its OpenSSH certificate, its X.509 chain."""

DSA_PEM = b"DSA"  # the PEM header's word of a DSA key
DSA_OID = "1.2.840.10040.4.1"  # a PKCS#8 DSA key's algorithm


def drop_dsa() -> None:
    """Unregister DSA from asyncssh (idempotent): its algorithm lists and the
    maps it reads keys and certificates through."""
    for algs in (
        _keys._public_key_algs,
        _keys._default_public_key_algs,
        _keys._certificate_algs,
        _keys._default_certificate_algs,
        _keys._x509_certificate_algs,
        _keys._default_x509_certificate_algs,
    ):
        algs[:] = [alg for alg in algs if alg not in DSA_ALGORITHMS]
    for alg in DSA_ALGORITHMS:
        _keys._public_key_alg_map.pop(alg, None)
        _keys._certificate_alg_map.pop(alg, None)
        _keys._certificate_sig_alg_map.pop(alg, None)
    for key in [k for k in _keys._certificate_version_map if k[0] in DSA_ALGORITHMS]:
        del _keys._certificate_version_map[key]
    _keys._pem_map.pop(DSA_PEM, None)
    for oid in [oid for oid in _keys._pkcs8_oid_map if str(oid) == DSA_OID]:
        del _keys._pkcs8_oid_map[oid]


drop_dsa()

__all__ = ["DSA_ALGORITHMS", "asyncssh", "drop_dsa"]
