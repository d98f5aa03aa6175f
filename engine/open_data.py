"""The open database's files (docs/database.md): finished games as JSON Lines, compressed with
zstandard, one game a line, every card revealed.

Pure (no Django): the service writes them (games/export.py), `manage.py verify_game --file`
checks a line against its seed, and the training kit's loader (engine/imitation.py) reads them.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

import zstandard

# The version of a line's shape (docs/database.md, "A line"); a reader refuses a newer one.
FORMAT = 1
SUFFIX = ".jsonl.zst"
MANIFEST = "manifest.json"
# zstandard's level: 19 of 22 makes a month's file about a tenth of its JSON, once a month.
LEVEL = 19

Line = dict[str, Any]


def write_lines(target: BinaryIO, lines: Iterable[Line]) -> int:
    """Write `lines` to the open binary file `target`, one compact JSON document a line, through
    one zstandard frame; returns the number of lines."""
    count = 0
    compressor = zstandard.ZstdCompressor(level=LEVEL)
    with compressor.stream_writer(target, closefd=False) as writer:
        for line in lines:
            writer.write(json.dumps(line, separators=(",", ":"), sort_keys=True).encode())
            writer.write(b"\n")
            count += 1
    return count


def read_games(path: str | Path) -> Iterator[Line]:
    """Every line (game) of a file, in order. ValueError for a line of a newer format."""
    with open(path, "rb") as raw:
        reader = zstandard.ZstdDecompressor().stream_reader(raw)
        for text in io.TextIOWrapper(reader, encoding="utf-8"):
            if not text.strip():
                continue
            line: Line = json.loads(text)
            if line.get("format", 0) > FORMAT:
                raise ValueError(
                    f"{path}: game {line.get('game')} is in format {line['format']}; "
                    f"this reader knows format {FORMAT}"
                )
            yield line


def find_game(path: str | Path, game_id: int) -> Line | None:
    """The line of game `game_id` in a file, or None."""
    return next((line for line in read_games(path) if line.get("game") == game_id), None)
