"""The SSH front door: authentication, identities, limits, one App per session.

* The SSH user name is the player's name (cleaned by :func:`server.sanitize.clean_name`).
* Public keys are identities: the first key to log in under a name owns it
  (``Storage.claim_name``). Another key is refused for that name.
* Clients without an accepted key get in through keyboard-interactive auth
  with no prompt; the session then either plays as a *guest* (when the
  config allows it and the name is not key-owned) or prints one clear message
  saying why not and how to connect instead, and closes. Refusals are shown
  inside the session because OpenSSH prints what a session writes, while
  auth failures show only "Permission denied"; a key refused for a name also
  gets the message as an auth banner, for clients that never try
  keyboard-interactive (``BatchMode``).
* Each interactive session with a PTY runs one Textual App on the shared
  event loop through :mod:`server.sshdriver`. No PTY, exec requests,
  subsystems (SFTP/SCP), port/agent/X11 forwarding: refused.
* Limits: before login, every connection passes :mod:`server.gate` at accept
  (caps on connections not logged in, per-source penalties); then logged-in
  connections per address, authentication tries, login grace time, sessions
  per connection, connections without a session, idle timeout, maximum
  sessions; keepalives find dead connections.

The parts: :mod:`~server.ssh.server` (the listener), :mod:`~server.ssh.auth`
(a connection: authentication and identity), :mod:`~server.ssh.session` (a
session channel and its App), :mod:`~server.ssh.apphost` (the screens as the
server hosts them) and :mod:`~server.ssh.messages` (what a client reads outside the App).
"""

from server.ssh.apphost import (
    AppHost,
    LogStream,
    capture_process_output,
    keep_tasks_lazy,
    prepare_app,
)
from server.ssh.auth import Connection
from server.ssh.messages import lang_from_env, message
from server.ssh.server import ThroneServer
from server.ssh.session import Session

__all__ = [
    "AppHost",
    "Connection",
    "LogStream",
    "Session",
    "ThroneServer",
    "capture_process_output",
    "keep_tasks_lazy",
    "lang_from_env",
    "message",
    "prepare_app",
]
