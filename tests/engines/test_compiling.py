"""Compilation is said before the wait and timed apart from the answer (issue 52): the
first run of a 1×1 problem took 34 s, nearly all of it compiling the line search,
and reported them as its solving time."""

from __future__ import annotations

import threading
import time

import pytest

from chessplace.runtime import compiling


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that has compiled nothing and told no one."""
    monkeypatch.setattr(compiling, "_spans", [])
    monkeypatch.setattr(compiling, "_open", {})
    monkeypatch.setattr(compiling, "_told", set())
    monkeypatch.setattr(compiling, "_listeners", [])


@pytest.mark.usefixtures("fresh")
def test_spans_are_counted_once_and_only_inside_the_stretch() -> None:
    compiling._spans.extend([(1.0, 3.0), (2.0, 4.0), (2.5, 3.5), (6.0, 7.0)])
    assert compiling.seconds_between(0.0, 10.0) == pytest.approx(4.0)  # 1..4 and 6..7
    assert compiling.seconds_between(3.0, 6.5) == pytest.approx(1.5)
    assert compiling.seconds_between(4.0, 6.0) == 0.0
    assert compiling.seconds_between(8.0, 9.0) == 0.0


@pytest.mark.usefixtures("fresh")
def test_nested_compilations_are_one_and_each_search_is_told_once() -> None:
    told: list[str] = []
    remove = compiling.on_compile(told.append)
    start = time.perf_counter()
    with compiling.compiling("the line search"):
        with compiling.compiling("the line search"), compiling.compiling(None):
            time.sleep(0.05)  # the compilation under test: a span of at least 0.05 s
        assert compiling.seconds_between(start, time.perf_counter()) >= 0.05  # still open
    with compiling.compiling("the line search"), compiling.compiling("the cover search"):
        pass  # nested: the cover search compiles inside the line search's compilation
    remove()
    with compiling.compiling("the bitboard search"):
        pass
    assert told == ["the line search"]
    assert len(compiling._spans) == 3
    assert compiling._open == {}


@pytest.mark.usefixtures("fresh")
def test_compilations_in_other_threads_count_too() -> None:
    def work() -> None:
        with compiling.compiling("the line search"):
            time.sleep(0.05)  # the compilation under test: a span of at least 0.05 s

    start = time.perf_counter()
    threads = [threading.Thread(target=work) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    end = time.perf_counter()
    assert 0.05 <= compiling.seconds_between(start, end) <= end - start


@pytest.mark.usefixtures("fresh")
def test_a_numba_compilation_is_told_before_it_and_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    numba = pytest.importorskip("numba")
    from chessplace.engines.support import jitcache

    monkeypatch.setitem(jitcache.SEARCHES, "chessplace.engines.fake", "the fake search")
    jitcache.watch_compiles()
    told: list[tuple[str, int]] = []
    compiling.on_compile(lambda search: told.append((search, len(compiling._spans))))
    namespace = {"__name__": "chessplace.engines.fake"}
    exec("def twice(x):\n    return 2 * x\n", namespace)
    kernel = numba.njit(cache=False)(namespace["twice"])
    start = time.perf_counter()
    assert kernel(21) == 42
    first = time.perf_counter()
    assert told == [("the fake search", 0)]  # before the compilation ended
    assert 0 < compiling.seconds_between(start, first) <= first - start
    assert kernel(4) == 8  # compiled already: nothing to time
    assert compiling.seconds_between(first, time.perf_counter()) == 0.0
    assert kernel(1.5) == 3.0  # a new signature compiles again, without a second word
    assert told == [("the fake search", 0)]
    assert len(compiling._spans) == 2
    assert jitcache.search_of("numba.np.arrayobj") is None  # Numba's helpers: no word


def test_the_kernel_modules_are_watched() -> None:
    """Every module that defines compiled functions has their compilations told and
    timed, under the name of its search (the GPU's CUDA kernels aside)."""
    from chessplace.engines.support import jitcache
    from tests.paths import ROOT

    source = ROOT / "src"
    kernels = [
        path
        for path in (source / "chessplace" / "engines").rglob("*.py")
        if "\n@njit" in path.read_text(encoding="utf-8")
    ]
    assert len(kernels) >= 9
    for path in kernels:
        module = ".".join(path.relative_to(source).with_suffix("").parts)
        assert "\nwatch_compiles()" in path.read_text(encoding="utf-8"), module
        assert jitcache.search_of(module) not in (None, "a search"), module
    assert jitcache.search_of("chessplace_search_0123") == "the bitboard search"  # generated
