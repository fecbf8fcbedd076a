"""The classroom's parts without a server: Glicko-2, the verdict, the report's words, the CSV, the limits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _classroom_util import cli

from agnes_teach.classroom import glicko, tokens
from agnes_teach.classroom.db import AttemptRow, Store, create
from agnes_teach.classroom.judge import LineError, Outcome, judge_line
from agnes_teach.classroom.puzzle_library import load_library
from agnes_teach.classroom.ratings import band
from agnes_teach.classroom.report import (
    SEED_RATING,
    WEAK_MIN_ATTEMPTS,
    class_report,
    csv_cell,
    replay_ratings,
)
from agnes_teach.classroom.throttle import Windows
from agnes_teach.engine import apply_unchecked, finishes_home, home_run, resolve
from agnes_teach.errors import InputError
from agnes_teach.moves import parse_move_text
from agnes_teach.registry import Difficulty, RuleId
from agnes_teach.scenario import load_scenario

# ------------------------------------------------------------------ Glicko-2


def test_glickmans_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06 against three opponents."""
    player = glicko.Rating(1500, 200, 0.06)
    games = [(glicko.Rating(1400, 30), 1.0), (glicko.Rating(1550, 100), 0.0), (glicko.Rating(1700, 300), 0.0)]
    after = glicko.rate(player, games)
    assert after.rating == pytest.approx(1464.06, abs=0.05)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_rating_period_without_games_only_widens_the_deviation() -> None:
    after = glicko.rate(glicko.Rating(1500, 200, 0.06), [])
    assert after.rating == 1500 and after.deviation == pytest.approx(200.27, abs=0.01)


def test_a_game_moves_both_sides_and_settles_after_enough_games() -> None:
    pupil, puzzle = glicko.play(glicko.Rating(), glicko.Rating(1500), solved=True)
    assert pupil.rating > 1500 > puzzle.rating
    assert pupil.provisional and puzzle.provisional
    rating = glicko.Rating()
    for n in range(60):
        rating = glicko.rate(rating, [(glicko.Rating(1500, 60), float(n % 2))])
    assert not rating.provisional and rating.deviation < glicko.PROVISIONAL_DEVIATION


def test_ratings_come_from_first_attempts_only() -> None:
    library = load_library()
    puzzle = next(iter(library.by_id))
    attempts = [AttemptRow(1, "p1", "a", puzzle, Outcome.FAILED, None, "t"),
                AttemptRow(2, "p1", "a", puzzle, Outcome.SOLVED, None, "t"),
                AttemptRow(3, "p2", "a", puzzle, Outcome.SOLVED, None, "t")]
    ratings = replay_ratings(attempts, library)
    assert ratings.first == {("p1", puzzle): (False, pytest.approx(ratings.first[("p1", puzzle)][1])),
                             ("p2", puzzle): (True, pytest.approx(ratings.first[("p2", puzzle)][1]))}
    seed = SEED_RATING[library.by_id[puzzle].difficulty or Difficulty.MEDIUM]
    assert ratings.first[("p1", puzzle)][1] == seed  # the puzzle's printed difficulty is its start
    assert ratings.pupils["p1"].rating < 1500 < ratings.pupils["p2"].rating


def test_the_rating_bands() -> None:
    easy, medium, hard = Difficulty.EASY, Difficulty.MEDIUM, Difficulty.HARD
    ratings = (1200, 1399.9, 1400, 1599.9, 1600, 1900)
    assert [band(r) for r in ratings] == [easy, easy, medium, medium, hard, hard]
    assert all(band(seed) == difficulty for difficulty, seed in SEED_RATING.items())


# ------------------------------------------------------------------ the verdict


def _library_line(theme: RuleId) -> tuple[object, list[str]]:
    sc = next(s for s in load_library().small if s.themes and s.themes[0] == theme and s.solution)
    assert sc.solution is not None
    # The file's answer, then every card home: the whole game, whose home tail the test cuts off.
    pos = sc.position
    for m in sc.solution:
        pos = apply_unchecked(pos, resolve(pos, m))
    return sc, [m.text for m in sc.solution] + [str(m) for m in home_run(pos)[1]]


