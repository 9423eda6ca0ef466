"""Shared fixtures: a private ROS domain per test run, a private context per test.

Integration tests start real nodes over real DDS. Isolation: this pytest run
picks its own ``ROS_DOMAIN_ID`` (so parallel CI jobs on one machine never see
each other) and each test gets its own rclpy context and executor, destroyed
afterwards. Waiting is always on futures or on a predicate while spinning the
executor, with a timeout: never ``sleep``.
"""

from __future__ import annotations

import os
import random

import pytest

# Before anything initialises rclpy: one domain per test run, loopback discovery only.
os.environ.setdefault('ROS_DOMAIN_ID', str(random.SystemRandom().randint(110, 230)))
os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')

import sql_statements  # noqa: E402
from hypothesis import settings  # noqa: E402
from ros_harness import Harness  # noqa: E402

# Every statement the stores issue in this run is kept (one per shape) for the query-plan
# tests (test/records/test_query_plans.py, test/coordinator/test_query_plans.py).
sql_statements.collect()

# Property tests explore the same examples on every run, so a CI failure is
# reproducible and never depends on the luck of the draw; explore more locally
# with HYPOTHESIS_PROFILE=explore.
settings.register_profile('ci', derandomize=True, deadline=None)
settings.register_profile('explore', deadline=None, max_examples=2000)
settings.load_profile(os.environ.get('HYPOTHESIS_PROFILE', 'ci'))


@pytest.fixture
def ros():
    """A fresh rclpy context and executor for one test."""
    harness = Harness()
    try:
        yield harness
    finally:
        harness.close()
