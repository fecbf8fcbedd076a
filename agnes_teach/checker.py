"""Check scenarios: validate, replay claimed solutions, verify every claim.

The checker decides nothing itself: the engine says whether a move is legal
(and which rule refuses it), the solver proves winnability.  A claim the
solver cannot settle within the budget is reported as not proved, never as
passed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from . import i18n
from .engine import (
    AmbiguousMoveError,
    IllegalMoveError,
    Refusal,
    apply_unchecked,
    finishes_home,
    home_run,
    legal_moves,
    refusal,
    resolve,
)
from .errors import InputError, Problem
from .moves import Move, MoveText
from .position import Position
from .registry import GENERATED_TASKS, Difficulty, RuleId, Task, Verdict
from .scenario import Scenario
from .solver import first_move_verdicts, solve

DEFAULT_BUDGET = 10.0


# Claims that no game rule settles name their claim instead (docs/decisions.md, "Claim ids").
CLAIM_LEGAL = "expect.legal"
CLAIM_ILLEGAL = "expect.illegal"
# A scenario id is unique among the files checked together: the second file with an id fails this.
CLAIM_UNIQUE_ID = "scenario.id"


@dataclass
class CheckError:
    rule: str  # a rule id, or a claim id such as expect.legal
    message: str
    move_index: int | None = None
    move: str | None = None

    def to_json(self) -> dict[str, object]:
        return {"rule": self.rule, "move_index": self.move_index, "move": self.move, "message": self.message}


@dataclass
class HomeNote:
    """A solution that wins as a worksheet counts it: after its last move, `cards` go home by themselves."""

    claim: str  # solution or --solution
    cards: int
    message: str

    def to_json(self) -> dict[str, object]:
        return {"claim": self.claim, "home_by_themselves": self.cards, "message": self.message}


@dataclass
class CheckResult:
    file: str
    id: str
    errors: list[CheckError] = field(default_factory=list)
    verified: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # the claims that do not hold, by the same names
    notes: list[HomeNote] = field(default_factory=list)  # solutions that win with the rest going home

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "id": self.id,
            "ok": self.ok,
            "verified": self.verified,
            "failed": self.failed,
            "errors": [e.to_json() for e in self.errors],
            "notes": [n.to_json() for n in self.notes],
        }


Translate = Callable[..., str]


def _resolve_or_error(
    pos: Position, text: MoveText, file: str, line: int | None
) -> Move | Refusal:
    try:
        return resolve(pos, text)
    except AmbiguousMoveError as exc:
        raise InputError(Problem(str(exc), file, line)) from None
    except IllegalMoveError as exc:
        return exc.refusal


def replay(
    pos: Position, moves: list[MoveText], lang: str, file: str, line: int | None, must_win: bool
) -> tuple[list[CheckError], Position]:
    """Play `moves` from `pos`; the first refused move ends the replay with its rule.

    `must_win`: the line must win as a worksheet counts it, all 52 cards home or every card left
    going home by foundation moves alone (``engine.finishes_home``)."""
    t = i18n.text
    for index, text in enumerate(moves, start=1):
        got = _resolve_or_error(pos, text, file, line)
        why = got if isinstance(got, Refusal) else refusal(pos, got)
        if why is not None:
            message = i18n.refusal_message(why, lang)
            shown = str(got) if isinstance(got, Move) else text.text
            return [CheckError(why.rule, message, index, shown)], pos
        assert isinstance(got, Move)
        pos = apply_unchecked(pos, got)
    if must_win and not finishes_home(pos):
        home = pos.cards_home()
        message = i18n.rule_message(lang, RuleId.END_WIN,
                                    home=t(lang, "check", "{n} of 52 cards home", n=home))
        return [CheckError(RuleId.END_WIN, message, None, None)], pos
    return [], pos


def check_scenario(
    sc: Scenario,
    *,
    lang: str = "en",
    extra_solution: list[MoveText] | None = None,
    budget: float = DEFAULT_BUDGET,
    progress: Callable[[str], None] | None = None,
    teach: bool = False,
) -> CheckResult:
    """Verify every claim of one scenario.  InputError only for unusable input.

    Besides the claims: every listed theme must be used on the solution line,
    and a claim about a face-down stock must hold for every order of it (or the
    file says ``stock_shown: true``).  `teach` adds criteria 1-2 of the teaching
    standard (failable, beaten by the misconception) for puzzles."""
    result = CheckResult(sc.file, sc.id)
    _check_solutions(sc, result, lang, extra_solution)
    expect = sc.expect
    if "legal" in expect:
        with _claim(result, "legal"):
            _check_legal(sc, result, lang)
    if "illegal" in expect:
        with _claim(result, "illegal"):
            _check_illegal(sc, result, lang)
    if "winnable" in expect:
        if progress:
            progress(f"{sc.id}: proving winnable")
        with _claim(result, "winnable"):
            _check_winnable(sc, result, lang, budget)
    for key in ("key_move", "trap_move"):
        if key in expect:
            if progress:
                progress(f"{sc.id}: proving {key}")
            with _claim(result, key):
                _check_first_move(sc, result, lang, key, budget)
    if "trap_moves" in expect:
        if progress:
            progress(f"{sc.id}: proving trap_moves")
        with _claim(result, "trap_moves"):
            _check_trap_moves(sc, result, lang, budget)
    with _claim(result, "themes"):
        _check_theme_use(sc, result, lang)
    with _claim(result, "hidden stock"):
        _check_hidden_stock(sc, result, lang)
    if teach:
        with _claim(result, "teaches"):
            _check_teaching(sc, result, lang)
    return result


@contextmanager
def _claim(result: CheckResult, name: str) -> Iterator[None]:
    """Name `name` among the failed claims when the check inside adds an error."""
    before = len(result.errors)
    yield
    if len(result.errors) > before:
        result.failed.append(name)


def check_unique_ids(results: list[CheckResult], lang: str = "en") -> None:
    """Fail every file whose scenario id an earlier file already has (the files are checked all the same)."""
    first_file: dict[str, str] = {}
    for result in results:
        if result.id not in first_file:
            first_file[result.id] = result.file
            continue
        result.errors.append(CheckError(CLAIM_UNIQUE_ID, i18n.text(
            lang, "check", "the id {id} is also the id of {file}: a scenario id must be unique",
            id=result.id, file=first_file[result.id])))
        result.failed.append("id")


def _check_solutions(sc: Scenario, result: CheckResult, lang: str,
                     extra_solution: list[MoveText] | None) -> None:
    """The file's solution, and one given on the command line, replay (and win where they must)."""
    loc = sc.locator
    line_of = (lambda *p: loc.line(*p)) if loc is not None else (lambda *p: None)
    solutions: list[tuple[str, list[MoveText], int | None]] = []
    if sc.solution is not None:
        solutions.append(("solution", sc.solution, line_of("solution")))
    if extra_solution is not None:
        solutions.append(("--solution", extra_solution, None))
    for label, moves, line in solutions:
        # formats.md: a file's solution must win for task "win".  A solution given
        # on the command line is a claimed win unless the task is only about legal moves.
        must_win = sc.task == Task.WIN if label == "solution" else sc.task != Task.LEGAL_MOVES
        errors, end = replay(sc.position, moves, lang, sc.file, line, must_win=must_win)
        result.errors.extend(errors)
        (result.failed if errors else result.verified).append(label)
        if must_win and not errors and not end.is_won():
            rest = 52 - end.cards_home()
            result.notes.append(HomeNote(label, rest, i18n.ntext(
                lang, "check", "{claim}: after its last move the remaining {n} card goes home by itself",
                "{claim}: after its last move the remaining {n} cards go home by themselves", rest,
                claim=label)))
    if sc.answer is not None and sc.solution is not None:
        with _claim(result, "answer"):
            _check_answer(sc, result, lang)


