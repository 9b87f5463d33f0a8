"""``python -m server``: the same command line as ``throneroom``."""

from server.cli import main

if __name__ == "__main__":  # (the strong bots' worker processes import this module as __mp_main__)
    raise SystemExit(main())
