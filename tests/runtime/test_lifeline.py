"""Child processes (``runtime.lifeline``): ``fan_out`` answers every job once, ``None``
for a child that died without a word, and starts nothing once stopped; a child dies
with its parent, even one killed by SIGKILL (no handler of the parent's runs)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from typing import Any

import pytest

from chessplace.runtime.lifeline import fan_out
from tests.processes import alive
from tests.waiting import wait_until


def _double(sender: Any, value: int) -> None:
    sender.send(2 * value)


def _speak_or_die(sender: Any, speak: bool) -> None:
    if speak:
        sender.send("said")
    else:
        os._exit(1)  # as a solver killed by the OOM killer would


def test_every_job_is_answered_once() -> None:
    answers = list(fan_out(_double, [(value,) for value in range(7)], cores=lambda: 2))
    assert sorted(answers) == [(index, 2 * index) for index in range(7)]


def test_a_child_that_dies_without_a_word_answers_none() -> None:
    answers = dict(fan_out(_speak_or_die, [(True,), (False,), (True,)], cores=lambda: 3))
    assert answers == {0: "said", 1: None, 2: "said"}


def test_a_stopped_fan_out_starts_nothing() -> None:
    assert list(fan_out(_double, [(1,), (2,)], cores=lambda: 1, stopped=lambda: True)) == []


ORPHANED = """
import signal
from chessplace.runtime.lifeline import start_child

def work(sender):
    signal.pause()  # work that never ends by itself

child = start_child(work)
print(child.process.pid, flush=True)
signal.pause()  # the parent, busy until the test kills it
"""


@pytest.mark.skipif(sys.platform != "linux", reason="prctl and /proc")
def test_a_child_dies_with_its_parent_killed_outright() -> None:
    parent = subprocess.Popen([sys.executable, "-c", ORPHANED], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    try:
        assert alive(child)
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=60)
        wait_until(lambda: not alive(child), what="the child gone with its parent")
    finally:
        if alive(child):
            os.kill(child, signal.SIGKILL)