def _check_answer(sc: Scenario, result: CheckResult, lang: str) -> None:
    """answer: the solution is a shortest answer of answer.moves moves, one of answer.count, and each
    alternative is another answer of that length (found again by the breadth-first search)."""
    from .tagger.shortest import TooLarge, is_answer, shortest_answers

    t = i18n.text
    claim = sc.answer
    assert claim is not None and sc.solution is not None
    lines = [sc.solution, *map(list, claim.alternatives)]
    for moves in lines:
        line = _played(sc.position, moves)
        if line is None or len(line) != claim.moves or not is_answer(sc.position, line):
            result.errors.append(CheckError(RuleId.END_WIN, t(
                lang, "check", "answer: {moves} is not an answer of {n} moves after which the rest goes "
                "home by itself", moves=" ".join(m.text for m in moves), n=claim.moves)))
            return
    try:
        found = shortest_answers(sc.position)
    except TooLarge as exc:
        result.errors.append(CheckError(RuleId.END_WIN, t(
            lang, "check", "answer is not proved: {why}", why=str(exc))))
        return
    if found.length != claim.moves:
        result.errors.append(CheckError(RuleId.END_WIN, t(
            lang, "check", "answer: the solution has {n} moves, but an answer of {shortest} moves exists: "
            "{moves}", n=claim.moves, shortest=found.length, moves=" ".join(map(str, found.key)))))
    elif found.count != claim.count:
        result.errors.append(CheckError(RuleId.END_WIN, t(
            lang, "check", "answer.count is {claimed}, but {count} answers of {n} moves exist",
            claimed=claim.count, count=found.count, n=found.length)))
    else:
        result.verified.append("answer")


