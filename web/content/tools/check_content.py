#!/usr/bin/env python3
"""Checker for the rules-page fragments and home.json (not shipped logic).

Run from anywhere:  python3 web/content/tools/check_content.py
Exit status 0 when everything holds, 1 otherwise (each problem printed with file and place).

What it checks:
- every web/content/rules/<variant>.<lang>.html exists and is a well-formed fragment
  (balanced tags, no <html>/<head>/<body>, one <article>, one <h1>, a link to "/");
- every <figure class="diagram"> has a data-variant that fits the page, a data-fen that parses
  with the right dimensions (xiangqi 10 ranks x 9 files, shogi 9x9, minishogi 5x5), plausible
  piece placement (one general/king each, palaces, elephant and advisor points, soldier ranks,
  no facing generals, the side not to move not in check for xiangqi; shogi piece totals, nifu,
  dead pieces), highlight squares and arrows that name real squares, and a <figcaption>;
- the seven languages of a variant carry the same diagrams in the same order and the same
  structure (headings, tables, rows);
- home.json has a name and a description for every variant in every language.
"""

from __future__ import annotations

import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # web/content
VARIANTS = ["xiangqi", "jieqi", "shogi", "minishogi"]
LANGS = ["en", "zh-Hans", "zh-Hant", "ja", "vi", "es", "hu"]
VOID = {"br", "hr", "img", "input", "meta", "link", "wbr", "col", "source", "area", "base"}
# Diagram variants allowed on each page (a Jieqi page may show a plain xiangqi position).
ALLOWED_DIAGRAMS = {
    "xiangqi": {"xiangqi"},
    "jieqi": {"jieqi", "xiangqi"},
    "shogi": {"shogi"},
    "minishogi": {"minishogi", "shogi"},
}

problems: list[str] = []
HIGHLIGHTS: dict[tuple[str, str], list[set[str]]] = {}


def problem(where: str, what: str) -> None:
    problems.append(f"{where}: {what}")


# ---------------------------------------------------------------- xiangqi family

XQ_FILES = "abcdefghi"
JIEQI_RED_START = "a0 b0 c0 d0 f0 g0 h0 i0 b2 h2 a3 c3 e3 g3 i3".split()
JIEQI_BLACK_START = "a9 b9 c9 d9 f9 g9 h9 i9 b7 h7 a6 c6 e6 g6 i6".split()
XQ_MAX = {"k": 1, "a": 2, "b": 2, "n": 2, "r": 2, "c": 2, "p": 5}


def parse_xiangqi(fen: str, jieqi: bool) -> tuple[dict[str, str], str]:
    """Returns ({ICCS square: letter}, side) or raises ValueError."""
    fields = fen.split()
    if len(fields) not in (2, 5, 6):
        raise ValueError(f"expected 2, 5 or 6 fields, got {len(fields)}")
    ranks = fields[0].split("/")
    if len(ranks) != 10:
        raise ValueError(f"expected 10 ranks, got {len(ranks)}")
    board: dict[str, str] = {}
    for i, text in enumerate(ranks):
        rank = 9 - i
        file = 0
        for ch in text:
            if ch.isdigit():
                file += int(ch)
            elif ch.lower() in "kabnrcpx" and (jieqi or ch.lower() != "x"):
                if file >= 9:
                    raise ValueError(f"rank {rank} has more than 9 files")
                board[f"{XQ_FILES[file]}{rank}"] = ch
                file += 1
            else:
                raise ValueError(f"rank {rank}: unexpected character {ch!r}")
        if file != 9:
            raise ValueError(f"rank {rank} has {file} files, expected 9")
    if fields[1] not in ("w", "b", "r"):
        raise ValueError(f"side must be w or b, got {fields[1]!r}")
    return board, ("b" if fields[1] == "b" else "w")


def xq_sq(file: int, rank: int) -> str | None:
    if 0 <= file < 9 and 0 <= rank < 10:
        return f"{XQ_FILES[file]}{rank}"
    return None


def xq_coords(sq: str) -> tuple[int, int]:
    return XQ_FILES.index(sq[0]), int(sq[1])


