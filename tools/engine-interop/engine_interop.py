#!/usr/bin/env python3
"""`jiang engine` driven by real third-party clients, as a new user would.

- cshogi's `usi.Engine`: the USI handshake, `go` with byo-yomi only (no main time, the form
  that hung before) and with a main time, `go_mate` on tsume problems (every answer replayed
  by cshogi: legal, checking, mating), pondering with `ponderhit` and `stop`.
- cshogi's match runner (`cshogi.cli.main`): two very short matches of Jiang against itself,
  one with byo-yomi only and one with a main time, increment and pondering; every move is
  checked legal by cshogi (an illegal move or a hang fails the test).
- cchess's `UciEngine` (cchess 1.25.5 has it in cchess.engine): a xiangqi game's moves asked
  from positions given by FEN, each checked legal by cchess's board.
- A replay of the JieqiBox GUI's dialogue (read from its source): its engine FENs (the
  six-field `board side POOL CAPTURED halfmove fullmove`, also with captured pieces and on a
  revealed board, and its older seven-field form), its `go` forms (movetime, depth, nodes,
  `wtime … btime … movestogo 1`, searchmoves, infinite, ponder with movetime) and `stop`;
  each best move is checked legal by `jiang moves` on the same position in Jiang's form.

Prints one line per check and exits non-zero on the first failure.
"""

import argparse
import os
import queue
import stat
import subprocess
import sys
import tempfile
import threading
import time

import cshogi
import cshogi.cli
from cshogi.usi import Engine as UsiEngine
from cchess import ChessBoard
from cchess.engine import UciEngine

JIANG = None


def check(condition, what):
    if not condition:
        print(f"FAIL: {what}", flush=True)
        sys.exit(1)
    print(f"ok: {what}", flush=True)


def wrapper(directory, name, *args):
    """An executable script running `jiang engine` (clients start a file without arguments)."""
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\nexec " + " ".join([os.path.abspath(JIANG), *args]) + "\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


# ---------------------------------------------------------------------------------------------
# cshogi

TSUME = [
    # (SFEN, plies): problems from the literature, the attacker's king on an empty corner.
    ("9/4k4/9/4P4/9/9/9/9/K8 b 2G2r2b4s4n4l17p 1", 3),
    ("6knl/6s2/5Pppp/9/9/9/9/9/K8 b G2S2r2b3gs3n3l14p 1", 5),
    ("7nl/7k1/6ppp/9/9/9/9/9/K4R3 b Sr2b4g3s3n3l15p 1", 7),
    ("+R4G1nl/6k2/4ppppp/9/9/9/9/9/K8 b r2b3g4s3n3l13p 1", 7),
]


def mate_length(sfen, most=9):
    """cshogi's own answer: the fewest plies of a forced mate (None beyond `most`)."""
    board = cshogi.Board(sfen)
    if board.mate_move_in_1ply():
        return 1
    for plies in range(3, most + 1, 2):
        if board.mate_move(plies):
            return plies
    return None


