"""The bearer tokens of the records' MCP server over HTTP (issue 18).

An operator issues a token for one principal (a role and its scope) with an
expiry, and may revoke it; the HTTP server turns the ``Authorization: Bearer``
header back into that principal, or refuses the request. The token is shown
once, when issued: ``rsk_<token_id>_<secret>``. The store keeps the id, the
principal, the times and the SHA-256 of the secret (a 256-bit random secret
needs no slow hash: nothing guessable to brute-force), compared in constant
time. A token is good from its issue until ``expires_at`` or its revocation,
whichever comes first.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from robot_skills.records.roles import Principal, Role
from robot_skills.records.store import Store

PREFIX = 'rsk'
MAX_DAYS = 366.0
LISTED = 100         # tokens `token list` shows by default, newest first


@dataclass(frozen=True)
class Issued:
    token_id: str
    token: str              # shown once; only its hash is stored
    expires_at: str


def issue(store: Store, principal: Principal, days: float, now: datetime,
          label: str = '') -> Issued:
    """A new token for ``principal`` good for ``days`` (0 < days <= MAX_DAYS)."""
    if not 0 < days <= MAX_DAYS:
        raise ValueError(f'days: between 0 and {MAX_DAYS:g}')
    token_id, secret = secrets.token_hex(6), secrets.token_urlsafe(32)
    expires = (now + timedelta(days=days)).isoformat(timespec='seconds')
    with store.write():
        store.run('INSERT INTO access_token (token_id, secret_sha256, role, learner_id, '
                  'pair_ids, label, issued_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
                  token_id, _hash(secret), principal.role.value, principal.learner_id,
                  json.dumps(sorted(principal.pair_ids)), label[:200],
                  now.isoformat(timespec='seconds'), expires)
    return Issued(token_id, f'{PREFIX}_{token_id}_{secret}', expires)


def revoke(store: Store, token_id: str, now: datetime) -> bool:
    """Revoke a token by its id (idempotent); False when there is no such token."""
    with store.write():
        found = store.one('SELECT 1 FROM access_token WHERE token_id = ?', token_id)
        store.run('UPDATE access_token SET revoked_at = coalesce(revoked_at, ?) '
                  'WHERE token_id = ?', now.isoformat(timespec='seconds'), token_id)
    return found is not None


def listed(store: Store, limit: int = LISTED) -> list[dict]:
    """The newest ``limit`` tokens, newest first, without their secrets (nor the hashes): a
    school issues thousands, and a listing stays bounded."""
    with store.read():
        rows = store.all('SELECT token_id, role, learner_id, pair_ids, label, issued_at, '
                         'expires_at, revoked_at FROM access_token ORDER BY issued_at DESC '
                         'LIMIT ?', limit)
    return [{**dict(row), 'pair_ids': json.loads(row['pair_ids'])} for row in rows]


def principal_of(store: Store, token: str, now: datetime) -> Principal | None:
    """The principal a presented token stands for; None when it is malformed, unknown,
    revoked or expired (the caller answers all four alike)."""
    parts = token.split('_', 2)
    if len(parts) != 3 or parts[0] != PREFIX or len(token) > 200:
        return None
    with store.read():
        row = store.one('SELECT * FROM access_token WHERE token_id = ?', parts[1])
    if row is None or not hmac.compare_digest(row['secret_sha256'], _hash(parts[2])):
        return None
    if row['revoked_at'] is not None or row['expires_at'] <= now.isoformat(timespec='seconds'):
        return None
    return Principal(Role(row['role']), row['learner_id'],
                     frozenset(json.loads(row['pair_ids'])))


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()