def _played(pos: Position, texts: list[MoveText]) -> tuple[Move, ...] | None:
    """The moves of `texts` as played from `pos`; None when one of them is not legal there."""
    out: list[Move] = []
    for text in texts:
        try:
            move = resolve(pos, text)
        except (AmbiguousMoveError, IllegalMoveError):
            return None
        if refusal(pos, move) is not None:
            return None
        out.append(move)
        pos = apply_unchecked(pos, move)
    return tuple(out)


def _check_winnable(sc: Scenario, result: CheckResult, lang: str, budget: float) -> None:
    """expect.winnable: the solver proves the position won (or lost) within `budget` seconds."""
    t = i18n.text
    winnable = sc.expect["winnable"]
    verdict = solve(sc.position, seconds=budget)
    claimed = Verdict.WON if winnable else Verdict.LOST
    if verdict.status == Verdict.UNKNOWN:
        result.errors.append(CheckError(RuleId.END_WIN, t(
            lang, "check", "expect.winnable is not proved: the solver did not decide "
            "the position within {budget} s", budget=budget)))
    elif verdict.status != claimed:
        key = ("expect.winnable is true, but the solver proved the position lost"
               if winnable else
               "expect.winnable is false, but the solver found a win")
        result.errors.append(CheckError(RuleId.END_LOSS if winnable else RuleId.END_WIN,
                                        t(lang, "check", key)))
    else:
        result.verified.append("winnable")


def _moves_of(sc: Scenario, texts: list[MoveText], *path: str | MoveText) -> list[Move | Refusal]:
    pos = sc.position
    where = [p.text if isinstance(p, MoveText) else p for p in path]
    line = sc.locator.line(*where) if sc.locator else None
    return [_resolve_or_error(pos, text, sc.file, line) for text in texts]


def _check_legal(sc: Scenario, result: CheckResult, lang: str) -> None:
    t = i18n.text
    pos = sc.position
    claimed = _moves_of(sc, sc.expect["legal"], "expect", "legal")
    actual = set(legal_moves(pos))
    claimed_moves: set[Move] = set()
    failed = False
    for got in claimed:
        why = got if isinstance(got, Refusal) else refusal(pos, got)
        if why is not None:
            failed = True
            result.errors.append(CheckError(why.rule, t(
                lang, "check", "expect.legal lists {move}, but it is refused: {why}",
                move=why.move, why=i18n.refusal_message(why, lang)), None, why.move))
        else:
            assert isinstance(got, Move)
            claimed_moves.add(got)
    for move in sorted(actual - claimed_moves, key=str):
        failed = True
        result.errors.append(CheckError(CLAIM_LEGAL, t(
            lang, "check", "expect.legal leaves out {move}, which is legal", move=str(move)),
            None, str(move)))
    if not failed:
        result.verified.append("legal")


