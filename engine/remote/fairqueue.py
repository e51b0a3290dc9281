"""Fair scheduling of several clients' requests on one engine: round robin, one at a time.

The engine runs one request at a time. Waiting requests are kept per client, and clients take
turns: after a client's request runs, every other client with something waiting goes before
its next one, so one client sending many requests cannot starve the rest. That holds for a
client that arrives while another's request runs, too: it goes before the running client's
next request. A sends three requests, then B one: they run A1, B1, A2, A3, and B is told
position 1 (A1 runs before it). :meth:`FairQueue.order` is the order in which waiting requests
will run, which is what each client is told as its queue position. The server's own work (its
first load, reloading the served model after a failed switch) may go first of all. Pure
bookkeeping: no I/O, no threads (the server's event loop owns it).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from engine.core.protocol import Edit, Fill, LoadModel

Work = Edit | Fill | LoadModel


@dataclass
class Job:
    """One client's request. ``local_id`` is the client's id, ``global_id`` the engine's."""

    client: int
    local_id: int | None  # None for a model load (loads carry no id)
    global_id: int
    request: Work


@dataclass
class FairQueue:
    waiting: dict[int, deque[Job]] = field(default_factory=dict)
    turns: deque[int] = field(default_factory=deque)  # clients with work, in turn order
    running: Job | None = None

    def add(self, job: Job, first: bool = False) -> None:
        """Queue ``job`` behind its client's others; ``first``: before everything waiting."""
        jobs = self.waiting.setdefault(job.client, deque())
        if first:
            jobs.appendleft(job)
            if job.client in self.turns:
                self.turns.remove(job.client)
            self.turns.appendleft(job.client)
        elif job.client not in self.turns:
            jobs.append(job)
            self._join_turns(job.client)
        else:
            jobs.append(job)

    def _join_turns(self, client: int) -> None:
        """A client with new work takes its turn after the others, but before the running one's
        next: the running client has just had its turn."""
        running = self.running.client if self.running is not None else None
        if running is not None and running != client and running in self.turns:
            self.turns.insert(self.turns.index(running), client)
        else:
            self.turns.append(client)

    def take(self) -> Job | None:
        """Start the next job (the caller runs it) if nothing runs; None when idle or busy."""
        if self.running is not None or not self.turns:
            return None
        client = self.turns.popleft()
        jobs = self.waiting[client]
        job = jobs.popleft()
        if jobs:
            self.turns.append(client)
        else:
            del self.waiting[client]
        self.running = job
        return job

    def finish(self) -> Job | None:
        job, self.running = self.running, None
        return job

    def remove(self, client: int, local_id: int) -> Job | None:
        """Take a waiting job out of the queue (a cancel before it ran)."""
        jobs = self.waiting.get(client, deque())
        for job in jobs:
            if job.local_id == local_id:
                jobs.remove(job)
                self._forget_if_empty(client)
                return job
        return None

    def drop_client(self, client: int) -> list[Job]:
        """Remove every waiting job of a client that left; the running one stays (cancel it)."""
        jobs = list(self.waiting.pop(client, ()))
        if client in self.turns:
            self.turns.remove(client)
        return jobs

    def in_flight(self, client: int) -> int:
        running = self.running is not None and self.running.client == client
        return len(self.waiting.get(client, ())) + int(running)

    def holds(self, client: int, local_id: int) -> bool:
        if self.running is not None and (self.running.client, self.running.local_id) == (
            client,
            local_id,
        ):
            return True
        return any(job.local_id == local_id for job in self.waiting.get(client, ()))

    def order(self) -> list[Job]:
        """Every waiting job in the order it will run (the turns played forward)."""
        copies = {client: list(jobs) for client, jobs in self.waiting.items()}
        turns = deque(self.turns)
        result: list[Job] = []
        while turns:
            client = turns.popleft()
            result.append(copies[client].pop(0))
            if copies[client]:
                turns.append(client)
        return result

    def positions(self) -> dict[tuple[int, int], int]:
        """(client, local id) → how many requests run before it (the running one included)."""
        ahead = int(self.running is not None)
        return {
            (job.client, job.local_id): ahead + i
            for i, job in enumerate(self.order())
            if job.local_id is not None
        }

    def _forget_if_empty(self, client: int) -> None:
        if not self.waiting.get(client):
            self.waiting.pop(client, None)
            if client in self.turns:
                self.turns.remove(client)
