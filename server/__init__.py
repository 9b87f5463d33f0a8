"""throneroom's server side; asyncssh is set up (no DSA) before anything here imports it."""

from server import sshlib as sshlib
