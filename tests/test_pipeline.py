"""The generator's pipeline: one quota place, typed provenance, the same files whatever the worker
count, the run seed drawn where composed layouts are deal numbers, and the library's seeded choice."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agnes_teach.cli import app
from agnes_teach.cli.generate import _run_seed
from agnes_teach.deal import MAX_SEED
from agnes_teach.errors import InputError
from agnes_teach.generator import Workers, generate, pipeline
from agnes_teach.generator.canonical import puzzle_key
from agnes_teach.generator.mining import positions, solved_line
from agnes_teach.generator.output import scenario_data, to_yaml
from agnes_teach.generator.pipeline import Search, composed_numbers, find, max_run_seed, mine
from agnes_teach.generator.provenance import Provenance, SourceKind, read_provenance
from agnes_teach.generator.quota import (
    TASK_ROTATION,
    FolderQuota,
    band_quotas,
    mined_quota,
    next_task,
    rotated,
    small_quota,
)
from agnes_teach.profile import get_profile
from agnes_teach.puzzle_library import Selection, choose
from agnes_teach.registry import Difficulty, RuleId, Task
from agnes_teach.scenario import scenario_files
from agnes_teach.survey import parse_deal_ranges
from agnes_teach.yamlio import load_file

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "puzzles"
EASY, MEDIUM, HARD = Difficulty.EASY, Difficulty.MEDIUM, Difficulty.HARD


class _Rated:
    """What a quota reads of a puzzle: its task form and its rating."""

    def __init__(self, task: Task, difficulty: Difficulty) -> None:
        self.task, self.difficulty = task, difficulty


# ------------------------------------------------------------------ quotas


def test_small_quota_takes_a_third_per_rating_rounded_up_and_only_the_task_asked() -> None:
    accept = small_quota(4, None)
    taken = [accept(_Rated(Task.WIN, EASY)) for _ in range(3)]  # type: ignore[arg-type]
    assert taken == [True, True, False]  # ceil(4 / 3) = 2 easy ones
    assert accept(_Rated(Task.TRAP, HARD))  # type: ignore[arg-type]
    only_traps = small_quota(3, None, Task.TRAP)
    assert not only_traps(_Rated(Task.WIN, EASY))  # type: ignore[arg-type]
    assert only_traps(_Rated(Task.TRAP, EASY))  # type: ignore[arg-type]
    hard_only = small_quota(2, HARD)
    assert not hard_only(_Rated(Task.WIN, EASY))  # type: ignore[arg-type]
    assert [hard_only(_Rated(Task.WIN, HARD)) for _ in range(3)] == [True, True, False]  # type: ignore[arg-type]


def test_small_quota_gives_way_by_one_each_time_it_turns_away_as_many_as_it_asks_for() -> None:
    accept = small_quota(3, None)
    assert accept(_Rated(Task.WIN, EASY)) and accept(_Rated(Task.TRAP, MEDIUM))  # type: ignore[arg-type]
    # Hard is still missing: three more easy or medium puzzles are turned away, the fourth taken.
    offers = [EASY, MEDIUM, EASY, MEDIUM]
    assert [accept(_Rated(Task.WIN, d)) for d in offers] == [False, False, False, True]  # type: ignore[arg-type]
    assert (accept.turned_away, accept.gave_way) == (3, 1)
    # Two of one rating now, so a third medium waits for three more refusals; an easy one does not.
    mediums = [accept(_Rated(Task.WIN, MEDIUM)) for _ in range(4)]  # type: ignore[arg-type]
    assert mediums == [False, False, False, True]
    assert accept(_Rated(Task.WIN, EASY)) and accept.gave_way == 2  # type: ignore[arg-type]
    # A wrong task form is no rating refusal, and --difficulty never gives way.
    traps = small_quota(1, None, Task.TRAP)
    assert [traps(_Rated(Task.WIN, EASY)) for _ in range(3)] == [False] * 3  # type: ignore[arg-type]
    assert traps.turned_away == 0
    hard_only = small_quota(1, HARD)
    assert [hard_only(_Rated(Task.WIN, EASY)) for _ in range(5)] == [False] * 5  # type: ignore[arg-type]
    # A mined quota keeps its spread (its jobs skip by copies made earlier).
    mined = mined_quota(3, None)
    assert mined(_Rated(Task.WIN, EASY))  # type: ignore[arg-type]
    assert [mined(_Rated(Task.WIN, EASY)) for _ in range(6)] == [False] * 6  # type: ignore[arg-type]


class _Found(_Rated):
    """A puzzle as the run's taking reads it: also its key."""

    def __init__(self, task: Task, difficulty: Difficulty, key: str, number: int = 1) -> None:
        super().__init__(task, difficulty)
        self.key = key
        self.source = Provenance.layout(number, 1)