def _check_illegal(sc: Scenario, result: CheckResult, lang: str) -> None:
    t = i18n.text
    pos = sc.position
    failed = False
    for text, rule_id in sc.expect["illegal"].items():
        (got,) = _moves_of(sc, [text], "expect", "illegal", text)
        why = got if isinstance(got, Refusal) else refusal(pos, got)
        if why is None:
            failed = True
            # No rule refuses a legal move: the failure is the claim's own.
            result.errors.append(CheckError(CLAIM_ILLEGAL, t(
                lang, "check", "expect.illegal says {move} is refused by {rule}, but it is legal",
                move=text.text, rule=rule_id), None, str(got)))
        elif why.rule != rule_id:
            failed = True
            result.errors.append(CheckError(why.rule, t(
                lang, "check", "expect.illegal says {move} is refused by {rule}, but the rule that "
                "refuses it is {actual}: {why}", move=text.text, rule=rule_id, actual=why.rule,
                why=i18n.refusal_message(why, lang)), None, why.move))
    if not failed:
        result.verified.append("illegal")


def _check_first_move(sc: Scenario, result: CheckResult, lang: str, key: str, budget: float) -> None:
    """key_move: the only winning first move.  trap_move: legal, and proved losing while a win exists."""
    t = i18n.text
    pos = sc.position
    (got,) = _moves_of(sc, [sc.expect[key]], "expect", key)
    why = got if isinstance(got, Refusal) else refusal(pos, got)
    if why is not None:
        result.errors.append(CheckError(why.rule, t(
            lang, "check", "expect.{key} {move} is not even legal: {why}", key=key, move=why.move,
            why=i18n.refusal_message(why, lang)), None, why.move))
        return
    assert isinstance(got, Move)
    verdicts = first_move_verdicts(pos, seconds=budget)
    if key == "key_move":
        # Moves that reach the same state up to symmetry (a card into either of two
        # empty columns) are one choice: only winning moves outside the key move's group count.
        group = verdicts.group_of(got)
        same = set(group.moves) if group is not None else {got}
        others = [m for m in verdicts.winning if m not in same]
        if verdicts.unknown:
            result.errors.append(CheckError(RuleId.END_WIN, t(
                lang, "check", "expect.key_move is not proved: the solver could not decide "
                "the position after {moves} within {budget} s",
                moves=", ".join(map(str, verdicts.unknown)), budget=budget)))
        elif got not in verdicts.winning:
            result.errors.append(CheckError(RuleId.END_LOSS, t(
                lang, "check", "expect.key_move {move} does not keep the win: the solver proved "
                "the position after it lost", move=str(got)), None, str(got)))
        elif others:
            # Other first moves reach end.win too, so the move is not the key.
            result.errors.append(CheckError(RuleId.END_WIN, t(
                lang, "check", "expect.key_move {move} is not the only winning first move: "
                "{others} win too", move=str(got), others=", ".join(map(str, others))), None, str(got)))
        else:
            result.verified.append("key_move")
    else:
        if got in verdicts.unknown or (not verdicts.winning and verdicts.unknown):
            result.errors.append(CheckError(RuleId.END_LOSS, t(
                lang, "check", "expect.trap_move is not proved within {budget} s", budget=budget)))
        elif got not in verdicts.losing:
            result.errors.append(CheckError(RuleId.END_LOSS, t(
                lang, "check", "expect.trap_move {move} does not lose: the solver found a win after it",
                move=str(got)), None, str(got)))
        elif not verdicts.winning:
            result.errors.append(CheckError(RuleId.END_LOSS, t(
                lang, "check", "expect.trap_move: every first move loses, so there is no trap to avoid")))
        else:
            result.verified.append("trap_move")


