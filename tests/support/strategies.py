"""Hypothesis strategies shared by the property tests."""
from __future__ import annotations

from hypothesis import strategies as st

# Any value a JSON body can carry: scalars, and small lists and objects of them.
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=2)
    | st.dictionaries(st.text(max_size=3), inner, max_size=2),
    max_leaves=4)
