"""The contract's related tools (docs/service.md): ``chrf-compute`` 1.0.0, exact chrF, and
``chrf-plus-plus-compute`` 1.0.0, exact chrF++ with the word tokens it scored. Both score as
sacreBLEU 2.6.0 does (spec §1.4's default counting), the corpus and each segment alone, and
validate their input as the ``chrf-components`` contract does, in its order (spec §6)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chrf._api import components
from chrf._messages import shown
from chrf._words import words
from chrf.contract import (
    ContractError,
    _check_segments,
)

__all__ = ["COMPUTE", "PLUS_PLUS_COMPUTE", "RelatedTool"]


@dataclass(frozen=True)
class RelatedTool:
    """A tool's settings: each with its default and, for integers, its inclusive range."""

    defaults: dict[str, Any]
    ranges: dict[str, tuple[int, int]]
    with_words: bool

    @property
    def keys(self) -> tuple[str, ...]:
        return ("hypotheses", "references", *self.defaults)

    def evaluate(self, request: object) -> dict[str, Any]:
        """``{"result": ...}`` or the ``invalid_input`` error of the first failing field."""
        try:
            args = self.validate(request)
        except ContractError as error:
            return {"error": {"code": "invalid_input", "message": str(error)}}
        return {"result": self.result(args)}

    def validate(self, request: object) -> dict[str, Any]:
        if not isinstance(request, dict):
            raise ContractError("input must be a JSON object")
        for key in request:
            if key not in self.keys:
                raise ContractError(
                    f"unknown key {shown(key)}; allowed keys are {', '.join(self.keys)}"
                )
        for key in ("hypotheses", "references"):
            if key not in request:
                raise ContractError(f"missing key {key!r}")
        args = {**self.defaults, **request}
        _check_segments(args)
        for key in self.defaults:
            self._check_setting(key, args[key])
        return args

    def _check_setting(self, key: str, value: object) -> None:
        if key in self.ranges:
            low, high = self.ranges[key]
            # A JSON boolean decodes to a Python bool, an int subclass: not an integer here.
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ContractError(f"{key} must be an integer from {low} to {high}")
        elif not isinstance(value, bool):
            raise ContractError(f"{key} must be a boolean")

    def result(self, args: dict[str, Any]) -> dict[str, Any]:
        settings = {key: args[key] for key in self.defaults}
        hyps, refs = args["hypotheses"], args["references"]
        corpus = components(hyps, refs, **settings)
        return {
            **settings,
            "segment_count": len(hyps),
            "score": corpus.score,
            "score_fraction": corpus.to_dict()["score_fraction"],
            "segments": [self.segment(h, r, settings) for h, r in zip(hyps, refs, strict=True)],
        }

    def segment(self, hyp: str, ref: str, settings: dict[str, Any]) -> dict[str, Any]:
        alone = components([hyp], [ref], **settings)
        found: dict[str, Any] = {
            "score": alone.score,
            "score_fraction": alone.to_dict()["score_fraction"],
        }
        if self.with_words:
            lower = settings["lowercase"]
            found["hypothesis_words"] = words(hyp.lower() if lower else hyp)
            found["reference_words"] = words(ref.lower() if lower else ref)
        return found


_SHARED = {"beta": 2, "lowercase": False, "include_whitespace": False}
COMPUTE = RelatedTool(
    defaults={"char_order": 6, **_SHARED},
    ranges={"char_order": (1, 10), "beta": (1, 16)},
    with_words=False,
)
PLUS_PLUS_COMPUTE = RelatedTool(
    defaults={"char_order": 6, "word_order": 2, **_SHARED},
    ranges={"char_order": (0, 10), "word_order": (1, 4), "beta": (1, 16)},
    with_words=True,
)