def test_a_run_short_of_its_count_takes_what_the_spread_turned_away_in_order() -> None:
    quota = small_quota(3, None)
    offers = [_Found(Task.WIN, HARD, "a"), _Found(Task.WIN, HARD, "b", 2), _Found(Task.WIN, HARD, "x"),
              _Found(Task.TRAP, HARD, "c", 3), _Found(Task.WIN, HARD, "d", 4)]
    assert [quota(p) for p in offers[:4]] == [True, False, False, False]  # type: ignore[arg-type]
    assert [p.key for p in quota.set_aside] == ["b", "x", "c"]  # type: ignore[attr-defined]
    search = Search("tableau.empty", 3, wanted=quota, found=[offers[0]], per_deal=1)  # type: ignore[list-item]
    pipeline._Taking(search, {"a", "b"}, pipeline.Tally(), None, None).take_set_aside()
    # "b" equals a puzzle the run avoids, and "x" comes from the number "a" came from.
    assert [p.key for p in search.found] == ["a", "c"]
    assert search.set_aside_taken == 1
    # The spread gave way after three refusals: the next hard one is taken as it comes.
    assert quota(offers[4]) and quota.set_aside == offers[1:4]  # type: ignore[arg-type]
    # A full run takes none of them.
    full = Search("tableau.empty", 1, wanted=quota, found=[offers[0]])  # type: ignore[list-item]
    pipeline._Taking(full, {"a"}, pipeline.Tally(), None, None).take_set_aside()
    assert [p.key for p in full.found] == ["a"] and full.set_aside_taken == 0
    # Only the spread is given up: a puzzle of another task form or of a rating --difficulty did
    # not ask for is never set aside, nor anything a mined run's quota refuses.
    traps, hard_only, mined = small_quota(1, None, Task.TRAP), small_quota(1, HARD), mined_quota(1, None)
    for accept, offer in ((traps, _Found(Task.WIN, EASY, "d")), (hard_only, _Found(Task.WIN, EASY, "e")),
                          (mined, _Found(Task.WIN, HARD, "f"))):
        assert not accept(offer) and accept.set_aside == []  # type: ignore[arg-type]


def test_a_mined_quota_closes_a_rating_once_taken_and_a_copy_counts_on_its_own() -> None:
    assert band_quotas(5, None) == {EASY: 2, MEDIUM: 2, HARD: 1}
    quota = mined_quota(2, None)
    assert quota.open(EASY) and not quota.open(HARD)
    carried = quota.copy()  # what a job takes with it
    assert quota(_Rated(Task.WIN, EASY))  # type: ignore[arg-type]
    assert not quota.open(EASY)
    assert not quota(_Rated(Task.WIN, EASY))  # type: ignore[arg-type]
    assert carried.open(EASY)  # the job's copy is not the run's
    traps = mined_quota(3, None, Task.TRAP)
    assert not traps(_Rated(Task.WIN, EASY)) and traps.open(EASY)  # type: ignore[arg-type]