def cshogi_engine(engine_path):
    engine = UsiEngine(engine_path)
    check(engine.name.startswith("Jiang"), f"cshogi usi.Engine connects ({engine.name})")
    engine.isready()
    engine.usinewgame()
    board = cshogi.Board()
    for go in [dict(byoyomi=200), dict(btime=0, wtime=0, byoyomi=100),
               dict(btime=2000, wtime=2000, binc=100, winc=100), dict(nodes=5000)]:
        engine.position(sfen="sfen " + board.sfen())
        started = time.monotonic()
        bestmove, _ = engine.go(**go)
        took = time.monotonic() - started
        check(board.is_legal(board.move_from_usi(bestmove)) and took < 3,
              f"cshogi go {go}: {bestmove} in {took:.2f} s")
        board.push_usi(bestmove)
    for sfen, plies in TSUME:
        check(mate_length(sfen) == plies, f"cshogi agrees {sfen} is a mate in {plies}")
        engine.position(sfen="sfen " + sfen)
        answer = engine.go_mate(byoyomi=20000).split()
        replay = cshogi.Board(sfen)
        ok = len(answer) == plies
        for i, text in enumerate(answer):
            move = replay.move_from_usi(text) if ok else 0
            ok = ok and replay.is_legal(move)
            if not ok:
                break
            replay.push(move)
            ok = i % 2 == 1 or replay.is_check()
        ok = ok and replay.is_check() and replay.is_game_over()
        check(ok, f"cshogi go_mate {sfen}: {' '.join(answer)}")
    engine.position(sfen="sfen 9/4k4/9/4P4/9/9/9/9/K8 b G2r2b4s4n4l17p 1")
    check(engine.go_mate(byoyomi=20000) == "nomate", "cshogi go_mate: nomate")
    engine.position(sfen="sfen 4k4/9/9/9/9/9/9/9/K8 b RB 1")
    check(engine.go_mate(byoyomi=300) == "timeout", "cshogi go_mate: timeout")

    # Pondering as cshogi's match runner does it: `go ponder` on a thread, then `ponderhit`
    # (the search goes on, on the clock given) or `stop`.
    board = cshogi.Board()
    board.push_usi("7g7f")
    board.push_usi("3c3d")
    for hit in [True, False]:
        engine.position(sfen="sfen " + board.sfen())
        result = {}
        thread = threading.Thread(
            target=lambda: result.update(move=engine.go(ponder=True, byoyomi=300)[0]))
        thread.start()
        time.sleep(0.4)
        check(thread.is_alive(), "cshogi go ponder: no best move before the hit")
        started = time.monotonic()
        engine.ponderhit() if hit else engine.stop()
        thread.join(5)
        took = time.monotonic() - started
        move = result.get("move")
        check(move is not None and board.is_legal(board.move_from_usi(move))
              and (took >= 0.1 if hit else took < 1),
              f"cshogi {'ponderhit' if hit else 'stop'}: {move} {took:.2f} s later")
    engine.quit()


def cshogi_matches(engine_path):
    for what, clock in [("byo-yomi only", dict(byoyomi=100)),
                        ("main time, increment and pondering",
                         dict(time=3000, inc=100, ponder=True))]:
        started = time.monotonic()
        result = cshogi.cli.main(engine_path, engine_path, names=["Jiang A", "Jiang B"],
                                 games=2, draw=40, print_summary=False, **clock)
        took = time.monotonic() - started
        total = result["total"]
        check(total == 2, f"cshogi.cli match, {what}: {result} in {took:.0f} s")


# ---------------------------------------------------------------------------------------------
# cchess


