"""The ``chrf-components`` 1.0.0 JSON contract (spec §6): strict input, exact output.

``evaluate(request)`` takes the decoded JSON input object and returns either
``{"result": {...}}`` or ``{"error": {"code": "invalid_input", "message": "..."}}``; the message
names the first field that fails, in the contract's validation order. ``evaluate_json(text)``
does the same from JSON text, and is what ``chrf components --input FILE`` runs. It refuses
text longer than `MAX_REQUEST_BYTES` (16 MiB) unparsed: a valid request's texts total 64 KiB,
which JSON escapes grow at most sixfold, so the limit leaves ample room for whitespace.
"""

from __future__ import annotations

import json
from typing import Any

from chrf._api import components
from chrf._errors import InputTypeError
from chrf._keywords import names_in
from chrf._messages import shown
from chrf._options import BY_NAME

__all__ = ["CONTRACT", "ContractError", "dumps", "evaluate", "evaluate_json"]

CONTRACT = "chrf-components 1.0.0"
"""The contract's name and version (spec §6): what ``evaluate`` implements."""
MAX_SEGMENTS = 256
MAX_BYTES = 65_536
MAX_REQUEST_BYTES = 16 * 2**20
#: JSON integers longer than this are not converted (no field takes one; converting a long one
#: takes quadratic time, and beyond Python's int-to-str digit limit it raises).
MAX_INTEGER_DIGITS = 100
#: The options a request may give, in the contract's order, with their defaults (chrf's).
DEFAULTS: dict[str, Any] = {name: BY_NAME[name].default for name in names_in("contract").values()}
REQUIRED = ("hypotheses", "references")
KEYS = (*REQUIRED, *DEFAULTS)
INTEGER_RANGES = {"char_order": (0, 10), "word_order": (0, 4), "beta": (1, 16)}


class ContractError(ValueError):
    """Input the contract refuses; the message names the field."""


def evaluate(request: object) -> dict[str, Any]:
    """The contract's output object for a decoded JSON request (never raises on bad input)."""
    try:
        args = validate(request)
    except ContractError as error:
        return {"error": {"code": "invalid_input", "message": str(error)}}
    # The contract counts every hypothesis n-gram (spec §1.4), unlike sacreBLEU.
    result = components(**args, count_hyp_without_ref=True)
    return {"result": result.to_dict()}


def evaluate_json(text: str | bytes) -> dict[str, Any]:
    """:func:`evaluate` on JSON text: strict UTF-8, no NaN or Infinity, no duplicate keys, at
    most `MAX_REQUEST_BYTES` bytes (characters, for a str)."""
    if isinstance(text, bytearray):
        text = bytes(text)
    if not isinstance(text, (str, bytes)):
        raise InputTypeError(
            f"text must be a str or bytes of JSON, not {type(text).__name__}",
            argument="text",
            reason="wrong_type",
        )
    try:
        request = _loads(text)
    except ContractError as error:
        return {"error": {"code": "invalid_input", "message": str(error)}}
    return evaluate(request)


def dumps(response: dict[str, Any]) -> str:
    """The response as one line of JSON, keys in the contract's order, non-ASCII kept as is."""
    return json.dumps(response, ensure_ascii=False)


def validate(request: object) -> dict[str, Any]:
    """Keyword arguments for :func:`chrf.components`, or ContractError for the first failure."""
    if not isinstance(request, dict):
        raise ContractError("input must be a JSON object")
    for key in request:
        if key not in KEYS:
            raise ContractError(f"unknown key {shown(key)}; allowed keys are {', '.join(KEYS)}")
    for key in REQUIRED:
        if key not in request:
            raise ContractError(f"missing key {key!r}")
    args = {**DEFAULTS, **request}
    _check_segments(args)
    for key in ("char_order", "word_order"):
        _integer(args, key)
    if args["char_order"] == 0 and args["word_order"] == 0:
        raise ContractError("word_order must not be 0 when char_order is 0")
    _integer(args, "beta")
    for key in ("lowercase", "include_whitespace"):
        if not isinstance(args[key], bool):
            raise ContractError(f"{key} must be a boolean")
    if args["averaging"] not in ("precision_recall", "per_order_f"):
        raise ContractError('averaging must be "precision_recall" or "per_order_f"')
    return args


def _check_segments(args: dict[str, Any]) -> None:
    """The checks of a request's texts, in the contract's order (every tool of the contract's
    family makes them): arrays of strings, as many of each, the total size, lone surrogates."""
    hyps = _segments(args, "hypotheses")
    refs = _segments(args, "references")
    if len(hyps) != len(refs):
        raise ContractError(
            f"hypotheses and references must have the same number of segments "
            f"({len(hyps)} != {len(refs)})"
        )
    total = sum(len(t.encode("utf-8", "surrogatepass")) for t in (*hyps, *refs))
    if total > MAX_BYTES:
        raise ContractError(
            f"hypotheses and references must total at most {MAX_BYTES} UTF-8 bytes, not {total}"
        )
    _check_no_lone_surrogates(hyps, "hypotheses")
    _check_no_lone_surrogates(refs, "references")


def _segments(args: dict[str, Any], key: str) -> list[str]:
    value = args[key]
    if not isinstance(value, list):
        raise ContractError(f"{key} must be an array of strings")
    if len(value) > MAX_SEGMENTS:
        raise ContractError(f"{key} must have at most {MAX_SEGMENTS} segments, not {len(value)}")
    if not value:
        raise ContractError(f"{key} must have at least one segment")
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise ContractError(f"{key}[{i}] must be a string")
    return value


def _check_no_lone_surrogates(texts: list[str], key: str) -> None:
    for i, text in enumerate(texts):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as error:
            code = ord(text[error.start])
            raise ContractError(f"{key}[{i}] contains a lone surrogate (U+{code:04X})") from None


def _integer(args: dict[str, Any], key: str) -> None:
    low, high = INTEGER_RANGES[key]
    value = args[key]
    # A JSON boolean decodes to a Python bool, which is an int subclass: not an integer here.
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ContractError(f"{key} must be an integer from {low} to {high}")


def _loads(text: str | bytes) -> object:
    if len(text) > MAX_REQUEST_BYTES:
        raise ContractError(
            f"input must be at most {MAX_REQUEST_BYTES} bytes (16 MiB), the most a request may take"
        )
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ContractError(f"input is not valid UTF-8: {error}") from None
    try:
        return json.loads(
            text,
            object_pairs_hook=_unique_keys,
            parse_constant=_reject_constant,
            parse_int=_integer_of,
        )
    except ContractError:
        raise
    except ValueError as error:
        raise ContractError(f"input is not valid JSON: {error}") from None
    except RecursionError:
        raise ContractError("input is nested too deeply to be a request") from None


class _LongInteger:
    """A JSON integer of more than `MAX_INTEGER_DIGITS` digits: out of every field's range."""


def _integer_of(digits: str) -> int | _LongInteger:
    return _LongInteger() if len(digits.lstrip("-")) > MAX_INTEGER_DIGITS else int(digits)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ContractError(f"duplicate key {shown(key)}")
        result[key] = value
    return result


def _reject_constant(name: str) -> object:
    raise ContractError(f"input is not valid JSON: {name} is not a JSON number")