def xq_attacks(board: dict[str, str], sq: str) -> set[str]:
    """Squares attacked by the (revealed) piece on sq; covered pieces attack as their point's piece."""
    letter = board[sq]
    red = letter.isupper()
    kind = letter.lower()
    f, r = xq_coords(sq)
    if kind == "x":  # covered: the piece of its starting point
        start = {"a": "r", "b": "n", "c": "b", "d": "a", "f": "a", "g": "b", "h": "n", "i": "r"}
        back = 0 if red else 9
        if r == back:
            kind = start[sq[0]]
        elif r in (2, 7):
            kind = "c"
        else:
            kind = "p"
    out: set[str] = set()
    fwd = 1 if red else -1
    if kind == "r" or kind == "c":
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            screened = False
            nf, nr = f + df, r + dr
            while (s := xq_sq(nf, nr)) is not None:
                if kind == "r":
                    out.add(s)
                    if s in board:
                        break
                else:
                    if screened:
                        if s in board:
                            out.add(s)
                            break
                    elif s in board:
                        screened = True
                nf, nr = nf + df, nr + dr
    elif kind == "n":
        for (lf, lr), targets in {
            (0, 1): ((-1, 2), (1, 2)),
            (0, -1): ((-1, -2), (1, -2)),
            (1, 0): ((2, 1), (2, -1)),
            (-1, 0): ((-2, 1), (-2, -1)),
        }.items():
            if xq_sq(f + lf, r + lr) in board:
                continue
            for tf, tr in targets:
                if (s := xq_sq(f + tf, r + tr)) is not None:
                    out.add(s)
    elif kind == "b":
        for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            if xq_sq(f + df, r + dr) in board:
                continue
            if (s := xq_sq(f + 2 * df, r + 2 * dr)) is not None:
                out.add(s)
    elif kind == "a":
        for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            if (s := xq_sq(f + df, r + dr)) is not None:
                out.add(s)
    elif kind == "k":
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if (s := xq_sq(f + df, r + dr)) is not None:
                out.add(s)
    elif kind == "p":
        if (s := xq_sq(f, r + fwd)) is not None:
            out.add(s)
        crossed = r >= 5 if red else r <= 4
        if crossed:
            for df in (1, -1):
                if (s := xq_sq(f + df, r)) is not None:
                    out.add(s)
    return out


def check_xiangqi(where: str, fen: str, jieqi: bool) -> None:
    try:
        board, side = parse_xiangqi(fen, jieqi)
    except ValueError as e:
        problem(where, f"bad FEN {fen!r}: {e}")
        return
    counts: dict[str, int] = {}
    for sq, letter in board.items():
        counts[letter] = counts.get(letter, 0) + 1
        red = letter.isupper()
        kind = letter.lower()
        f, r = xq_coords(sq)
        own_rank = r if red else 9 - r  # 0 = own back rank
        if kind == "k" or (kind == "a" and not jieqi):
            if not (3 <= f <= 5 and own_rank <= 2):
                problem(where, f"{letter} on {sq} is outside its palace")
        if kind == "a" and not jieqi and (f + own_rank) % 2 == 0:
            problem(where, f"advisor {letter} on {sq} is not on an advisor point")
        if kind == "b" and not jieqi and (own_rank > 4 or (f, own_rank) not in {
            (2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)}):
            problem(where, f"elephant {letter} on {sq} is not on an elephant point")
        if kind == "b" and jieqi and (f + own_rank) % 2 != 0:
            problem(where, f"elephant {letter} on {sq} is on a point no elephant reaches")
        if kind == "p":
            if own_rank < 3:
                problem(where, f"soldier {letter} on {sq} is behind its starting rank")
            if own_rank in (3, 4) and f % 2 == 1 and not jieqi:
                problem(where, f"soldier {letter} on {sq} cannot have reached that point")
        if kind == "x":
            starts = JIEQI_RED_START if red else JIEQI_BLACK_START
            if sq not in starts:
                problem(where, f"covered piece {letter} on {sq} is not on a starting point")
    for letter, n in counts.items():
        limit = XQ_MAX.get(letter.lower(), 15)
        if n > limit:
            problem(where, f"{n} pieces {letter} (at most {limit})")
    for colour, covered, kinds in (("red", "X", "ABNRCP"), ("black", "x", "abnrcp")):
        total = counts.get(covered, 0) + sum(counts.get(k, 0) for k in kinds)
        if total > 15:
            problem(where, f"{colour} has {total} pieces besides the general")
    kings = {l: [s for s, x in board.items() if x == l] for l in "Kk"}
    if len(kings["K"]) != 1 or len(kings["k"]) != 1:
        problem(where, "each side needs exactly one general")
        return
    rk, bk = kings["K"][0], kings["k"][0]
    if rk[0] == bk[0]:
        between = [f"{rk[0]}{r}" for r in range(int(rk[1]) + 1, int(bk[1]))]
        if not any(s in board for s in between):
            problem(where, "the generals face each other on an open file")
    # The side that just moved must not have left its general attacked.
    waiting_king = bk if side == "w" else rk
    for sq, letter in board.items():
        if letter.isupper() == (side == "w") and waiting_king in xq_attacks(board, sq):
            problem(where, f"the side not to move is in check (from {letter} on {sq})")


