"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2012), as lichess rates puzzles.

Each first attempt of a pupil at a puzzle is one game between the two: the
pupil wins by solving it, the puzzle wins otherwise. Games are rated one at a
time, in the order they were played, each a rating period of its own (as
lichess does), so a rating is current after every attempt.
``tests/test_classroom_glicko.py`` reproduces Glickman's worked example.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's scale factor between the Glicko and the Glicko-2 scales
TAU = 0.5  # how fast volatility may change; Glickman suggests 0.3 to 1.2 (lichess: 0.75 for players)
EPSILON = 0.000001  # the convergence tolerance of the volatility iteration
PROVISIONAL_DEVIATION = 110.0  # lichess: a rating is provisional while its deviation is this or more
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06


@dataclass(frozen=True)
class Rating:
    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation >= PROVISIONAL_DEVIATION


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5 of the example: the root of f by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period of `games` (opponent, score 1, 0.5 or 0)."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    if not games:
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + player.volatility ** 2), player.volatility)
    v_inverse = 0.0
    improvement = 0.0
    for opponent, score in games:
        mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = opponent.deviation / SCALE
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inverse += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / v_inverse
    sigma = _new_volatility(phi, player.volatility, v * improvement, v, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Rating(SCALE * mu_new + DEFAULT_RATING, SCALE * phi_new, sigma)


def play(pupil: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """One first attempt as a game: both ratings after it."""
    score = 1.0 if solved else 0.0
    return rate(pupil, [(puzzle, score)]), rate(puzzle, [(pupil, 1.0 - score)])