def test_task_rotation_starts_where_a_folder_left_off() -> None:
    assert [next_task(TASK_ROTATION, found) for found in range(4)] == [*TASK_ROTATION, TASK_ROTATION[0]]
    assert next_task((), 3) is None
    assert rotated(TASK_ROTATION, 4) == (*TASK_ROTATION[1:], TASK_ROTATION[0])


def test_folder_quota_keeps_room_for_a_missing_rating_and_a_second_task_form() -> None:
    quota = FolderQuota.of_folder(4, TASK_ROTATION, [(EASY, Task.WIN), (EASY, Task.WIN)])
    # Two slots left, and the folder lacks medium, hard and a second task form: an easy win fits
    # nowhere, and neither does a medium win (it would leave no room for hard and a second form).
    assert not quota(_Rated(Task.WIN, EASY))  # type: ignore[arg-type]
    assert not quota(_Rated(Task.WIN, MEDIUM))  # type: ignore[arg-type]
    assert quota(_Rated(Task.TRAP, HARD))  # type: ignore[arg-type]
    assert quota.ratings[HARD] == 1 and quota.forms_had[Task.TRAP] == 1


# ------------------------------------------------------------------ provenance


@pytest.mark.parametrize("origin", [Provenance.deal(26, 8), Provenance.layout(7012, 35),
                                    Provenance.built(123456, 2)], ids=str)
def test_provenance_round_trips_through_its_text(origin: Provenance) -> None:
    assert Provenance.parse(origin.text(), origin.seed_data(5)) == origin
    assert origin.from_deal == (origin.kind is not SourceKind.BUILT)


@pytest.mark.parametrize("text", ["deal 3", "deal x move 2", "layout 1 move 2", "built 4", "mined 1 move 2"])
def test_provenance_refuses_text_of_another_shape(text: str) -> None:
    with pytest.raises(InputError):
        Provenance.parse(text)


def test_every_library_files_source_reads_back_to_the_same_text() -> None:
    files = scenario_files([str(LIBRARY)])
    assert files
    for f in files:
        data, _ = load_file(f)
        origin = read_provenance(data)
        assert origin is not None and origin.text() == data["source"], f


def test_a_built_puzzles_file_writes_its_provenance_as_before(tmp_path: Path) -> None:
    (puzzle,) = generate("tableau.wrap", 1, 41, get_profile("bernauer"))
    text = to_yaml(scenario_data(puzzle, 41, 1))
    data, _ = load_file_text(tmp_path, text)
    assert data["source"] == "built" and data["seed"]["run"] == 41
    assert read_provenance(data) == puzzle.source
    assert puzzle.theme is RuleId.TABLEAU_WRAP and isinstance(puzzle.task, Task)
    assert isinstance(puzzle.difficulty, Difficulty)


def load_file_text(folder: Path, text: str) -> tuple[dict, object]:  # type: ignore[type-arg]
    path = folder / "p.yaml"
    path.write_text(text, encoding="utf-8")
    return load_file(path)


# ------------------------------------------------------------------ workers


def _files(puzzles: list, seed: int) -> list[str]:  # type: ignore[type-arg]
    return [to_yaml(scenario_data(p, seed, n)) for n, p in enumerate(puzzles, start=1)]


def test_two_worker_processes_write_the_same_built_files_as_one() -> None:
    profile = get_profile("bernauer")
    one = generate("tableau.wrap", 3, 41, profile)
    two = generate("tableau.wrap", 3, 41, profile, workers=Workers(2))
    assert len(one) == 3 and _files(one, 41) == _files(two, 41)


def test_generate_with_two_workers_writes_byte_identical_files(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["generate", "--theme", "tableau.wrap", "--count", "2", "--seed", "9", "--source", "built"]
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        result = runner.invoke(app, [*args, "--workers", str(workers), "--out", str(out)])
        assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "w1").iterdir())
    assert names and names == sorted(p.name for p in (tmp_path / "w2").iterdir())
    for name in names:
        assert (tmp_path / "w1" / name).read_bytes() == (tmp_path / "w2" / name).read_bytes()


