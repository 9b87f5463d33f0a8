"""CPU of one edit of the chat line (a key typed or deleted), without the
key's dispatch or the frame: the widget's own work.

    ./manage bench chat_edits [--edits 3000]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textual.app import App, ComposeResult

from tui.widgets import ChatInput


class OneLine(App[None]):
    CSS = "ChatInput { width: 60; height: 1; border: none; }"

    def compose(self) -> ComposeResult:
        yield ChatInput(max_length=300)  # as the chat panel makes it


async def run(edits: int) -> float:
    app = OneLine()
    async with app.run_test(size=(80, 5)) as pilot:
        field = app.query_one(ChatInput)
        field.focus()
        await pilot.pause()
        field.insert_text_at_cursor("x")  # the first value goes Textual's way
        start = time.process_time()
        for i in range(edits):  # a word of 12 keys, then 12 backspaces, like the load benchmark's typers
            if i % 24 < 12:
                field.insert_text_at_cursor("abcdefghijkl"[i % 12])
            else:
                field.action_delete_left()
        return (time.process_time() - start) / edits


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=3000)
    args = parser.parse_args()
    seconds = asyncio.run(run(args.edits))
    print(f"chat line: {seconds * 1e6:.0f} us of CPU per edit ({args.edits} edits: typed, then deleted)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
