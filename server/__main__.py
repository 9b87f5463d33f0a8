"""``python -m server``: the same command line as ``throneroom``."""

from server.cli import main

raise SystemExit(main())