def test_two_worker_processes_cut_down_the_same_small_puzzle_as_one() -> None:
    """The default source's stages (cut down, judged, keyed) run in a worker process and come back
    whole: the puzzle taken from deal 4 is the one this process cuts down."""
    profile = get_profile("bernauer")
    one = find(Search(RuleId.TABLEAU_EMPTY, 1), [4], profile)
    two = find(Search(RuleId.TABLEAU_EMPTY, 1), [4], profile, workers=Workers(2))
    assert len(one) == 1 and one[0].source.number == 4
    assert _files(one, 0) == _files(two, 0)


def test_a_run_in_this_process_hears_each_starting_point_as_it_begins() -> None:
    """`working` hears every starting point cut down here, in order, with its number and how many
    the number has (a number can take many minutes); with workers elsewhere it hears nothing."""
    profile = get_profile("bernauer")
    heard: list[tuple[int, int, int]] = []
    numbers: list[tuple[int, int, int]] = []
    found = find(Search(RuleId.TABLEAU_EMPTY, 1), [4], profile, working=lambda *a: heard.append(a),
                 progress=lambda *a: numbers.append(a))
    assert found and heard and all(n == 4 for n, _, _ in heard)
    assert [k for _, k, _ in heard] == list(range(1, len(heard) + 1))
    assert len({total for _, _, total in heard}) == 1 and heard[-1][1] <= heard[-1][2]
    assert numbers[-1][1] == len(heard)  # the number's report counts the same starting points
    elsewhere: list[tuple[int, int, int]] = []
    find(Search(RuleId.TABLEAU_EMPTY, 1), [4], profile, working=lambda *a: elsewhere.append(a),
         workers=Workers(2))
    assert elsewhere == []


def test_a_job_that_goes_on_with_a_number_does_not_compose_its_layouts_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """When the run refuses what a number's job guessed it would take, the job that goes on from
    the next starting point reuses the number's layouts (a recipe that asks the solver makes them
    in seconds) and sees the very same ones."""
    composed: list[int] = []
    real_layouts = pipeline.layouts

    def counted(number: int, *args: object) -> object:
        composed.append(number)
        return real_layouts(number, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "layouts", counted)
    number = 987_654  # a number no other test composes, so the first job here composes it
    first = pipeline.NumberJob(RuleId.RESERVE_TOP, "bernauer", number, True, 1, hits=0)
    pipeline.cut_down_number(first)
    points = pipeline.starting_points(number, get_profile("bernauer"), RuleId.RESERVE_TOP, True)
    pipeline.cut_down_number(replace(first, start=3))
    assert composed == [number]
    assert points == tuple((Provenance.layout(number, k), pos)
                           for k, pos in real_layouts(number, get_profile("bernauer"), RuleId.RESERVE_TOP))


def test_mined_puzzles_with_two_workers_are_byte_identical_files(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["generate", "--theme", "tableau.empty", "--count", "1", "--seed", "3", "--source", "deals",
            "--deals", "1-2"]
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        result = runner.invoke(app, [*args, "--workers", str(workers), "--out", str(out)])
        assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "w1").iterdir())
    assert names == ["tableau-empty-d2-m20.yaml"]
    assert names == sorted(p.name for p in (tmp_path / "w2").iterdir())
    assert (tmp_path / "w1" / names[0]).read_bytes() == (tmp_path / "w2" / names[0]).read_bytes()


def test_a_mined_puzzle_the_run_refuses_is_judged_again_from_what_it_took() -> None:
    """Deal 2's line gives an easy tableau.empty puzzle at moves 20, 19 and 18. A job guesses the run
    takes move 20 and skips the next five moves (puzzles of one game lie six apart); the run
    refuses it (it is avoided), so move 19 must be judged after all, and taken."""
    profile = get_profile("bernauer")
    line = solved_line(2, profile)
    assert line is not None
    at_20 = next(puzzle_key(pos) for k, pos, _ in positions(2, profile, line) if k == 20)
    for workers in (Workers(), Workers(2)):
        found = mine(Search(RuleId.TABLEAU_EMPTY, 2, wanted=mined_quota(2, None)), [2], profile,
                     avoid={at_20}, workers=workers)
        assert [p.source for p in found] == [Provenance.deal(2, 19)]


