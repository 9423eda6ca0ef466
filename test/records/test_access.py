"""The MCP server's bearer tokens (access.py): issued, checked, expired, revoked, hashed."""

from __future__ import annotations

from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from robot_skills.records import access
from robot_skills.records.api import Store
from robot_skills.records.roles import OPERATOR, Principal, Role, agent, learner

NOW = datetime(2026, 12, 1, 8, 0, tzinfo=UTC)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    made = Store(tmp_path / 'r.sqlite3')
    yield made
    made.close()


@pytest.mark.parametrize('principal', [agent(), agent('l1'), agent(pair_ids=frozenset({'p1'})),
                                       learner('l1'), OPERATOR])
def test_a_token_stands_for_its_principal_until_it_expires(store: Store, principal) -> None:
    issued = access.issue(store, principal, 2.0, NOW, 'a label')
    assert access.principal_of(store, issued.token, NOW) == principal
    assert access.principal_of(store, issued.token, NOW + timedelta(days=1.99)) == principal
    assert access.principal_of(store, issued.token, NOW + timedelta(days=2)) is None


def test_a_revoked_token_is_refused_and_revoking_is_idempotent(store: Store) -> None:
    issued = access.issue(store, learner('l1'), 30.0, NOW)
    other = access.issue(store, learner('l2'), 30.0, NOW)
    assert access.revoke(store, issued.token_id, NOW)
    assert access.revoke(store, issued.token_id, NOW + timedelta(hours=1))
    assert not access.revoke(store, 'no_such_id', NOW)
    assert access.principal_of(store, issued.token, NOW) is None
    assert access.principal_of(store, other.token, NOW) == learner('l2')
    revoked = {row['token_id']: row['revoked_at'] for row in access.listed(store)}
    assert revoked[issued.token_id] == NOW.isoformat(timespec='seconds')     # the first stands
    assert revoked[other.token_id] is None


def test_a_token_with_another_secret_or_id_is_refused(store: Store) -> None:
    issued = access.issue(store, agent(), 30.0, NOW)
    prefix, token_id, secret = issued.token.split('_', 2)
    other = access.issue(store, OPERATOR, 30.0, NOW)
    forged = [f'{prefix}_{token_id}_{secret[:-1]}x' if secret[-1] != 'x' else
              f'{prefix}_{token_id}_{secret[:-1]}y',
              f'{prefix}_{other.token_id}_{secret}', f'xyz_{token_id}_{secret}',
              f'{prefix}_{token_id}', '', issued.token + 'a' * 300]
    for token in forged:
        assert access.principal_of(store, token, NOW) is None


def test_only_a_hash_of_the_secret_is_stored(store: Store, tmp_path: Path) -> None:
    issued = access.issue(store, learner('l1'), 30.0, NOW)
    secret = issued.token.split('_', 2)[2]
    assert all('secret' not in row and secret not in str(row) for row in access.listed(store))
    store.close()
    for path in tmp_path.iterdir():
        assert secret.encode() not in path.read_bytes(), path.name


@pytest.mark.parametrize('days', [0.0, -1.0, access.MAX_DAYS + 1, float('nan')])
def test_a_token_is_issued_for_a_bounded_time(store: Store, days: float) -> None:
    with pytest.raises(ValueError):
        access.issue(store, agent(), days, NOW)
    assert access.listed(store) == []


def test_principals_are_well_formed() -> None:
    with pytest.raises(ValueError):
        Principal(Role.LEARNER)
    with pytest.raises(ValueError):
        Principal(Role.OPERATOR, 'l1')
    assert 'l1' not in learner('l1').describe()        # no learner id in traces or errors


@given(st.text(max_size=300))
def test_any_presented_text_is_refused_never_raises(text: str) -> None:
    with closing(Store(':memory:')) as store:
        access.issue(store, agent(), 1.0, NOW)
        assert access.principal_of(store, text, NOW) is None
