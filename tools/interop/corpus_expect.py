#!/usr/bin/env python3
"""Writes what the third-party readers (cshogi, then python-shogi) read from each shogi
record of crates/rules/tests/data/shogi/: start SFEN and moves, one line per file, to
expected.tsv beside them. The Rust test `corpus` compares Jiang's import with it move by
move. `--check` compares instead of writing (CI: the stored expectations are the readers').

Usage: corpus_expect.py [--check]
"""

import json
import os
import subprocess
import sys

import cshogi
import cshogi.KI2
import cshogi.KIF
import shogi.CSA
import shogi.KIF

DIR = os.path.join(os.path.dirname(__file__), "..", "..", "crates", "rules", "tests", "data", "shogi")


def decode(raw):
    for encoding in ("utf-8-sig", "cp932", "euc-jp"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            pass
    raise ValueError("undecodable")


def norm_sfen(sfen):
    board, turn, hand = sfen.split()[:3]
    return f"{board} {turn} {hand}"


def read(path):
    """(reader, start sfen, USI moves) from the first reader that reads the file, or the
    readers' errors."""
    text = decode(open(path, "rb").read())
    ext = path.rsplit(".", 1)[1]
    # The readers take variations (変化) for more moves of the main line: give them the main
    # line only, which is what Jiang imports.
    text = text.replace("\r\n", "\n").split("\n変化：")[0]
    errors = []
    attempts = []
    if ext == "csa":
        attempts = [("cshogi", lambda: cshogi.Parser.parse_str(text)[0]),
                    ("python-shogi", lambda: shogi.CSA.Parser.parse_str(text)[0])]
    elif ext in ("kif", "kifu"):
        attempts = [("cshogi", lambda: cshogi.KIF.Parser.parse_str(text)),
                    ("python-shogi", lambda: shogi.KIF.Parser.parse_str(text)[0])]
        # cshogi's KIF reader ignores board diagrams: python-shogi reads them.
        if any(line.startswith("|") for line in text.splitlines()):
            attempts.reverse()
    else:
        attempts = [("cshogi", lambda: cshogi.KI2.Parser.parse_str(text))]
    for name, attempt in attempts:
        try:
            got = attempt()
            if isinstance(got, dict):
                sfen, moves = got["sfen"], got["moves"]
            else:
                sfen, moves = got.sfen, [cshogi.move_to_usi(m) for m in got.moves]
            if not moves and "手数" not in text and "+" not in text:
                raise ValueError("no moves read")
            return name, norm_sfen(sfen), moves
        except Exception as e:  # noqa: BLE001 - a reader's failure is recorded as such
            errors.append(f"{name}: {type(e).__name__}")
    return None, "", errors


def read_isolated(path):
    """`read` in a child process: cshogi's C++ CSA parser crashes on some files."""
    child = subprocess.run([sys.executable, __file__, "--one", path],
                           capture_output=True, text=True, timeout=60)
    if child.returncode != 0:
        return None, "", [f"cshogi: crashed (exit {child.returncode})"]
    return tuple(json.loads(child.stdout))


def main():
    if sys.argv[1:2] == ["--one"]:
        print(json.dumps(read(sys.argv[2])))
        return 0
    lines = []
    for name in sorted(os.listdir(DIR)):
        if name.endswith((".tsv", ".md")):
            continue
        reader, sfen, moves = read_isolated(os.path.join(DIR, name))
        if reader is None:
            lines.append(f"{name}\tnone\t\t{'; '.join(moves)}")
        else:
            lines.append(f"{name}\t{reader}\t{sfen}\t{' '.join(moves)}")
    text = "\n".join(lines) + "\n"
    out = os.path.join(DIR, "expected.tsv")
    if "--check" in sys.argv:
        stored = open(out, encoding="utf-8").read()
        if stored != text:
            print("expected.tsv differs from what the readers read now")
            return 1
        print(f"expected.tsv matches the readers ({len(lines)} records)")
        return 0
    open(out, "w", encoding="utf-8").write(text)
    print(f"wrote {out}: {len(lines)} records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