def check_xq_square(where: str, sq: str) -> bool:
    if not re.fullmatch(r"[a-i][0-9]", sq):
        problem(where, f"{sq!r} is not an ICCS square")
        return False
    return True


# ---------------------------------------------------------------- shogi family

SHOGI_TOTAL = {"k": 2, "r": 2, "b": 2, "g": 4, "s": 4, "n": 4, "l": 4, "p": 18}
MINI_TOTAL = {"k": 2, "r": 2, "b": 2, "g": 2, "s": 2, "p": 2}
PROMOTABLE = set("rbsnlp")


def parse_sfen(fen: str, size: int) -> tuple[dict[str, str], str, dict[str, int]]:
    """Returns ({USI square: letter with optional +}, side, hand counts by letter)."""
    fields = fen.split()
    if len(fields) not in (3, 4):
        raise ValueError(f"expected 3 or 4 fields, got {len(fields)}")
    ranks = fields[0].split("/")
    if len(ranks) != size:
        raise ValueError(f"expected {size} ranks, got {len(ranks)}")
    board: dict[str, str] = {}
    letters = "kgsnlpbr" if size == 9 else "kgspbr"
    for i, text in enumerate(ranks):
        rank_letter = "abcdefghi"[i]
        file = size  # leftmost file
        j = 0
        while j < len(text):
            ch = text[j]
            if ch.isdigit():
                file -= int(ch)
                j += 1
                continue
            promoted = ch == "+"
            if promoted:
                j += 1
                if j >= len(text):
                    raise ValueError(f"rank {rank_letter}: '+' at the end")
                ch = text[j]
                if ch.lower() not in PROMOTABLE:
                    raise ValueError(f"rank {rank_letter}: {ch!r} cannot be promoted")
            if ch.lower() not in letters:
                raise ValueError(f"rank {rank_letter}: unexpected character {ch!r}")
            if file < 1:
                raise ValueError(f"rank {rank_letter} has more than {size} files")
            board[f"{file}{rank_letter}"] = ("+" if promoted else "") + ch
            file -= 1
            j += 1
        if file != 0:
            raise ValueError(f"rank {rank_letter} has {size - file} files, expected {size}")
    if fields[1] not in ("b", "w"):
        raise ValueError(f"side must be b or w, got {fields[1]!r}")
    hand: dict[str, int] = {}
    if fields[2] != "-":
        for count, letter in re.findall(r"(\d*)([A-Za-z])", fields[2]):
            if letter.lower() not in letters or letter.lower() == "k":
                raise ValueError(f"hand: unexpected piece {letter!r}")
            hand[letter] = hand.get(letter, 0) + (int(count) if count else 1)
        if "".join(c + l for c, l in re.findall(r"(\d*)([A-Za-z])", fields[2])) != fields[2]:
            raise ValueError(f"hand {fields[2]!r} is malformed")
    if len(fields) == 4 and not fields[3].isdigit():
        raise ValueError(f"move counter {fields[3]!r} is not a number")
    return board, fields[1], hand


def shogi_attacks(board: dict[str, str], sq: str, size: int) -> set[str]:
    letter = board[sq]
    promoted = letter.startswith("+")
    base = letter[-1]
    sente = base.isupper()
    kind = base.lower()
    f = int(sq[0])
    r = "abcdefghi".index(sq[1])
    fwd = -1 if sente else 1  # sente moves towards rank a

    def at(df: int, dr: int) -> str | None:
        nf, nr = f + df, r + dr
        if 1 <= nf <= size and 0 <= nr < size:
            return f"{nf}{'abcdefghi'[nr]}"
        return None

    gold = [(0, fwd), (1, fwd), (-1, fwd), (1, 0), (-1, 0), (0, -fwd)]
    steps: list[tuple[int, int]] = []
    slides: list[tuple[int, int]] = []
    if kind == "k":
        steps = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)]
    elif kind == "g" or (promoted and kind in "snlp"):
        steps = gold
    elif kind == "s":
        steps = [(0, fwd), (1, fwd), (-1, fwd), (1, -fwd), (-1, -fwd)]
    elif kind == "n":
        steps = [(1, 2 * fwd), (-1, 2 * fwd)]
    elif kind == "l":
        slides = [(0, fwd)]
    elif kind == "p":
        steps = [(0, fwd)]
    elif kind == "r":
        slides = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        if promoted:
            steps = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    elif kind == "b":
        slides = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
        if promoted:
            steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    out = {s for d in steps if (s := at(*d)) is not None}
    for df, dr in slides:
        k = 1
        while (s := at(df * k, dr * k)) is not None:
            out.add(s)
            if s in board:
                break
            k += 1
    return out


