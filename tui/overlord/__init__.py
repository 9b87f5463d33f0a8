"""The Kill the Overlord table screen (``tui.overlord.table.Table``)."""