def test_solved_means_only_home_moves_are_left() -> None:
    sc, line = _library_line(RuleId.TABLEAU_EMPTY)
    start = sc.position  # type: ignore[attr-defined]
    pos = start
    cut = None
    for n, text in enumerate(line):
        if finishes_home(pos) and cut is None:
            cut = n
        pos = apply_unchecked(pos, resolve(pos, parse_move_text(text)))
    assert cut is not None and cut < len(line)
    assert judge_line(start, line[:cut], "en").outcome == Outcome.SOLVED
    assert judge_line(start, line, "en").outcome == Outcome.SOLVED
    short = judge_line(start, line[:cut - 1], "en")
    assert short.outcome in (Outcome.OPEN, Outcome.FAILED) and short.attempt_result == Outcome.FAILED


def test_a_refused_move_names_its_rule_and_index_and_stops_the_line() -> None:
    sc, line = _library_line(RuleId.TABLEAU_EMPTY)
    start = sc.position  # type: ignore[attr-defined]
    judged = judge_line(start, [line[0], "deal", line[1]], "es")
    assert judged.outcome == Outcome.ILLEGAL and judged.refused is not None
    refused = judged.refused
    assert (refused.index, refused.move, refused.rule) == (1, "deal", RuleId.STOCK_NO_REDEAL)
    assert judged.refused.message and judged.position == judge_line(start, line[:1], "es").position


def test_text_that_is_not_a_move_is_a_body_error() -> None:
    sc, _ = _library_line(RuleId.TABLEAU_EMPTY)
    with pytest.raises(LineError, match=r"moves\[0\]"):
        judge_line(sc.position, ["6H to f"], "en")  # type: ignore[attr-defined]


# ------------------------------------------------------------------ the CSV, tokens, limits


@pytest.mark.parametrize("text", ["=1+1", "+A1", "-2", "@SUM(A1)", "\tx", "\rx"])
def test_csv_cells_that_look_like_formulas_are_neutralised(text: str) -> None:
    assert csv_cell(text) == "'" + text
    assert csv_cell("Ann") == "Ann" and csv_cell(3) == 3


def test_tokens_are_long_random_and_stored_hashed(tmp_path: Path) -> None:
    token = tokens.new_token()
    assert len(token) >= 43 and token != tokens.new_token()
    db = tmp_path / "class.db"
    create(db, token)
    assert token.encode() not in db.read_bytes()
    store = Store(db)
    assert store.teacher_hash() == tokens.token_hash(token)
    room = store.create_class("x", "en")
    pupil_token = tokens.new_token()
    store.add_pupil(room.id, "p", pupil_token)
    store.close()
    assert pupil_token.encode() not in b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert set(room.code) <= set(tokens.CODE_ALPHABET) and len(room.code) == tokens.CODE_LENGTH


def test_a_damaged_file_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "class.db"
    create(db, tokens.new_token())
    data = bytearray(db.read_bytes())
    data[4096:8192] = b"\xff" * 4096  # a page of the file overwritten
    db.write_bytes(bytes(data))
    with pytest.raises(InputError, match="damaged|not a classroom database"):
        Store(db)


