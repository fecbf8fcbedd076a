"""An assignment by theme names its game: the real server assigns the Russian rules' (agnes-ru)
foundation.return puzzles by theme, a pupil plays them, and a game or theme the library cannot
give is a 422 naming the problem."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from _classroom_util import Server, init_db, join, played_answer

from agnes_teach.classroom.puzzle_library import load_library
from agnes_teach.puzzle_library import Selection, select_puzzles

RETURN = "foundation.return"


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str, str]]:
    db: Path = tmp_path_factory.mktemp("classroom") / "class.db"
    teacher = init_db(db)
    server = Server.start(db)
    made = server.client(teacher).post("/api/classes", {"name": "7A", "lang": "ru"})
    assert made.status == 201, made.body
    yield server, teacher, made.data["id"]
    code, err = server.stop()
    assert code == 0, err


def _agnes_ru(theme: str = RETURN, count: int = 50) -> list[str]:
    """The agnes-ru puzzles on `theme`, as ``sheet --profile agnes-ru --theme T --count N`` picks them."""
    library = load_library()
    ours = [sc for sc in library.by_id.values() if sc.position.profile.id == "agnes-ru"]
    chosen = select_puzzles(ours, Selection(themes=(theme,), count=count))
    return [sc.id for sc in chosen]


def _agnes_ru_themes() -> set[str]:
    return {sc.themes[0] for sc in load_library().by_id.values() if sc.position.profile.id == "agnes-ru"}


def _solution(puzzle: str) -> list[str]:
    return [str(m) for m in played_answer(puzzle)]


def test_the_library_offers_each_game_with_its_themes(room: tuple[Server, str, str]) -> None:
    server, teacher, _ = room
    reply = server.client(teacher).get("/api/library?lang=ru")
    assert reply.status == 200
    games = {g["profile"]: g for g in reply.data["games"]}
    assert reply.data["games"][0]["profile"] == "bernauer"
    assert reply.data["games"][0]["themes"] == reply.data["themes"]  # the default game, as before
    assert RETURN in _agnes_ru_themes()
    assert {t["theme"]: t["count"] for t in games["agnes-ru"]["themes"]} == {
        theme: len(_agnes_ru(theme)) for theme in _agnes_ru_themes()}
    assert RETURN not in {t["theme"] for t in reply.data["themes"]}
    assert all(g["name"] and g["themes"] for g in games.values())


def test_a_russian_teacher_assigns_agnes_ru_by_theme_and_the_pupil_plays_it(
        room: tuple[Server, str, str]) -> None:
    server, teacher, class_id = room
    expected = _agnes_ru(RETURN, 2)
    assert len(expected) == 2
    t = server.client(teacher)
    made = t.post(f"/api/classes/{class_id}/assignments",
                  {"title": "Возврат из дома", "theme": RETURN, "count": 2, "profile": "agnes-ru"})
    assert made.status == 201, made.body
    assert made.data["puzzles"] == expected
    pupil = join(server, (t.get("/api/classes").data[0])["code"], "Аня")
    (shown,) = [a for a in pupil.get("/api/me/assignments").data if a["id"] == made.data["id"]]
    assert [p["id"] for p in shown["puzzles"]] == expected
    for puzzle in shown["puzzles"]:
        assert puzzle["theme"] == RETURN and puzzle["position"]["profile"] == "agnes-ru"
    first = expected[0]
    played = pupil.post("/api/attempts", {"assignment": made.data["id"], "puzzle": first,
                                          "moves": _solution(first)})
    assert played.status == 201 and played.data["result"] == "solved", played.body


@pytest.mark.parametrize(("extra", "words"), [
    ({"profile": "no-such-game"}, ("profile:", "bernauer", "agnes-ru")),
    ({"profile": 7}, ("profile:",)),
    ({}, ("theme:", "bernauer", RETURN)),  # no game named: Bernauer's, which has no foundation.return
    ({"profile": "sorel-strict"}, ("theme:", "sorel-strict", RETURN, "tableau.same-colour")),
    ({"profile": "morehead"}, ("theme:", "morehead", "it has no puzzles")),
])
def test_a_game_or_theme_the_library_cannot_give_is_a_422_naming_it(
        room: tuple[Server, str, str], extra: dict[str, object], words: tuple[str, ...]) -> None:
    server, teacher, class_id = room
    reply = server.client(teacher).post(f"/api/classes/{class_id}/assignments",
                                        {"title": "x", "theme": RETURN, "count": 2, **extra})
    assert reply.status == 422, reply.body
    message = reply.data["error"]
    assert message.startswith(words[0]) and all(w in message for w in words), message
    assert "Traceback" not in reply.text


def test_a_list_of_puzzles_names_no_game(room: tuple[Server, str, str]) -> None:
    """The ids already say the game: a `profile` beside `puzzles` is refused, not ignored."""
    server, teacher, class_id = room
    body = {"title": "x", "puzzles": _agnes_ru()[:1], "profile": "agnes-ru"}
    reply = server.client(teacher).post(f"/api/classes/{class_id}/assignments", body)
    assert reply.status == 422 and reply.data["error"].startswith("profile"), reply.body
