#!/usr/bin/env python3
"""Interop test: games of every variant, handicap and ending are played through a real
`jiang serve` (random port, temporary SQLite), exported in every record format, and read by
the readers other people wrote: python-shogi, cshogi, cchess and pyffish. Each reader's
moves, result, winner, handicap (start position) and times are compared with what the server
says. Prints one line per check and a summary of games x formats x readers tried and failed;
exits 1 on any failure.

Usage: interop.py --jiang target/debug/jiang
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import cchess
import cshogi
import cshogi.KI2
import cshogi.KIF
import pyffish
import shogi
import shogi.CSA
import shogi.KIF

# ---------------------------------------------------------------------------------------------
# The server


class Server:
    def __init__(self, binary):
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        sock.close()
        self.dir = tempfile.TemporaryDirectory()
        self.base = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, RUST_LOG="warn")
        self.proc = subprocess.Popen(
            [binary, "serve", "--listen", f"127.0.0.1:{self.port}",
             "--database", f"sqlite://{self.dir.name}/jiang.db", "--rate-limit", "0"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.base + "/healthz", timeout=1).read()
                return
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        raise RuntimeError("jiang serve did not start")

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.dir.cleanup()

    def request(self, method, path, body=None, token=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("content-type", "application/json")
        if token:
            req.add_header("authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                raw = r.read()
                return r.status, raw
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def json(self, method, path, body=None, token=None, ok=(200, 201)):
        status, raw = self.request(method, path, body, token)
        value = json.loads(raw)
        if status not in ok:
            raise RuntimeError(f"{method} {path} {body}: {status} {value}")
        return value

    def text(self, path):
        status, raw = self.request("GET", path)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status} {raw[:200]}")
        return raw.decode("utf-8")


# ---------------------------------------------------------------------------------------------
# Games: (name, variant, create options, script). A script is a list of steps:
#   "7g7f"            a move by the side to move
#   ("resign", side)  side ("first"/"second") resigns
#   ("abort", side) / ("impasse",) / ("draw",) / ("wait", seconds) / ("legal", n) (Jieqi: n legal moves)

SHOGI_IMPASSE = "K8/+R+B+P+P+P+P+P+P+P/+P8/9/9/9/9/9/4k4 b 2G2S2N2L2P2g2s2n2l8p 1"


def cycle(moves, times):
    return list(moves) * times


GAMES = [
    ("shogi resignation, 不成, 同, two golds", "shogi", {},
     ["7g7f", "3c3d", "6i5h", "4a3b", ("wait", 1.1), "8h3c", "2b3c", ("resign", "first")]),
    ("shogi resignation by the side not to move", "shogi", {},
     ["7g7f", ("resign", "first")]),
    ("xiangqi resignation by the side not to move", "xiangqi", {},
     ["h2e2", ("resign", "first")]),
    ("shogi checkmate", "shogi", {"fen": "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"}, ["G*5b"]),
    ("shogi timeout", "shogi", {"clock": {"main": 1}}, ["7g7f", "3c3d", ("wait", 1.6)]),
    ("shogi sennichite", "shogi", {}, cycle(["2h3h", "8b7b", "3h2h", "7b8b"], 3)),
    ("shogi perpetual check by the checker's move", "shogi",
     {"fen": "9/6k2/9/9/9/9/9/6R2/K8 w - 1"}, cycle(["3b4b", "3h4h", "4b3b", "4h3h"], 3)),
    ("shogi perpetual check completed by the victim", "shogi",
     {"fen": "9/5k3/9/9/9/9/9/6R2/K8 b - 1"}, cycle(["3h4h", "4b3b", "4h3h", "3b4b"], 3)),
    ("shogi impasse", "shogi", {"fen": SHOGI_IMPASSE}, [("impasse",)]),
    ("shogi aborted", "shogi", {}, [("abort", "first")]),
    ("minishogi resignation", "minishogi", {}, ["1e1d", "5a5b", ("resign", "second")]),
    ("minishogi sennichite (sente loses)", "minishogi", {},
     cycle(["5e4d", "1a2b", "4d5e", "2b1a"], 3)),
    ("xiangqi resignation", "xiangqi", {}, ["h2e2", "h9g7", "h0g2", ("resign", "second")]),
    ("xiangqi checkmate", "xiangqi", {"fen": "4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1"}, ["b7b9"]),
    ("xiangqi advisors on one file", "xiangqi", {},
     ["h2e2", "h9g7", "f0e1", "i9h9", "e1d2", "b9c7", "d2e1", "a9b9", ("resign", "second")]),
    ("xiangqi draw agreement", "xiangqi", {}, ["h2e2", "h9g7", ("draw",)]),
    ("xiangqi timeout", "xiangqi", {"clock": {"main": 1}}, ["h2e2", "h9g7", ("wait", 1.6)]),
    ("jieqi resignation", "jieqi", {}, [("legal", 4), ("resign", "first")]),
    # Tandem pieces (like pieces on one file), for the WXF check with pyffish: R--1, C++1,
    # R+.8, C-.8; H++5, P-.6; three soldiers P7.8 (the middle keeps its file), then P+.8.
    ("xiangqi tandem chariots and cannons", "xiangqi",
     {"fen": "3k5/9/6c2/9/6c2/R8/9/R8/9/4K4 w - - 0 1"},
     ["a2a1", "g5g4", "a4b4", "g7h7", ("resign", "first")]),
    ("xiangqi tandem horses and soldiers", "xiangqi",
     {"fen": "3k5/2P6/2P6/9/9/9/2N6/9/2N6/4K4 w - - 0 1"},
     ["c3e4", "d9e9", "c7d7", "e9d9", ("resign", "first")]),
    ("xiangqi three soldiers on a file", "xiangqi",
     {"fen": "3k5/2P6/2P6/2P6/9/9/9/9/9/5K3 w - - 0 1"},
     ["c7b7", "d9e9", "c8b8", ("resign", "second")]),
]
for name, sfen in [
    ("lance", "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("bishop", "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("rook", "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("rook-lance", "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("2-piece", "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("4-piece", "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("6-piece", "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("8-piece", "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("10-piece", "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
]:
    GAMES.append((f"shogi handicap {name}", "shogi", {"handicap": name},
                  ["5a4b", "7g7f", ("resign", "second")]))

SIDES = {"shogi": ("sente", "gote"), "minishogi": ("sente", "gote"),
         "xiangqi": ("red", "black"), "jieqi": ("red", "black")}


def play(server, name, variant, options, script):
    first, second = SIDES[variant]
    created = server.json("POST", "/api/games", dict(options, variant=variant, side=first))
    gid = created["id"]
    tokens = {first: created["token"]}
    joined = server.json("POST", f"/api/games/{gid}/join", {})
    tokens[joined["side"]] = joined["token"]
    side_of = {"first": first, "second": second}
    for step in script:
        view = server.json("GET", f"/api/games/{gid}")
        to_move = view["to_move"]
        if isinstance(step, str):
            server.json("POST", f"/api/games/{gid}/move", {"move": step}, tokens[to_move])
        elif step[0] == "resign":
            server.json("POST", f"/api/games/{gid}/resign", {}, tokens[side_of[step[1]]])
        elif step[0] == "abort":
            server.json("POST", f"/api/games/{gid}/abort", {}, tokens[side_of[step[1]]])
        elif step[0] == "impasse":
            server.json("POST", f"/api/games/{gid}/impasse", {}, tokens[to_move])
        elif step[0] == "draw":
            server.json("POST", f"/api/games/{gid}/draw", {"action": "offer"}, tokens[to_move])
            other = second if to_move == first else first
            server.json("POST", f"/api/games/{gid}/draw", {"action": "accept"}, tokens[other])
        elif step[0] == "wait":
            time.sleep(step[1])
        elif step[0] == "legal":
            for _ in range(step[1]):
                mover = server.json("GET", f"/api/games/{gid}")["to_move"]
                view = server.json("GET", f"/api/games/{gid}", token=tokens[mover])
                move = sorted(view["legal_moves"])[0]
                server.json("POST", f"/api/games/{gid}/move", {"move": move}, tokens[mover])
    view = server.json("GET", f"/api/games/{gid}")
    if view["status"] not in ("ended", "aborted"):
        raise RuntimeError(f"{name}: the game did not end: {view['status']}")
    return gid, view


# ---------------------------------------------------------------------------------------------
# Conversions between Jiang's machine notation and the readers'


def usi_to_fsf(move, size=9):
    """USI (7g7f, P*5e, 8h2b+) to Fairy-Stockfish's shogi coordinates (c3c4, P@e5) on a
    size×size board (9, or 5 for minishogi)."""
    def square(s):
        return chr(ord("a") + size - int(s[0])) + str(size - (ord(s[1]) - ord("a")))
    if move[1] == "*":
        return move[0] + "@" + square(move[2:4])
    return square(move[0:2]) + square(move[2:4]) + ("+" if move.endswith("+") else "")


def sfen_to_fsf(sfen, files):
    board, turn, hand, *_ = sfen.split()
    hand = "" if hand == "-" else hand
    expanded = ""
    count = ""
    for c in hand:
        if c.isdigit():
            count += c
        else:
            expanded += c * int(count or "1")
            count = ""
    return f"{board}[{expanded}] {'w' if turn == 'b' else 'b'} 0 1"


def iccs_to_fsf(move):
    return move[0] + str(int(move[1]) + 1) + move[2] + str(int(move[3]) + 1)


def pgn_moves(pgn):
    """The movetext tokens (ICCS or WXF) of a PGN (tags, numbers and the result left out)."""
    out = []
    body = pgn.split("\n\n", 1)[1]
    for token in body.split():
        if token.endswith(".") or token in ("1-0", "0-1", "1/2-1/2", "*"):
            continue
        out.append(token)
    return out


# ---------------------------------------------------------------------------------------------
# Checks


class Tally:
    def __init__(self):
        self.tried = 0
        self.failed = 0
        self.unsupported = []
        self.reader_bugs = []
        self.failures = []
        self.games = set()
        self.timed_games = 0
        self.wxf_tandems = 0

    def check(self, game, fmt, reader, problems):
        self.tried += 1
        self.games.add(game)
        if problems:
            self.failed += 1
            self.failures.append((game, fmt, reader, problems))
            print(f"FAIL {game} | {fmt} | {reader}: {'; '.join(problems)}")
        else:
            print(f"ok   {game} | {fmt} | {reader}")

    def skip(self, game, fmt, reader, why):
        self.unsupported.append((game, fmt, reader, why))

    def reader_bug(self, game, fmt, reader, why):
        """A check left out because the reader is wrong there (explained in `why`)."""
        self.reader_bugs.append((game, fmt, reader, why))


def expected_winner(view):
    result = view.get("result")
    if not result or not result.get("winner"):
        return None
    return "b" if result["winner"] in ("sente", "red") else "w"


def normal_sfen(fields):
    """SFEN fields with the hand as a sorted multiset (readers order hands differently)."""
    fields = list(fields)
    if len(fields) >= 3 and fields[2] != "-":
        counts, n = {}, ""
        for c in fields[2]:
            if c.isdigit():
                n += c
            else:
                counts[c] = counts.get(c, 0) + int(n or "1")
                n = ""
        fields[2] = sorted(counts.items())
    return fields


def compare(problems, what, got, want):
    if what == "start":
        got, want = normal_sfen(got), normal_sfen(want)
    if got != want:
        problems.append(f"{what}: got {got!r}, expected {want!r}")


def check_shogi(tally, server, gid, name, view):
    moves = view["moves"]
    start = view["initial_fen"]
    winner = expected_winner(view)
    draw = view.get("result") and view["result"]["winner"] is None
    reason = (view.get("result") or {}).get("reason")
    kif = server.text(f"/api/games/{gid}/record?format=kif")
    ki2 = server.text(f"/api/games/{gid}/record?format=ki2")
    csa = server.text(f"/api/games/{gid}/record?format=csa")
    standard = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    custom = view.get("handicap") is None and start != standard
    # Jiang's own reading of its KIF gives the per-move seconds the readers must agree with.
    seconds = server.json("POST", "/api/import", {"text": kif})["move_seconds"] or [0] * len(moves)
    if any(seconds):
        tally.timed_games += 1
    mini = view["variant"] == "minishogi"
    if mini:
        for fmt in ("kif", "ki2", "csa"):
            for reader in ("python-shogi", "cshogi"):
                tally.skip(name, fmt, reader, "no minishogi support")
    else:
        # python-shogi KIF
        p = []
        try:
            summary = shogi.KIF.Parser.parse_str(kif)[0]
            compare(p, "moves", summary["moves"], moves)
            fields = summary["sfen"].split()
            if custom and len(moves) % 2 == 1:
                compare(p, "start", [fields[0], fields[2]], [start.split()[0], start.split()[2]])
                tally.reader_bug(name, "kif", "python-shogi",
                                 "a diagram's side to move is taken after the moves are "
                                 "counted (it flips with every move read)")
            else:
                compare(p, "start", fields[:3], start.split()[:3])
            # 中断 has no value of its own in python-shogi: it reads as '-'.
            want = winner or ("-" if draw else None)
            compare(p, "winner", summary["win"], want)
        except Exception as e:  # noqa: BLE001 - a reader crash is a failure to report
            p.append(f"raised {type(e).__name__}: {e}")
        tally.check(name, "kif", "python-shogi", p)
        # cshogi KIF and KI2 (no board diagrams: custom starts are unsupported; only KIF has
        # move times)
        for fmt, text, parser in (("kif", kif, cshogi.KIF.Parser), ("ki2", ki2, cshogi.KI2.Parser)):
            if custom:
                tally.skip(name, fmt, "cshogi", f"cshogi's {fmt.upper()} reader ignores board diagrams")
                continue
            p = []
            try:
                k = parser.parse_str(text)
                compare(p, "moves", [cshogi.move_to_usi(m) for m in k.moves], moves)
                compare(p, "start", k.sfen.split()[:3], start.split()[:3])
                cs_winner = {cshogi.BLACK_WIN: "b", cshogi.WHITE_WIN: "w",
                             cshogi.DRAW: "-"}.get(k.win)
                compare(p, "winner", cs_winner, winner or ("-" if draw and reason != "aborted" else None))
                if fmt == "kif":
                    compare(p, "times", k.times[:len(moves)], seconds)
            except Exception as e:  # noqa: BLE001
                p.append(f"raised {type(e).__name__}: {e}")
            tally.check(name, fmt, "cshogi", p)
        tally.skip(name, "ki2", "python-shogi", "python-shogi has no KI2 reader")
        # python-shogi CSA: winner only for %TORYO, %TIME_UP, %ILLEGAL_MOVE, %±ILLEGAL_ACTION
        p = []
        try:
            summary = shogi.CSA.Parser.parse_str(csa)[0]
            compare(p, "moves", summary["moves"], moves)
            if start.split()[2] != "-":
                compare(p, "start", summary["sfen"].split()[:2], start.split()[:2])
                tally.reader_bug(name, "csa", "python-shogi",
                                 "hands of a P+/P- start are written without piece letters "
                                 "into its SFEN ('2G2S…' becomes '2222…')")
            else:
                compare(p, "start", summary["sfen"].split()[:3], start.split()[:3])
            if reason in ("resignation", "timeout", "perpetual-check"):
                compare(p, "winner", summary["win"], winner)
        except Exception as e:  # noqa: BLE001
            p.append(f"raised {type(e).__name__}: {e}")
        tally.check(name, "csa", "python-shogi", p)
        # cshogi CSA
        p = []
        try:
            c = cshogi.Parser.parse_str(csa)[0]
            compare(p, "moves", [cshogi.move_to_usi(m) for m in c.moves], moves)
            compare(p, "start", c.sfen.split()[:3], start.split()[:3])
            cs_winner = {cshogi.BLACK_WIN: "b", cshogi.WHITE_WIN: "w", cshogi.DRAW: "-"}.get(c.win)
            if reason != "aborted" and not (reason == "repetition" and winner):
                compare(p, "winner", cs_winner, winner or "-")
            compare(p, "times", c.times[:len(moves)], seconds)
        except Exception as e:  # noqa: BLE001
            p.append(f"raised {type(e).__name__}: {e}")
        tally.check(name, "csa", "cshogi", p)
    # pyffish: the start and every move legal; a mate is a mate.
    p = []
    try:
        variant = "minishogi" if mini else "shogi"
        size = 5 if mini else 9
        # The moves as the KIF says them, read back by Jiang's reader via /api/import.
        imported = server.json("POST", "/api/import", {"text": kif})
        compare(p, "jiang import moves", imported["moves"], moves)
        fen = sfen_to_fsf(start, size)
        played = []
        for m in imported["moves"]:
            fm = usi_to_fsf(m, size)
            if fm not in pyffish.legal_moves(variant, fen, played):
                p.append(f"move {len(played) + 1} {m} ({fm}) is not legal for pyffish")
                break
            played.append(fm)
        if reason == "checkmate":
            compare(p, "no legal moves", pyffish.legal_moves(variant, fen, played), [])
    except Exception as e:  # noqa: BLE001
        p.append(f"raised {type(e).__name__}: {e}")
    tally.check(name, "kif", "pyffish", p)


def check_xiangqi(tally, server, gid, name, view):
    moves = view["moves"]
    start = view["initial_fen"]
    result = {"b": "1-0", "w": "0-1"}.get(expected_winner(view)) or (
        "1/2-1/2" if view.get("result") and view["result"]["reason"] != "aborted" else "*")
    jieqi = view["variant"] == "jieqi"
    for fmt, query in (("pgn", "format=pgn"), ("pgn chinese", "format=pgn&moves=chinese"),
                       ("pgn wxf", "format=pgn&moves=wxf")):
        pgn = server.text(f"/api/games/{gid}/record?{query}")
        if jieqi:
            tally.skip(name, fmt, "cchess", "cchess has no Jieqi")
        elif fmt == "pgn wxf":
            tally.skip(name, fmt, "cchess", "cchess reads ICCS and Chinese movetext only")
        else:
            p = []
            try:
                with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False,
                                                 encoding="utf-8") as f:
                    f.write(pgn)
                game = cchess.read_from_pgn(f.name)
                os.unlink(f.name)
                got = [m for line in game.dump_iccs_moves() for m in line][:len(moves)] \
                    if game.dump_iccs_moves() else []
                if got != moves and name == "xiangqi advisors on one file" and fmt != "pgn":
                    tally.reader_bug(name, fmt, "cchess",
                                     "Move.from_text moves the first advisor found on the "
                                     "named file without checking the move is possible")
                else:
                    compare(p, "moves", got, moves)
                compare(p, "result", game.info.get("result"), result)
                compare(p, "format", game.info.get("format"), "ICCS" if fmt == "pgn" else "Chinese")
            except Exception as e:  # noqa: BLE001
                p.append(f"raised {type(e).__name__}: {e}")
            tally.check(name, fmt, "cchess", p)
        # Jiang's own reader, through the server.
        p = []
        try:
            imported = server.json("POST", "/api/import", {"text": pgn})
            compare(p, "moves", imported["moves"], moves)
            compare(p, "winner", imported["winner"], (view.get("result") or {}).get("winner"))
        except Exception as e:  # noqa: BLE001
            p.append(f"raised {type(e).__name__}: {e}")
        tally.check(name, fmt, "jiang", p)
    # pyffish: FEN and ICCS movetext legal, mate is mate.
    if jieqi:
        tally.skip(name, "pgn", "pyffish", "Fairy-Stockfish has no Jieqi")
        return
    p = []
    try:
        pgn = server.text(f"/api/games/{gid}/record?format=pgn")
        tokens = pgn_moves(pgn)
        compare(p, "movetext", tokens, moves)
        fen = start
        played = []
        for m in tokens:
            fm = iccs_to_fsf(m)
            if fm not in pyffish.legal_moves("xiangqi", fen, played):
                p.append(f"move {len(played) + 1} {m} ({fm}) is not legal for pyffish")
                break
            played.append(fm)
        if view["result"]["reason"] == "checkmate":
            compare(p, "no legal moves", pyffish.legal_moves("xiangqi", fen, played), [])
    except Exception as e:  # noqa: BLE001
        p.append(f"raised {type(e).__name__}: {e}")
    tally.check(name, "pgn", "pyffish", p)
    check_xiangqi_wxf(tally, server, gid, name, view)


def wxf_tandem(token):
    """Whether a WXF move names a piece among like pieces on its file: a marker after the
    letter (`R+.3`, `C--1`), `++`/`--`, or a file digit in place of the letter (`7+.8`)."""
    return token[1] in "+-" or token[0].isdigit()


def check_xiangqi_wxf(tally, server, gid, name, view):
    """pyffish reads Jiang's WXF movetext: each move's text is pyffish's WXF spelling
    (`=` read as `.`) of that move and of no other legal move. Where pyffish's spelling
    follows another convention (its numbered tandem soldiers, `27=8` for the second of a
    file's soldiers, where the official form is `P7.8`; a marker left out when only one of
    two like pieces can make a move of that shape, `H7-8` for `H+-8`), Jiang's text must
    still name no other move for pyffish: never a misreading."""
    moves = view["moves"]
    p = []
    try:
        tokens = pgn_moves(server.text(f"/api/games/{gid}/record?format=pgn&moves=wxf"))
        compare(p, "number of moves", len(tokens), len(moves))
        start = view["initial_fen"]
        played = []
        for token, m in zip(tokens, moves):
            fm = iccs_to_fsf(m)
            fen = pyffish.get_fen("xiangqi", start, played)
            spelled = {c: pyffish.get_san("xiangqi", fen, c, False,
                                          pyffish.NOTATION_XIANGQI_WXF).replace("=", ".")
                       for c in pyffish.legal_moves("xiangqi", fen, [])}
            named = [c for c, text in spelled.items() if text == token]
            if named == [fm]:
                if wxf_tandem(token):
                    tally.wxf_tandems += 1
            elif named:
                p.append(f"move {len(played) + 1} {token} ({m}) reads as {named} for pyffish")
                break
            elif fm in spelled and (spelled[fm][:2].isdigit() or (
                    wxf_tandem(token) and not wxf_tandem(spelled[fm]))):
                tally.reader_bug(name, "pgn wxf", "pyffish",
                                 f"{token} is {spelled[fm]} in pyffish's convention "
                                 f"(numbered tandem soldiers, or the marker left out)")
            else:
                p.append(f"move {len(played) + 1} {token} ({m}) is not read by pyffish "
                         f"(which writes {spelled.get(fm)})")
                break
            played.append(fm)
    except Exception as e:  # noqa: BLE001
        p.append(f"raised {type(e).__name__}: {e}")
    tally.check(name, "pgn wxf", "pyffish", p)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--jiang", required=True)
    args = parser.parse_args()
    server = Server(args.jiang)
    tally = Tally()
    started = time.time()
    try:
        for name, variant, options, script in GAMES:
            try:
                gid, view = play(server, name, variant, options, script)
            except Exception as e:  # noqa: BLE001
                tally.check(name, "-", "playing the game", [f"{type(e).__name__}: {e}"])
                continue
            if variant in ("shogi", "minishogi"):
                check_shogi(tally, server, gid, name, view)
            else:
                check_xiangqi(tally, server, gid, name, view)
    finally:
        server.stop()
    for game, fmt, reader, why in tally.reader_bugs:
        print(f"reader bug, check narrowed: {game} | {fmt} | {reader}: {why}")
    print(f"\n{len(tally.games)} games; {tally.tried} (game, format, reader) checks tried, "
          f"{tally.failed} failed; {len(tally.unsupported)} skipped where the reader does not "
          f"support the format or variant; {time.time() - started:.1f} s")
    reasons = {}
    for _, fmt, reader, why in tally.unsupported:
        reasons.setdefault((reader, fmt, why), 0)
        reasons[(reader, fmt, why)] += 1
    for (reader, fmt, why), n in sorted(reasons.items()):
        print(f"  skipped {n:3} × {reader} {fmt}: {why}")
    print(f"  {tally.wxf_tandems} WXF tandem move(s) read by pyffish as Jiang wrote them")
    if tally.wxf_tandems < 5:
        print("FAIL fewer than 5 WXF tandem moves were read by pyffish: tandems were not checked")
        return 1
    if tally.timed_games == 0:
        print("FAIL no game has a move time of a second or more: times were not checked")
        return 1
    print(f"  {tally.timed_games} game(s) with non-zero move times checked against the readers")
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main())
