"""Model weights of log-probabilities (mbrs' ``reference_lprobs``), without importing torch: a
torch tensor is read through its own methods, anything else through NumPy."""

from __future__ import annotations

import math

import numpy as np

from chrf._errors import InputError, InputTypeError


def weights_of_lprobs(lprobs: object, count: int) -> list[float] | None:
    """The weights of log-probabilities, softmax(lprobs) in proportion: each exp(l - max l),
    computed by NumPy in float64, taken at its exact value, as every chrf weight is: a weight
    1e-30 of the largest is kept as it is, not rounded to 0 (reference aggregation's counts are
    then wide integers). ``lprobs``: a torch tensor (on any device), a NumPy array or a list of
    numbers; None for None."""
    if lprobs is None:
        return None
    if hasattr(lprobs, "detach"):  # a torch tensor
        lprobs = lprobs.detach().to(device="cpu").double().numpy()
    try:
        values = np.asarray(lprobs, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise InputTypeError(
            "reference_lprobs must be a torch tensor, a NumPy array or a list of numbers, "
            f"not {type(lprobs).__name__}",
            argument="reference_lprobs",
            reason="wrong_type",
        ) from None
    if values.size != count:
        raise InputError(
            f"reference_lprobs has {values.size} values but there are {count} references",
            argument="reference_lprobs",
            reason="length_mismatch",
        )
    if count == 0:
        return None  # no references: chrf says so
    largest = float(values.max())
    if not math.isfinite(largest):
        raise InputError(
            "reference_lprobs must have a finite largest value",
            argument="reference_lprobs",
            reason="not_finite",
        )
    weights: list[float] = np.exp(values - largest).tolist()
    return weights
