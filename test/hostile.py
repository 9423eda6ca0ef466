"""What anyone on the DDS domain may send: hypothesis strategies for every kind of field.

Text fields get huge strings (past the transport cap), control and format
characters, right-to-left marks, markup and SQL; JSON fields get deep nesting,
numbers beyond 64 bits, NaN, wrong types, missing and unknown fields, broken
syntax. The suites in each node's test folder send them on every input channel
and check the node's documented answer, then that it answers the next input.
The CI profile is derandomised and short; ``HYPOTHESIS_PROFILE=explore`` runs
thousands of examples.
"""

from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

CAP = 100_000          # the guard's default transport cap

# One node per test function serves every example: that is the point (it must survive them).
# CI sends 25 per node; HYPOTHESIS_PROFILE=explore sends the profile's count.
EXPLORE = os.environ.get('HYPOTHESIS_PROFILE', 'ci') != 'ci'
per_node = settings(max_examples=settings.default.max_examples if EXPLORE else 25, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow, HealthCheck.data_too_large])

NASTY = ['', ' ', '\x00', '\x00abc', '\x1b[31m', '\u202e反向', '\u200b\u200d', '\ufeff',
         '<script>alert(1)</script>', "'; DROP TABLE linkage; --", '%s%s%n', '../../etc/passwd',
         '😀' * 40, '\U0010ffff', 'a' * 300, '题' * 2001]


def texts(max_size: int = 300) -> st.SearchStrategy[str]:
    """Any text a ROS string can carry (no lone surrogates: they cannot be encoded)."""
    huge = st.integers(CAP - 2, CAP + 5000).map(lambda n: '路' * n)
    return st.one_of(st.sampled_from(NASTY), st.text(
        st.characters(blacklist_categories=('Cs',)), max_size=max_size), huge)


def ids() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(['', 'same-id', 'x' * 1000]), st.text(
        st.characters(blacklist_categories=('Cs',)), max_size=40))


def _nested(depth: int, opener: str = '[') -> str:
    closer = {'[': ']', '{"a":': '}'}[opener]
    return opener * depth + ('1' if opener != '[' else '') + closer * depth


json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70),
                         st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20))
json_values = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=12)


def json_texts(fields: dict[str, st.SearchStrategy] | None = None) -> st.SearchStrategy[str]:
    """Hostile JSON text; with ``fields``, also objects whose known fields get hostile values."""
    broken = st.sampled_from([
        _nested(1000), _nested(40), _nested(1000, '{"a":'), '{"a": NaN}', '[Infinity]',
        '{"a": 1e999}', '{"x": 9223372036854775808}', '{"x": -9223372036854775809}',
        '"\\ud800"', '{"a": "\\udfff"}', '{', '{"a": 1,}', '', 'null', '[]', '"text"', '42',
        '9' * 5000, '{"' + 'k' * 200 + '": 1}'])
    shaped = json_values.map(lambda v: json.dumps(v, ensure_ascii=False))
    options = [broken, shaped]
    if fields:
        options.append(st.fixed_dictionaries({}, optional={
            name: st.one_of(strategy, json_values) for name, strategy in fields.items()}).map(
                lambda d: json.dumps(d, ensure_ascii=False)))
    return st.one_of(*options)