def test_windows_limit_and_forget(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    monkeypatch.setattr("agnes_teach.classroom.throttle.time.monotonic", lambda: clock[0])
    windows = Windows(3, window=60)
    assert [windows.hit("a") for _ in range(4)] == [True, True, True, False]
    assert windows.hit("b")
    clock[0] += 61
    assert windows.hit("a") and not windows.over("a")


def test_weak_rules_follow_the_lichess_rule(tmp_path: Path) -> None:
    """A rule is weak for a pupil with enough first attempts there and a performance below their rating."""
    db = tmp_path / "class.db"
    create(db, tokens.new_token())
    store = Store(db)
    library = load_library()
    room = store.create_class("weak", "en")
    on = {theme: [s.id for s in library.small if s.themes[:1] == [theme]]
          for theme in (RuleId.TABLEAU_EMPTY, RuleId.FOUNDATION_WRAP)}
    assignment = store.create_assignment(room.id, "mix",
                                         on[RuleId.TABLEAU_EMPTY] + on[RuleId.FOUNDATION_WRAP])
    pupil = store.add_pupil(room.id, "Pat", tokens.new_token())
    for theme, result in ((RuleId.TABLEAU_EMPTY, Outcome.FAILED), (RuleId.FOUNDATION_WRAP, Outcome.SOLVED)):
        for puzzle in on[theme][:WEAK_MIN_ATTEMPTS + 2]:
            store.add_attempt(pupil.id, assignment.id, puzzle, [], {"result": result, "refused": None}, None)
    report = class_report(store, library, room.id)
    store.close()
    (row,) = report["pupils"]
    assert row["weak_rules"] == [RuleId.TABLEAU_EMPTY]
    assert [w["rule"] for w in report["weak_rules"]] == [RuleId.TABLEAU_EMPTY]
    assert report["weak_rules"][0]["pupils"] == 1 and report["weak_rules"][0]["solved"] == 0


def test_ratings_writes_the_settled_puzzles_with_their_rated_difficulty(tmp_path: Path) -> None:
    db = tmp_path / "class.db"
    create(db, tokens.new_token())
    store = Store(db)
    library = load_library()
    easy = next(s for s in library.small if s.difficulty == Difficulty.EASY)
    others = [s.id for s in library.small if s is not easy][:11]
    room = store.create_class("many", "en")
    assignment = store.create_assignment(room.id, "twelve", [easy.id, *others])
    # Thirty pupils play twelve puzzles, half of the others solved, the "easy" one by one pupil in five:
    # its rating climbs and settles (a rating settles once both sides have played enough; a puzzle
    # every pupil fails tells too little about its rating to settle it).
    for n in range(30):
        pupil = store.add_pupil(room.id, f"p{n}", tokens.new_token())
        for k, puzzle in enumerate([*others, easy.id]):
            solved = n % 5 == 0 if puzzle == easy.id else (n + k) % 2 == 1
            result = Outcome.SOLVED if solved else Outcome.FAILED
            store.add_attempt(pupil.id, assignment.id, puzzle, [], {"result": result, "refused": None}, None)
    store.close()
    out = tmp_path / "rated"
    missing = cli("classroom", "ratings", "--db", str(db), "--out", str(tmp_path / "no" / "dir"),
                  check=False)
    assert missing.returncode == 2 and "--parents" in missing.stderr
    ran = cli("classroom", "ratings", "--db", str(db), "--out", str(out), "--json")
    rated = next(r for r in json.loads(ran.stdout)["puzzles"] if r["puzzle"] == easy.id)
    assert rated["puzzle"] == easy.id and rated["printed"] == Difficulty.EASY and rated["deviation"] < 110
    assert rated["rated"] == Difficulty.HARD and rated["rating"] >= 1600
    again = load_scenario(out / Path(easy.file).name)
    assert again.id == easy.id and again.difficulty == Difficulty.HARD
    assert again.position == easy.position and again.solution == easy.solution


def test_a_pupil_without_attempts_has_one_csv_row_and_the_text_report_reads(tmp_path: Path) -> None:
    from agnes_teach.classroom.report import CSV_COLUMNS, report_csv
    from agnes_teach.cli.classroom import report_text

    db = tmp_path / "class.db"
    create(db, tokens.new_token())
    store = Store(db)
    room = store.create_class("Класс 5Б", "ru")
    store.add_pupil(room.id, "Аня", tokens.new_token())
    report = class_report(store, load_library(), room.id)
    store.close()
    lines = report_csv(report).splitlines()
    assert lines[0] == ",".join(CSV_COLUMNS)
    assert lines[1].split(",")[1:5] == ["Аня", "", "", "0"]
    text = report_text(report)
    assert "Класс 5Б" in text and "Аня: 0 of 0 solved" in text


def test_a_class_takes_at_most_the_pupils_asked(tmp_path: Path) -> None:
    from agnes_teach.classroom.app import MAX_PUPILS

    db = tmp_path / "class.db"
    create(db, tokens.new_token())
    store = Store(db)
    room = store.create_class("full", "en")
    added = [store.add_pupil(room.id, f"p{n}", tokens.new_token(), most=MAX_PUPILS)
             for n in range(MAX_PUPILS)]
    assert all(added) and store.add_pupil(room.id, "one more", tokens.new_token(), most=MAX_PUPILS) is None
    assert len(store.pupils(room.id)) == MAX_PUPILS
    store.close()


def test_a_file_of_an_older_schema_is_migrated_when_opened(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from agnes_teach.classroom import db as classroom_db

    path = tmp_path / "class.db"
    create(path, tokens.new_token())  # at today's version
    later = (*classroom_db.MIGRATIONS, "ALTER TABLE classes ADD COLUMN archived INTEGER NOT NULL DEFAULT 0")
    monkeypatch.setattr(classroom_db, "MIGRATIONS", later)
    monkeypatch.setattr(classroom_db, "SCHEMA_VERSION", len(later))
    store = Store(path)
    versions = [row[0] for row in store.query("SELECT version FROM schema_version ORDER BY version")]
    assert versions == list(range(1, len(later) + 1))
    assert "archived" in {row[1] for row in store.query("PRAGMA table_info(classes)")}
    store.close()
