#!/usr/bin/env python3
"""Independent oracle for the xiangqi move generator: Fairy-Stockfish's Python binding.

Plays random xiangqi games with pyffish, and for every position compares the legal moves
printed by `jiang moves xiangqi` with pyffish's (whose ranks run 1-10: converted here to ICCS
0-9). Not part of `cargo test` (it needs PyPI):

    python3 -m venv /tmp/ffenv && /tmp/ffenv/bin/pip install pyffish
    cargo build --release -p jiang
    /tmp/ffenv/bin/python crates/rules/tests/xiangqi_oracle.py [games] [plies]

Fairy-Stockfish is GPL: it is only run here as a separate program, never copied.
"""

import random
import re
import subprocess
import sys

import pyffish as sf

JIANG = "target/release/jiang"
MOVE = re.compile(r"^([a-i])(\d+)([a-i])(\d+)$")


def to_iccs(uci: str) -> str:
    f1, r1, f2, r2 = MOVE.match(uci).groups()
    return f"{f1}{int(r1) - 1}{f2}{int(r2) - 1}"


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    plies = int(sys.argv[2]) if len(sys.argv) > 2 else 150
    rng = random.Random(2026)
    start = sf.start_fen("xiangqi")
    positions = []  # (fen, sorted ICCS moves)
    for _ in range(games):
        moves = []
        for _ in range(plies):
            fen = sf.get_fen("xiangqi", start, moves)
            legal = sf.legal_moves("xiangqi", start, moves)
            positions.append((fen, sorted(to_iccs(m) for m in legal)))
            if not legal:
                break
            moves.append(rng.choice(legal))
    fens = "".join(f"{fen}\n" for fen, _ in positions)
    out = subprocess.run([JIANG, "moves", "xiangqi"], input=fens, capture_output=True, text=True)
    lines = out.stdout.split("\n")
    mismatches = 0
    for (fen, expected), line in zip(positions, lines):
        got = line.split() if line else []
        if line.startswith("error:"):
            print(f"rejected: {fen}: {line}")
            mismatches += 1
        elif got != expected:
            print(f"moves differ in {fen}\n  jiang only: {sorted(set(got) - set(expected))}\n  pyffish only: {sorted(set(expected) - set(got))}")
            mismatches += 1
    print(f"{len(positions)} positions compared, {mismatches} mismatches")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
