"""The architecture's rules, checked: settings equal exactly when they score alike."""

from __future__ import annotations

import pickle
from fractions import Fraction

import chrf


def test_settings_of_each_kind_of_beta_differ() -> None:
    kinds = [chrf.Settings(beta=2), chrf.Settings(beta=2.0), chrf.Settings(beta=Fraction(2))]
    assert len(set(kinds)) == 3
    assert all(a != b for k, a in enumerate(kinds) for b in kinds[k + 1 :])
    assert chrf.Settings(beta=0.1) != chrf.Settings(beta=Fraction(0.1))
    # The same kind and value: equal, whatever the value was written as.
    assert chrf.Settings(beta=Fraction(4, 2)) == chrf.Settings(beta=Fraction(2))
    assert hash(chrf.Settings(beta=Fraction(4, 2))) == hash(chrf.Settings(beta=Fraction(2)))
    assert chrf.Settings(word_order=2) == chrf.Settings(word_order=2)
    assert chrf.Settings(word_order=2) != chrf.Settings()


def test_equal_settings_score_alike() -> None:
    # 1 + β² rounds differently for a float β and its exact Fraction: different settings.
    beta = next(
        k / 97 for k in range(1, 1000) if 1 + (k / 97) ** 2 != float(1 + Fraction(k / 97) ** 2)
    )
    as_float, as_fraction = chrf.Settings(beta=beta), chrf.Settings(beta=Fraction(beta))
    assert as_float != as_fraction
    counts = ((3, 2, 1),) * 6
    scores = {s: chrf.Statistics(s, counts, 1).score() for s in (as_float, as_fraction)}
    assert scores[as_float] != scores[as_fraction]


def test_settings_own_their_compiled_form_and_pickle_without_it() -> None:
    settings = chrf.Settings(word_order=2, beta=Fraction(3, 2))
    assert settings.compiled is settings.compiled
    restored = pickle.loads(pickle.dumps(settings))
    assert restored == settings
    assert "compiled" not in vars(restored)