def _check_trap_moves(sc: Scenario, result: CheckResult, lang: str, budget: float) -> None:
    """trap_moves: the position is won, and the moves listed are exactly its losing first moves."""
    t = i18n.text
    pos = sc.position
    claimed: set[Move] = set()
    for got in _moves_of(sc, sc.expect["trap_moves"], "expect", "trap_moves"):
        why = got if isinstance(got, Refusal) else refusal(pos, got)
        if why is not None:
            result.errors.append(CheckError(why.rule, t(
                lang, "check", "expect.{key} {move} is not even legal: {why}", key="trap_moves",
                move=why.move, why=i18n.refusal_message(why, lang)), None, why.move))
            return
        assert isinstance(got, Move)
        claimed.add(got)
    verdicts = first_move_verdicts(pos, seconds=budget)
    if verdicts.unknown:
        result.errors.append(CheckError(RuleId.END_LOSS, t(
            lang, "check", "expect.trap_moves is not proved: the solver could not decide the position "
            "after {moves} within {budget} s", moves=", ".join(map(str, verdicts.unknown)), budget=budget)))
        return
    losing = set(verdicts.losing)
    if not verdicts.winning:
        result.errors.append(CheckError(RuleId.END_LOSS, t(
            lang, "check", "expect.trap_move: every first move loses, so there is no trap to avoid")))
    elif claimed - losing:
        move = sorted(map(str, claimed - losing))[0]
        result.errors.append(CheckError(RuleId.END_LOSS, t(
            lang, "check", "expect.trap_move {move} does not lose: the solver found a win after it",
            move=move), None, move))
    elif losing - claimed:
        left_out = ", ".join(sorted(map(str, losing - claimed)))
        result.errors.append(CheckError(RuleId.END_LOSS, t(
            lang, "check", "expect.trap_moves leaves out {moves}, which lose too", moves=left_out)))
    else:
        result.verified.append("trap_moves")


# ------------------------------------------------------------ teaching properties (issue 8)


def solution_line(sc: Scenario) -> list[Move]:
    """The scenario's solution as moves (up to the first that does not play), else its key move;
    a solution after which the rest goes home by itself is followed by those moves home. The one
    line a puzzle's key explains: the checker's criteria, the sheet's answer key and the practice
    pages read it."""
    texts = list(sc.solution or [])
    if not texts and "key_move" in sc.expect:
        texts = [sc.expect["key_move"]]
    pos, out = sc.position, []
    for text in texts:
        try:
            got = resolve(pos, text)
        except (AmbiguousMoveError, IllegalMoveError):
            break
        if refusal(pos, got) is not None:
            break
        out.append(got)
        pos = apply_unchecked(pos, got)
    if out and len(out) == len(texts) and not pos.is_won():
        out.extend(home_run(pos)[1])
    return out


def _check_theme_use(sc: Scenario, result: CheckResult, lang: str) -> None:
    """Criterion 4: each listed theme is used on the line (its detector, else the rule a move applies)."""
    from .tagger.detectors import Lesson, rule_of
    from .themes import find_theme

    line = solution_line(sc)
    if not sc.themes or not line:
        return
    specs = {theme: find_theme(theme, sc.position.profile.id) for theme in sc.themes}
    losing: tuple[Move, ...] = ()
    # A theme whose lesson no single move shows reads the first moves proved losing.
    if any(spec is not None and spec.lesson_move is None for spec in specs.values()):
        losing = tuple(first_move_verdicts(sc.position, seconds=DEFAULT_BUDGET).losing)
    rules_used: set[str] = set()
    pos = sc.position
    for move in line:
        rules_used.add(rule_of(pos, move))
        pos = apply_unchecked(pos, move)
    unused = []
    for theme in sc.themes:
        spec = specs[theme]
        used = spec.detect(Lesson(sc.position, tuple(line), losing, within=len(line))) if spec else False
        if not used and theme not in rules_used:
            unused.append(theme)
    if unused:
        result.errors.append(CheckError(unused[0], i18n.text(
            lang, "check", "themes lists {themes}, but the solution line never uses it",
            themes=", ".join(unused))))
    else:
        result.verified.append("themes")


