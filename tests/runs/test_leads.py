"""The local executor's queue sends an analysis's first point ahead of its others, never
leaving a worker idle for it, and keeps the order of the analyses otherwise."""

from __future__ import annotations

import concurrent.futures

import pytest

from litrec.runs.leads import LeadQueue


class Pool:
    """A pool whose calls finish when the test says: `sent` is what went in, in order."""

    def __init__(self, refuse: BaseException | None = None):
        self.sent: list[str] = []
        self.futures: dict[str, concurrent.futures.Future] = {}
        self.refuse = refuse

    def send(self, fn, arg):
        if self.refuse is not None:
            raise self.refuse
        self.sent.append(arg)
        self.futures[arg] = concurrent.futures.Future()
        return self.futures[arg]

    def finish(self, name, error: BaseException | None = None):
        if error is None:
            self.futures[name].set_result(f"{name} done")
        else:
            self.futures[name].set_exception(error)


def queue(pool, slots=2, **groups):
    """A queue of `slots` workers and, for each group, its calls (named group + index)."""
    q = LeadQueue(pool.send, slots)
    futures = {}
    with q.holding():
        for group, n in groups.items():
            for i in range(1, n + 1):
                futures[f"{group}{i}"] = q.submit(str, f"{group}{i}", group=group)
        assert pool.sent == []
    return q, futures


def test_a_groups_others_wait_for_its_first_while_another_group_goes():
    pool = Pool()
    _, futures = queue(pool, a=3, b=2)
    assert pool.sent == ["a1", "b1"]          # not a2: a1 compiles what a2 would load
    pool.finish("a1")
    assert pool.sent == ["a1", "b1", "a2"]
    pool.finish("b1")
    assert pool.sent == ["a1", "b1", "a2", "a3"]  # a's points before b's: a is written first
    pool.finish("a2")
    assert pool.sent[-1] == "b2"
    pool.finish("a3")
    pool.finish("b2")
    assert [futures[n].result(timeout=1) for n in ("a1", "a2", "a3", "b1", "b2")] == [
        "a1 done", "a2 done", "a3 done", "b1 done", "b2 done"]


def test_a_free_worker_takes_a_held_point_where_nothing_else_waits():
    pool = Pool()
    queue(pool, slots=3, a=3)
    assert pool.sent == ["a1", "a2", "a3"]


def test_at_most_one_call_per_worker_is_in_the_pool():
    pool = Pool()
    q, _ = queue(pool, slots=2, a=1, b=1, c=1, d=1)
    assert pool.sent == ["a1", "b1"] and q.waiting() == 2
    pool.finish("b1")
    assert pool.sent == ["a1", "b1", "c1"] and q.waiting() == 1


def test_ungrouped_calls_go_in_order():
    pool = Pool()
    q = LeadQueue(pool.send, 1)
    for name in ("x", "y", "z"):
        q.submit(str, name)
    for name in ("x", "y"):
        pool.finish(name)
    assert pool.sent == ["x", "y", "z"]


def test_a_failed_lead_lets_its_group_go_and_the_failure_reaches_its_future():
    pool = Pool()
    _, futures = queue(pool, slots=2, a=2, b=2)
    pool.finish("a1", ValueError("a point raised"))
    assert pool.sent == ["a1", "b1", "a2"]
    with pytest.raises(ValueError, match="a point raised"):
        futures["a1"].result(timeout=1)


def test_a_waiting_call_can_be_cancelled_a_sent_one_cannot():
    pool = Pool()
    _, futures = queue(pool, slots=1, a=1, b=1)
    assert futures["b1"].cancel() is True
    assert futures["a1"].cancel() is False
    pool.finish("a1")
    assert pool.sent == ["a1"]
    assert futures["b1"].cancelled()


def test_a_refused_call_fails_with_the_pools_reason():
    pool = Pool(refuse=concurrent.futures.BrokenExecutor("the pool is broken"))
    _, futures = queue(pool, a=2)
    for name in ("a1", "a2"):
        with pytest.raises(concurrent.futures.BrokenExecutor, match="broken"):
            futures[name].result(timeout=1)


def test_close_cancels_what_waits_and_refuses_more():
    pool = Pool()
    q, futures = queue(pool, slots=1, a=1, b=2)
    q.close()
    assert futures["b1"].cancelled() and futures["b2"].cancelled()
    assert not futures["a1"].cancelled()
    pool.finish("a1")
    assert pool.sent == ["a1"] and futures["a1"].result(timeout=1) == "a1 done"
    with pytest.raises(RuntimeError, match="after shutdown"):
        q.submit(str, "c1", group="c")


def test_a_later_run_of_the_same_group_has_a_lead_of_its_own():
    pool = Pool()
    q, _ = queue(pool, slots=2, a=2)  # alone: both go
    pool.finish("a1")
    pool.finish("a2")
    with q.holding():
        for name in ("a3", "a4"):
            q.submit(str, name, group="a")
        q.submit(str, "b1", group="b")
    assert pool.sent[2:] == ["a3", "b1"]  # a4 waits for a3, as a2 would have for a1


def test_outside_holding_a_call_goes_as_soon_as_a_worker_is_free():
    pool = Pool()
    q = LeadQueue(pool.send, 2)
    q.submit(str, "a1", group="a")
    q.submit(str, "a2", group="a")  # no other call is queued yet: it goes
    q.submit(str, "b1", group="b")
    assert pool.sent == ["a1", "a2"]