def cchess_engine(engine_path):
    engine = UciEngine()
    check(engine.load(engine_path) and engine.wait_for_ready(),
          f"cchess UciEngine loads ({engine.ids.get('name')})")
    board = ChessBoard("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
    for ply in range(6):
        fen = board.to_fen()
        engine.go_from(fen, {"movetime": 100})
        deadline = time.monotonic() + 30
        move = None
        while move is None and time.monotonic() < deadline:
            action = engine.get_action()
            if action is None:
                time.sleep(0.05)
            elif action["action"] == "bestmove":
                move = action["move"]
            elif action["action"] == "dead":
                break
        legal = move is not None and board.is_valid_iccs_move(move)
        check(legal, f"cchess go movetime 100 from {fen}: {move}")
        board.move_iccs(move)
        board.next_turn()
    engine.quit()


# ---------------------------------------------------------------------------------------------
# JieqiBox


class Dialogue:
    """A `jiang engine` spoken to line by line, as JieqiBox's useUciEngine.ts does."""

    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.strip())

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix, patience=30):
        seen = []
        deadline = time.monotonic() + patience
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                check(False, f"`{prefix}` within {patience} s (got {seen[-3:]})")
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def nothing_for(self, seconds, prefix):
        """Whether no line starting with `prefix` comes within `seconds`."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=deadline - time.monotonic())
            except queue.Empty:
                return True
            if line.startswith(prefix):
                return False
        return True


def last_pv_move(lines):
    for line in reversed(lines):
        if line.startswith("info ") and " pv " in line and (
                " multipv " not in line or " multipv 1 " in line):
            return line.split(" pv ")[1].split()[0]
    return None


def legal_jieqi(fen, move):
    out = subprocess.run([JIANG, "moves", "jieqi", "--fen", fen], capture_output=True,
                         text=True, check=True).stdout.split()
    return move in out


START = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX"
# (JieqiBox's engine FEN, the same position in Jiang's form)
POSITIONS = [
    (f"{START} w R2N2B2A2C2P5r2n2b2a2c2p5 - 0 1",
     f"{START} w A2B2N2R2C2P5a2b2n2r2c2p5 0 1"),
    (f"{START} R2r2N2n2B2b2A2a2C2c2P5p5 w - - 0 1",
     f"{START} w A2B2N2R2C2P5a2b2n2r2c2p5 0 1"),
    ("1xxxkxxxx/9/1x5x1/x1x1x1x1R/9/9/r1X1X1X1X/1X5X1/9/XXXXKXXX1 w "
     "R1r1N2n2B2b2A2a2C2c2P5p4 p1 0 1",
     "1xxxkxxxx/9/1x5x1/x1x1x1x1R/9/9/r1X1X1X1X/1X5X1/9/XXXXKXXX1 w "
     "A2B2N2R1C2P5a2b2n2r1c2p5 0 1"),
    ("3k5/9/9/9/9/9/9/9/4R4/4K4 w - r1 0 1", "3k5/9/9/9/9/9/9/9/4R4/4K4 w r1 0 1"),
]


def jieqibox(engine_path):
    e = Dialogue([engine_path])
    e.send("uci")
    hello = e.until("uciok")
    check(any(l.startswith("option name UCI_Variant ") and "jieqi" in l for l in hello),
          "JieqiBox: uci lists jieqi")
    e.send("setoption name UCI_Variant value jieqi")
    e.send("isready")
    e.until("readyok")
    gos = ["movetime 300", "depth 3", "nodes 20000", "wtime 1500 btime 1500 movestogo 1"]
    for (box, jiang), go in zip(POSITIONS, gos):
        e.send(f"position fen {box}")
        e.send(f"go {go}")
        lines = e.until("bestmove")
        move = lines[-1].split()[1]
        check(legal_jieqi(jiang, move) and last_pv_move(lines) == move,
              f"JieqiBox position fen {box} / go {go}: {move}")
    # searchmoves, as JieqiBox's variation analysis sends it.
    box, jiang = POSITIONS[0]
    e.send(f"position fen {box}")
    e.send("go movetime 300 searchmoves a3a4 i3i4")
    move = e.until("bestmove")[-1].split()[1]
    check(move in ("a3a4", "i3i4"), f"JieqiBox go movetime 300 searchmoves a3a4 i3i4: {move}")
    # Its moves after the FEN: a reveal suffix, then a capture naming the covered piece taken.
    e.send(f"position fen {box} moves h2e2C a6a5p e2e6p")
    e.send("go depth 2")
    move = e.until("bestmove")[-1].split()[1]
    after = ("xxxxkxxxx/9/1x5x1/2x1C1x1x/p8/9/X1X1X1X1X/1X7/9/XXXXKXXXX b "
             "A2B2N2R2C1P5a2b2n2r2c2p3 0 2")
    check(legal_jieqi(after, move),
          f"JieqiBox moves with reveal and capture suffixes: black answers {move}")
    # Pondering: `go ponder movetime` then `ponderhit`; `go ponder infinite` then `stop`;
    # analysis with `go infinite` then `stop`.
    e.send(f"position fen {box} moves h2e2C")
    e.send("go ponder movetime 300")
    check(e.nothing_for(0.5, "bestmove"), "JieqiBox go ponder movetime 300: waits")
    started = time.monotonic()
    e.send("ponderhit")
    e.until("bestmove")
    took = time.monotonic() - started
    check(0.1 <= took < 3, f"JieqiBox ponderhit: best move {took:.2f} s after the hit")
    for go in ["ponder infinite", "infinite"]:
        e.send(f"go {go}")
        check(e.nothing_for(0.3, "bestmove"), f"JieqiBox go {go}: waits for stop")
        started = time.monotonic()
        e.send("stop")
        e.until("bestmove")
        check(time.monotonic() - started < 1, f"JieqiBox go {go}: stop answers at once")
    e.send("quit")
    e.proc.wait(10)
    check(e.proc.returncode == 0, "JieqiBox quit")


def main():
    global JIANG
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jiang", required=True, help="the jiang binary")
    args = parser.parse_args()
    JIANG = os.path.abspath(args.jiang)
    with tempfile.TemporaryDirectory() as directory:
        engine = wrapper(directory, "jiang-engine", "engine")
        cshogi_engine(engine)
        cshogi_matches(engine)
        cchess_engine(engine)
        jieqibox(engine)
    print("engine interop: all checks passed")


if __name__ == "__main__":
    main()