def _check_hidden_stock(sc: Scenario, result: CheckResult, lang: str) -> None:
    """Criterion 3: a claim about a face-down stock holds for every order of its cards."""
    import math

    from .fairness import EXHAUSTIVE_LIMIT, claim_holds_for_every_order, key_move_claim, status_claim

    pos = sc.position
    if not pos.stock or sc.stock_shown:
        return
    claims = []
    if "key_move" in sc.expect:
        (key,) = _moves_of(sc, [sc.expect["key_move"]], "expect", "key_move")
        if isinstance(key, Move):
            claims.append(("key_move", key_move_claim(key)))
    if "trap_move" in sc.expect:
        (got,) = _moves_of(sc, [sc.expect["trap_move"]], "expect", "trap_move")
        if isinstance(got, Move):
            claims.append(("trap_move", status_claim(got, Verdict.LOST)))
    for got in _moves_of(sc, sc.expect.get("trap_moves", []), "expect", "trap_moves"):
        if isinstance(got, Move):
            claims.append(("trap_moves", status_claim(got, Verdict.LOST)))
    if "winnable" in sc.expect:
        claimed = Verdict.WON if sc.expect["winnable"] else Verdict.LOST
        claims.append(("winnable", status_claim(None, claimed)))
    if sc.task == Task.WIN and sc.solution:
        claims.append(("solution", lambda p: False))  # a line played blind cannot rely on the order
    if not claims:
        return
    # Too many orders to re-solve one by one: only a shown stock makes the claims fair.
    limit = EXHAUSTIVE_LIMIT if math.factorial(len(pos.stock)) <= EXHAUSTIVE_LIMIT else 0
    for name, claim in claims:
        fairness = claim_holds_for_every_order(pos, claim, limit=limit, sample=1)
        if not fairness.proved:
            result.errors.append(CheckError(RuleId.STOCK_DEAL, i18n.text(
                lang, "check", "{claim} depends on the order of the {n} face-down stock cards "
                "({argument}); show the stock with stock_shown: true or change the puzzle",
                claim=name, n=len(pos.stock), argument=fairness.argument())))
            return
    result.verified.append("hidden stock")


def _check_teaching(sc: Scenario, result: CheckResult, lang: str) -> None:
    """Criteria 1-2 for a puzzle (a win, key-move or trap task): failable, beaten by the misconception."""
    from .tagger.small import small_problems
    from .tagger.teaching import MIN_DECISIONS, measure, teaching_problems
    from .themes import find_theme

    if sc.task not in GENERATED_TASKS:
        return
    theme = next((t for t in sc.themes), None)
    # Only a medium or hard puzzle needs decision points, and only MIN_DECISIONS of them.
    needed = MIN_DECISIONS if sc.difficulty in (Difficulty.MEDIUM, Difficulty.HARD) else 0
    line = solution_line(sc)
    m = measure(sc.position, theme, line, decisions_needed=needed, greedy=False)
    problems = teaching_problems(m, sc.task, sc.difficulty, len(sc.expect.get("illegal", {})))
    taught = find_theme(theme, sc.position.profile.id)
    if taught is not None and line:
        problems += small_problems(sc.position, line, taught)
    if taught is not None and sc.task == Task.KEY_MOVE and line:
        from .tagger.crux import key_move_problem

        key_problem = key_move_problem(sc.position, line[0], taught.lesson_move)
        if key_problem is not None:
            problems.append(f"the rule is not the crux: {key_problem}")
    if taught is not None and line:
        from .tagger.refutation import key_explanation_problem

        explained = key_explanation_problem(sc, line)
        if explained is not None:
            problems.append(explained)
    for problem in problems:
        message = i18n.text(lang, "check", "does not teach: {problem}", problem=problem)
        result.errors.append(CheckError(theme or RuleId.END_WIN, message))
    if not problems:
        result.verified.append("teaches")