def check_shogi(where: str, fen: str, size: int) -> None:
    try:
        board, side, hand = parse_sfen(fen, size)
    except ValueError as e:
        problem(where, f"bad SFEN {fen!r}: {e}")
        return
    totals = SHOGI_TOTAL if size == 9 else MINI_TOTAL
    seen: dict[str, int] = {}
    for letter in board.values():
        k = letter[-1].lower()
        seen[k] = seen.get(k, 0) + 1
    for letter, n in hand.items():
        seen[letter.lower()] = seen.get(letter.lower(), 0) + n
    for k, n in seen.items():
        if n > totals[k]:
            problem(where, f"{n} pieces of kind {k.upper()} (the set has {totals[k]})")
    kings = {c: [s for s, l in board.items() if l == c] for c in "Kk"}
    if len(kings["K"]) != 1 or len(kings["k"]) != 1:
        problem(where, "each side needs exactly one king")
        return
    pawn_files: dict[tuple[bool, str], int] = {}
    for sq, letter in board.items():
        if letter.startswith("+"):
            continue
        sente = letter.isupper()
        k = letter.lower()
        r = "abcdefghi".index(sq[1])
        dist_last = r if sente else size - 1 - r  # 0 = on the last rank
        if k in "pl" and dist_last == 0 or k == "n" and dist_last <= 1:
            problem(where, f"{letter} on {sq} could never move")
        if k == "p":
            key = (sente, sq[0])
            pawn_files[key] = pawn_files.get(key, 0) + 1
            if pawn_files[key] > 1:
                problem(where, f"two unpromoted pawns of one side on file {sq[0]} (nifu)")
    waiting_king = kings["k"][0] if side == "b" else kings["K"][0]
    for sq, letter in board.items():
        if letter[-1].isupper() == (side == "b") and waiting_king in shogi_attacks(board, sq, size):
            problem(where, f"the side not to move is in check (from {letter} on {sq})")


def check_shogi_square(where: str, sq: str, size: int) -> bool:
    files = "123456789"[:size]
    ranks = "abcdefghi"[:size]
    if not (len(sq) == 2 and sq[0] in files and sq[1] in ranks):
        problem(where, f"{sq!r} is not a USI square of a {size}x{size} board")
        return False
    return True


# ---------------------------------------------------------------- claims about diagrams
# A diagram whose highlight shows "where this piece can go" is checked against the move rules:
# (FEN, squares of the pieces explained, filter) -> the highlight must equal the union of their
# destinations (after the filter). Positions that claim a mate or an illegal drop were checked by
# hand (see README); the geometry below catches a wrong square in the common case.


def xq_destinations(board: dict[str, str], sq: str, jieqi: bool) -> set[str]:
    letter = board[sq]
    red = letter.isupper()
    kind = letter.lower()
    covered = kind == "x"
    out = set()
    f, r = xq_coords(sq)
    if kind in ("r", "c") or (covered and r in (2, 7)):
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nf, nr = f + df, r + dr
            while (s := xq_sq(nf, nr)) is not None and s not in board:
                out.add(s)  # quiet slides (chariot and cannon alike)
                nf, nr = nf + df, nr + dr
    out |= xq_attacks(board, sq)
    if covered:
        back = 0 if red else 9
        kind = {"d": "a", "f": "a", "c": "b", "g": "b"}.get(sq[0], "?") if r == back else "?"
    palace = kind == "k" or (kind == "a" and (covered or not jieqi))
    river = kind == "b" and (covered or not jieqi)
    keep = set()
    for s in out:
        if s in board and board[s].isupper() == red:
            continue
        tf, tr = xq_coords(s)
        own = tr if red else 9 - tr
        if palace and not (3 <= tf <= 5 and own <= 2):
            continue
        if river and own > 4:
            continue
        keep.add(s)
    return keep


