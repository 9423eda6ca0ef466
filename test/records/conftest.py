"""A fresh in-memory records desk per test."""

import pytest
from records_desk import Desk


@pytest.fixture
def desk() -> Desk:
    return Desk()
