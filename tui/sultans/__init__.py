"""The Sultans of Karaya table screen (``tui/sultans/table.py``, found by ``tui.tables``)."""