def test_workers_beyond_the_machine_are_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["generate", "--theme", "tableau.wrap", "--count", "1", "--seed", "1",
                                      "--workers", "0", "--out", str(tmp_path / "p")])
    assert result.exit_code == 2 and "--workers" in result.output


# ------------------------------------------------------------------ the run seed


def test_a_drawn_seed_always_composes_deal_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bug: a seed drawn up to 2**31 composed layouts past the last deal number, and the run
    failed with exit 2 ("--deals ... not a range")."""
    monkeypatch.setattr(random.SystemRandom, "randint", lambda _self, low, high: high)
    seed = _run_seed(None, "small", composed=True)
    assert seed == max_run_seed()
    numbers = parse_deal_ranges(composed_numbers(seed))
    assert max(numbers) <= MAX_SEED


def test_a_seed_too_large_for_composed_layouts_is_refused_by_name(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["generate", "--theme", "tableau.empty", "--count", "1",
                                      "--seed", str(max_run_seed() + 1), "--out", str(tmp_path / "p")])
    assert result.exit_code == 2 and "--seed must be 0 to" in result.output
    assert "--deals" not in result.output.split("--seed must be", 1)[0]


# ------------------------------------------------------------------ the library's choice


def test_sheet_seed_draws_a_different_set_per_seed_never_the_same_puzzle_twice() -> None:
    sets = []
    for seed in range(1, 7):
        chosen, _ = choose([], selection=Selection(themes=(RuleId.TABLEAU_EMPTY,), count=6, seed=seed))
        ids = [sc.id for sc in chosen]
        assert len(ids) == 6 and len(set(ids)) == 6
        again, _ = choose([], selection=Selection(themes=(RuleId.TABLEAU_EMPTY,), count=6, seed=seed))
        assert [sc.id for sc in again] == ids  # the same seed, the same sheet
        sets.append(frozenset(ids))
    assert len(set(sets)) >= 4  # most seeds draw a set of their own


def test_without_a_seed_the_sheet_keeps_its_easy_to_hard_spread() -> None:
    chosen, _ = choose([], selection=Selection(themes=(RuleId.TABLEAU_EMPTY,), count=6))
    again, _ = choose([], selection=Selection(themes=(RuleId.TABLEAU_EMPTY,), count=6))
    orders = [(sc.difficulty or MEDIUM).order for sc in chosen]
    assert [sc.id for sc in chosen] == [sc.id for sc in again] and orders == sorted(orders)


def test_sheet_seed_without_a_count_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["sheet", "--theme", "tableau.empty", "--seed", "3",
                                      "--out", str(tmp_path / "s.pdf")])
    assert result.exit_code == 2 and "--seed needs --theme and --count" in result.output
    assert not (tmp_path / "s.pdf").exists()


def test_generate_on_a_dask_cluster_writes_the_local_files(tmp_path: Path) -> None:
    import distributed

    args = ["generate", "--theme", "tableau.wrap", "--count", "2", "--seed", "9", "--source", "built"]
    runner = CliRunner()
    assert runner.invoke(app, [*args, "--out", str(tmp_path / "here")]).exit_code == 0
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  host="127.0.0.1", silence_logs=50) as cluster:
        result = runner.invoke(app, [*args, "--scheduler", cluster.scheduler_address,
                                     "--out", str(tmp_path / "there")])
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "here").iterdir())
    assert len(names) == 2 and names == sorted(p.name for p in (tmp_path / "there").iterdir())
    for name in names:
        assert (tmp_path / "here" / name).read_bytes() == (tmp_path / "there" / name).read_bytes()