CLAIMS = [
    # (variant, FEN, pieces whose destinations are highlighted, optional filter)
    ("xiangqi", "3k5/9/9/9/9/9/9/9/4K4/9 w", ["e1"], None),
    ("xiangqi", "3k5/9/9/9/9/9/9/9/4A4/4K4 w", ["e1"], None),
    ("xiangqi", "3k5/9/9/9/9/9/5p3/4B4/9/4K4 w", ["e2"], None),
    ("xiangqi", "5k3/9/9/9/4p4/4N4/9/9/9/3K5 w", ["e4"], None),
    ("xiangqi", "5k3/9/4n4/9/9/4R4/9/9/9/3K5 w", ["e4"], None),
    ("xiangqi", "1n2k4/9/1c7/9/9/9/9/1C7/9/3K5 w", ["b2"], "captures"),
    ("xiangqi", "3k5/9/9/6P2/9/9/2P6/9/9/4K4 w", ["c3", "g6"], None),
    ("xiangqi", "4k4/3P1P3/9/9/9/9/9/9/9/3K5 b", ["e9"], "attacked"),
    ("jieqi", "3k5/9/9/9/2A6/6B2/9/9/9/4K4 w", ["c5", "g4"], None),
    ("jieqi", "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w", ["d0"], "d0-figure"),
    ("shogi", "4k4/9/9/9/2G3S2/9/9/9/4K4 b - 1", ["7e", "3e"], None),
    ("shogi", "4k4/9/8p/9/2N6/9/9/9/4K3L b - 1", ["7e", "1i"], None),
    ("minishogi", "k4/3S1/5/5/4K b - 1", ["2b"], "zone"),
]


def check_claim(variant: str, fen: str, squares: list[str], how: str | None, got: set[str]) -> None:
    """The highlight `got` of one diagram must be the destinations the rules give."""
    want: set[str] = set()
    if variant in ("xiangqi", "jieqi"):
        board, _ = parse_xiangqi(fen, variant == "jieqi")
        for sq in squares:
            dest = xq_destinations(board, sq, variant == "jieqi")
            if how == "captures":
                dest = {s for s in dest if s in board}
            if how == "attacked":  # every step of the stuck general must be attacked
                enemy = [s for s, l in board.items() if l.isupper() != board[sq].isupper()]
                attacked = set().union(*(xq_attacks(board, s) for s in enemy))
                if not dest <= attacked:
                    problem(f"claim {fen}", f"{sorted(dest - attacked)} not attacked")
            want |= dest
    else:
        size = 9 if variant == "shogi" else 5
        board, _, _ = parse_sfen(fen, size)
        for sq in squares:
            dest = {s for s in shogi_attacks(board, sq, size)
                    if s not in board or board[s][-1].isupper() != board[sq][-1].isupper()}
            if how == "zone":
                dest = {s for s in dest if s[1] in ("abc" if size == 9 else "a")}
            want |= dest
    if got != want:
        problem(f"claim {fen}", f"highlight {sorted(got)} but the rules give {sorted(want)}")


def check_claims() -> int:
    """Checks every claim whose diagram is in use; returns how many were checked."""
    checked = 0
    for variant, fen, squares, how in CLAIMS:
        figures = HIGHLIGHTS.get((variant, fen), [])
        if how == "d0-figure":  # the start position appears in several figures
            figures = [h for h in figures if h == {"e1"}]
        if figures:
            check_claim(variant, fen, squares, how, figures[0])
            checked += 1
    return checked


# ---------------------------------------------------------------- HTML fragments


class Fragment(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, int]] = []
        self.errors: list[str] = []
        self.tags: list[str] = []
        self.figures: list[dict[str, str]] = []
        self.figure_has_caption: list[bool] = []
        self.links: list[str] = []
        self.structure: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v or "") for k, v in attrs}
        line = self.getpos()[0]
        self.tags.append(tag)
        if tag in ("h1", "h2", "h3", "table", "tr", "figure", "ul", "ol", "li", "th", "td"):
            self.structure.append(tag)
        if tag == "a":
            self.links.append(a.get("href", ""))
        if tag == "figure" and "diagram" in a.get("class", "").split():
            a["_line"] = str(line)
            self.figures.append(a)
            self.figure_has_caption.append(False)
        if tag == "figcaption" and self.figure_has_caption:
            self.figure_has_caption[-1] = True
        if tag not in VOID:
            self.stack.append((tag, line))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            self.errors.append(f"line {self.getpos()[0]}: self-closing <{tag}/>")
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        line = self.getpos()[0]
        if tag in VOID:
            return
        if not self.stack:
            self.errors.append(f"line {line}: </{tag}> closes nothing")
            return
        open_tag, open_line = self.stack.pop()
        if open_tag != tag:
            self.errors.append(f"line {line}: </{tag}> closes <{open_tag}> of line {open_line}")


