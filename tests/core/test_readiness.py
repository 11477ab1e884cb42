"""Waiting for a descriptor on an asyncio loop (``hookwire._readiness``): one instance per loop,
nothing left registered after a wait however it ends, real pipes and processes."""

from __future__ import annotations

import asyncio
import gc
import os
import threading

import pytest

from hookwire import _readiness
from hookwire.runner import Command, run

needs_epoll = pytest.mark.skipif(_readiness._EPOLL is None, reason="epoll is Linux only")


def _open_fds() -> set[int]:
    return {int(name) for name in os.listdir("/proc/self/fd")}


@needs_epoll
def test_one_instance_per_loop_whatever_the_number_of_waits() -> None:
    async def main() -> tuple[int, set[int]]:
        loop = asyncio.get_running_loop()
        await run(Command(argv=("true",)))
        after_one = _open_fds()
        for _ in range(20):
            assert (await run(Command(shell="echo hi"))).stdout == b"hi\n"
        hub = _readiness._HUBS[loop]
        return hub.epoll.fileno(), _open_fds() - after_one

    fd, grown = asyncio.run(main())
    assert grown == set()
    gc.collect()
    assert fd not in _open_fds(), "the loop is gone, so is its instance"


@needs_epoll
def test_a_loop_per_thread_gets_its_own_instance() -> None:
    seen: list[int] = []

    def worker() -> None:
        async def main() -> None:
            await run(Command(argv=("true",)))
            seen.append(id(_readiness._HUBS[asyncio.get_running_loop()]))

        asyncio.run(main())

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(seen) == 2 and seen[0] != seen[1]


def test_readable_true_when_written_false_at_the_deadline_nothing_left_behind() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        read, write = os.pipe()
        try:
            late = loop.time() + 0.05
            assert await _readiness.readable(loop, read, late) is False
            assert loop.time() >= late - 0.01
            loop.call_later(0.01, os.write, write, b"x")
            assert await _readiness.readable(loop, read, loop.time() + 5) is True
            hub = _readiness._HUBS.get(loop)
            if hub is not None:
                assert hub.waiters == {}
                hub.epoll.register(read)  # would raise if the wait had left it registered
                hub.epoll.unregister(read)
            # the timer of the wait that was answered is cancelled: no stray result later
            await asyncio.sleep(0)
        finally:
            os.close(read)
            os.close(write)

    asyncio.run(main())


def test_a_cancelled_wait_leaves_nothing_registered() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        read, write = os.pipe()
        try:
            task = asyncio.ensure_future(_readiness.readable(loop, read, None))
            await asyncio.sleep(0.01)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            hub = _readiness._HUBS.get(loop)
            if hub is not None:
                assert hub.waiters == {}
                hub.epoll.register(read)
                hub.epoll.unregister(read)
            # a later wait on the same descriptor works
            os.write(write, b"x")
            assert await _readiness.readable(loop, read, loop.time() + 5) is True
        finally:
            os.close(read)
            os.close(write)

    asyncio.run(main())


# -- a run's first moments: only the exit is watched (asyncio) ---------------------------------

@pytest.fixture
def slow_watch(monkeypatch: pytest.MonkeyPatch) -> float:
    """Output read as it comes only after 0.3 s, so what happens before is deterministic."""
    from hookwire import _process

    monkeypatch.setattr(_process, "_OUTPUT_WATCH_DELAY", 0.3)
    return 0.3


def test_a_hook_writing_more_than_a_pipe_holds_early_gets_it_all_read(slow_watch: float
                                                                     ) -> None:
    size = 1 << 20

    async def main() -> None:
        loop = asyncio.get_running_loop()
        started = loop.time()
        outcome = await run(Command(shell=f"head -c {size} /dev/zero", timeout=30))
        assert outcome.ok and len(outcome.stdout) == size
        # it waited for the watch to begin, once, then ran on
        assert loop.time() - started >= slow_watch

    asyncio.run(main())


def test_what_a_timed_out_hook_wrote_before_the_watch_began_is_kept(slow_watch: float) -> None:
    async def main() -> None:
        outcome = await run(Command(shell="printf early; exec sleep 30", timeout=0.1))
        assert outcome.kind.name == "TIMED_OUT"
        assert outcome.stdout == b"early"

    asyncio.run(main())


def test_a_cancelled_run_hands_over_what_was_written_before_the_watch(slow_watch: float
                                                                      ) -> None:
    seen = []

    async def main() -> None:
        task = asyncio.ensure_future(run(Command(shell="printf early >&2; exec sleep 30"),
                                         on_cancel=seen.append))
        await asyncio.sleep(0.1)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    (outcome,) = seen
    assert outcome.kind.name == "CANCELLED" and outcome.stderr == b"early"


def test_a_quick_hook_wakes_the_loop_once() -> None:
    """Done within the watch delay, a hook that writes and exits costs one wake-up: the
    instance reports only its exit."""

    async def main() -> int:
        loop = asyncio.get_running_loop()
        await run(Command(argv=("true",)))
        hub = _readiness._HUBS.get(loop)
        if hub is None:
            pytest.skip("no epoll here")
        calls = 0
        ready = hub.ready

        def counting() -> None:
            nonlocal calls
            calls += 1
            ready()

        loop.remove_reader(hub.epoll.fileno())
        loop.add_reader(hub.epoll.fileno(), counting)
        outcome = await run(Command(shell="echo one; echo two >&2", timeout=30))
        assert (outcome.stdout, outcome.stderr) == (b"one\n", b"two\n")
        return calls

    # a loaded machine may take longer than the delay to run it: then it is read as it comes
    assert min(asyncio.run(main()) for _ in range(5)) == 1


def test_more_waits_at_once_than_one_batch_all_end() -> None:
    """More hooks than the instance reports in one batch (64), all waiting at once: each run
    ends with its own output."""

    async def main() -> list[bytes]:
        results: list[bytes] = [b""] * 100

        async def one(i: int) -> None:
            results[i] = (await run(Command(shell=f"echo {i}", timeout=60))).stdout

        await asyncio.gather(*(one(i) for i in range(100)))
        return results

    assert asyncio.run(main()) == [f"{i}\n".encode() for i in range(100)]
