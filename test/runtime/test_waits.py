"""Waits: a request parked until its key is settled (from any thread), or its timeout."""

from __future__ import annotations

import threading

from rclpy.callback_groups import MutuallyExclusiveCallbackGroup

from robot_skills.runtime.waits import Waits

LONG = 30.0          # a timeout no passing test reaches


def parked(ros, key, timeout, already=lambda: False):
    node = ros.node()
    waits = Waits(node, MutuallyExclusiveCallbackGroup())
    return waits, ros.executor.create_task(waits.wait(key, timeout, already))


def test_a_wait_settled_from_another_thread_is_true(ros):
    waits, task = parked(ros, 'pair-1', LONG)
    ros.executor.spin_once(timeout_sec=0)         # the wait is parked
    waits.settle('pair-2')                        # another key wakes nobody
    ros.executor.spin_once(timeout_sec=0)
    assert not task.done()
    threading.Thread(target=waits.settle, args=('pair-1',)).start()
    assert ros.wait(task) is True


def test_a_wait_nobody_settles_ends_false_at_its_timeout(ros):
    waits, task = parked(ros, 'turn-7', 0.05)
    assert ros.wait(task) is False
    waits.settle('turn-7')                        # too late: the first answer stands
    assert task.result() is False


def test_what_happened_before_the_wait_was_parked_is_not_missed(ros):
    _, task = parked(ros, 'turn-7', LONG, already=lambda: True)
    assert ros.wait(task) is True


def test_every_wait_on_a_key_is_settled_and_then_forgotten(ros):
    node = ros.node()
    waits: Waits[str] = Waits(node, MutuallyExclusiveCallbackGroup())
    tasks = [ros.executor.create_task(waits.wait('k', LONG, lambda: False)) for _ in range(3)]
    ros.until(lambda: len(waits._parked.get('k', ())) == 3, what='three parked waits')
    waits.settle('k')
    assert [ros.wait(task) for task in tasks] == [True, True, True]
    assert waits._parked == {}
