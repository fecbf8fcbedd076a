"""Rate limits: sliding one-minute windows, per client address for failures, per token for the rest.

A whole class often shares one address (the school's network), so successes
are counted per token, never per address: one pupil's burst slows only that
pupil. Failures (a wrong class code, an unknown token) are counted per
address; an address over its limit gets 429 on ``join`` and on any request
whose token is unknown, while requests with a known token go on: the limit
slows guessing, and a pupil who mistypes the code must not lock out the
classmates already playing. docs/classroom.md gives the numbers.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass

WINDOW_SECONDS = 60.0
# Wrong codes or tokens from one address. A class shares its address, and thirty pupils typing a code
# make a few typos each; guessing one of 25**6 codes at this pace would still take centuries.
FAILURES_PER_MINUTE = 60
REQUESTS_PER_MINUTE = 300  # per token: the contract's floor is 60; a replay per move needs more
JOINS_PER_MINUTE = 120  # successful joins from one address: a class of 100 joins at once
MAX_KEYS = 10_000  # windows kept; the oldest is forgotten first, so memory stays bounded


class Windows:
    """Sliding windows of event times per key (thread-safe)."""

    def __init__(self, limit: int, window: float = WINDOW_SECONDS) -> None:
        self.limit = limit
        self.window = window
        self.events: OrderedDict[str, deque[float]] = OrderedDict()
        self.lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self.events.get(key)
        if times is None:
            times = self.events[key] = deque()
            while len(self.events) > MAX_KEYS:
                self.events.popitem(last=False)
        self.events.move_to_end(key)
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def over(self, key: str) -> bool:
        """Whether `key` has used up its limit (without counting this question)."""
        with self.lock:
            return len(self._recent(key, time.monotonic())) >= self.limit

    def hit(self, key: str) -> bool:
        """Count one event; False when the key was already at its limit (the event is not counted)."""
        with self.lock:
            now = time.monotonic()
            times = self._recent(key, now)
            if len(times) >= self.limit:
                return False
            times.append(now)
            return True

    def note(self, key: str) -> None:
        """Count one event even over the limit (failures keep an address blocked while they go on)."""
        with self.lock:
            now = time.monotonic()
            times = self._recent(key, now)
            times.append(now)
            while len(times) > self.limit:
                times.popleft()


@dataclass
class Throttle:
    failures: Windows
    requests: Windows
    joins: Windows

    @classmethod
    def default(cls) -> Throttle:
        return cls(Windows(FAILURES_PER_MINUTE), Windows(REQUESTS_PER_MINUTE), Windows(JOINS_PER_MINUTE))