def check_page(variant: str, lang: str) -> tuple[list[tuple[str, str, str]], list[str]] | None:
    path = ROOT / "rules" / f"{variant}.{lang}.html"
    where = str(path.relative_to(ROOT.parent.parent))
    if not path.exists():
        problem(where, "missing")
        return None
    text = path.read_text(encoding="utf-8")
    parser = Fragment()
    parser.feed(text)
    parser.close()
    for e in parser.errors:
        problem(where, e)
    for tag, line in parser.stack:
        problem(where, f"<{tag}> of line {line} is never closed")
    for bad in ("html", "head", "body"):
        if bad in parser.tags:
            problem(where, f"a fragment must not contain <{bad}>")
    if parser.tags.count("article") != 1:
        problem(where, "expected exactly one <article>")
    if parser.tags.count("h1") != 1:
        problem(where, "expected exactly one <h1>")
    if "/" not in parser.links:
        problem(where, 'no link to "/" (the closing line)')
    if f'lang="{lang}"' not in text:
        problem(where, f'the <article> should carry lang="{lang}"')
    diagrams = []
    for fig, has_caption in zip(parser.figures, parser.figure_has_caption):
        here = f"{where}:{fig['_line']}"
        dv = fig.get("data-variant", "")
        fen = fig.get("data-fen", "")
        if dv not in ALLOWED_DIAGRAMS[variant]:
            problem(here, f"data-variant {dv!r} does not belong on a {variant} page")
            continue
        if not has_caption:
            problem(here, "diagram without <figcaption>")
        if dv in ("xiangqi", "jieqi"):
            check_xiangqi(here, fen, dv == "jieqi")

            def square_ok(sq: str, here: str = here) -> bool:
                return check_xq_square(here, sq)

            arrow_re = r"([a-i][0-9])([a-i][0-9])"
        else:
            size = 9 if dv == "shogi" else 5
            check_shogi(here, fen, size)

            def square_ok(sq: str, here: str = here, size: int = size) -> bool:
                return check_shogi_square(here, sq, size)

            arrow_re = r"([1-9][a-i])([1-9][a-i])"
        for sq in fig.get("data-highlight", "").split():
            square_ok(sq)
        for arrow in fig.get("data-arrows", "").split():
            m = re.fullmatch(arrow_re, arrow)
            if not m:
                problem(here, f"arrow {arrow!r} is not a from-to pair")
            else:
                square_ok(m.group(1))
                square_ok(m.group(2))
        diagrams.append((fen, fig.get("data-highlight", ""), fig.get("data-arrows", "")))
        HIGHLIGHTS.setdefault((dv, fen), [])
        HIGHLIGHTS[(dv, fen)].append(set(fig.get("data-highlight", "").split()))
    return diagrams, parser.structure


def check_home() -> None:
    path = ROOT / "home.json"
    where = str(path.relative_to(ROOT.parent.parent))
    if not path.exists():
        problem(where, "missing")
        return
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        problem(where, f"not valid JSON: {e}")
        return
    for lang in LANGS:
        entry = data.get(lang)
        if not isinstance(entry, dict):
            problem(where, f"no entry for {lang}")
            continue
        for variant in VARIANTS:
            v = entry.get(variant)
            if not isinstance(v, dict) or not v.get("name") or not v.get("description"):
                problem(where, f"{lang}.{variant} needs a name and a description")


def main() -> int:
    only = sys.argv[1:]  # optional variant names to restrict the check
    figures = 0
    for variant in VARIANTS:
        if only and variant not in only:
            continue
        reference = None
        for lang in LANGS:
            got = check_page(variant, lang)
            if got is None:
                continue
            figures += len(got[0])
            if reference is None:
                reference = (lang, got)
            else:
                ref_lang, (ref_diagrams, ref_structure) = reference
                if got[0] != ref_diagrams:
                    problem(f"{variant}.{lang}", f"diagrams differ from {variant}.{ref_lang}")
                if got[1] != ref_structure:
                    problem(f"{variant}.{lang}", f"structure differs from {variant}.{ref_lang}: "
                            f"{' '.join(got[1])} vs {' '.join(ref_structure)}")
    if not only:
        check_home()
    claims = check_claims()
    print(f"{claims} move claims checked against the move rules")
    for p in problems:
        print(p)
    print(f"{figures} diagrams checked, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
