"""sacreBLEU's texts of a chrF result, shared by the drop-in (`chrf.CHRF`) and the command line:
the score's name (``chrF2++``), its reproducibility signature, and the score as sacreBLEU prints
it (`CHRFScore`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from chrf._core import VERSION
from chrf._errors import InputError, InputTypeError
from chrf._options import OPTIONS
from chrf._settings import Beta, Settings, score_name

__all__ = [
    "ABBREVIATIONS",
    "SIGNATURE_VERSION",
    "VERSION",
    "CHRFScore",
    "formatted",
    "score_name",
    "signature_info",
]

SIGNATURE_VERSION = f"chrf-{VERSION}"
#: The options sacreBLEU lacks, each with its signature field (`chrf._options.Option.signature`).
OWN_FIELDS = [(option.name, option.signature) for option in OPTIONS if option.signature]
#: The signature's keys, in sacreBLEU's order, with their short forms; then chrf's own options'.
ABBREVIATIONS = {
    "version": "v",
    "nrefs": "#",
    "test": "t",
    "lang": "l",
    "subset": "S",
    "origlang": "o",
    "bs": "bs",
    "ar": "ar",
    "seed": "rs",
    "case": "c",
    "eff": "e",
    "nc": "nc",
    "nw": "nw",
    "space": "s",
    **{key: short for _, (key, short, _) in OWN_FIELDS},
}


def signature_info(
    settings: Settings, num_refs: int, n_bootstrap: int | None = None, seed: str | None = None
) -> dict[str, Any]:
    """The signature's fields, in sacreBLEU's order (None: left out). Settings sacreBLEU does not
    have appear only when they differ from the default (``avg:per_order_f``, ``hypnoref:count``),
    so a default signature reads exactly like sacreBLEU's, but for the version."""
    s = settings
    info = {
        "version": SIGNATURE_VERSION,
        "nrefs": "var" if num_refs == -1 else num_refs,
        "bs": n_bootstrap,
        "ar": None,
        "seed": seed,
        "test": None,
        "lang": None,
        "origlang": None,
        "subset": None,
        "case": "lc" if s.lowercase else "mixed",
        "eff": "no" if s.eps_smoothing else "yes",
        "nc": s.char_order,
        "nw": s.word_order,
        "space": "yes" if s.include_whitespace else "no",
    }
    for name, (key, _, shown) in OWN_FIELDS:
        value = getattr(s, name)
        default = getattr(Settings, name)
        info[key] = None if value == default else value if shown is None else shown
    return info


def formatted(info: dict[str, Any], short: bool = False) -> str:
    """``key:value`` pairs joined by ``|``, None values left out, the version last."""
    pairs = []
    keys = [key for key in info if key != "version"] + ["version"]
    for key in keys:
        value = info[key]
        if value is None:
            continue
        if isinstance(value, bool):
            value = "yes" if value else "no"
        pairs.append(f"{ABBREVIATIONS[key] if short else key}:{value}")
    return "|".join(pairs)


class CHRFScore:
    """A chrF score as sacreBLEU prints it: ``chrF2 = 64.64``, ``chrF2++ = 62.24``."""

    def __init__(
        self, score: float, char_order: int, word_order: int, beta: Beta, name: str | None = None
    ) -> None:
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        # `name` is `score_name(beta, word_order)`, which `CHRF` passes in, formatted once per
        # metric rather than once per sentence score.
        self.name = score_name(beta, word_order) if name is None else name
        self.score = score
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = ""

    def format(
        self,
        width: int = 2,
        score_only: bool = False,
        signature: str = "",
        is_json: bool = False,
    ) -> str:
        """sacreBLEU's `Score.format`, character for character."""
        sc = f"{self.score:.{width}f}"
        if score_only and self._mean <= 0:
            return sc  # the common case of --sentence-level -b, a million times over
        d: dict[str, Any] = {"name": self.name, "score": float(sc), "signature": signature}
        if self._mean > 0:
            confidence_mean = f"{self._mean:.{width}f}"
            confidence_var = f"{self._ci:.{width}f}"
            confidence_str = f"μ = {confidence_mean} ± {confidence_var}"
            sc += f" ({confidence_str})"
            if is_json:
                d["confidence_mean"] = float(confidence_mean)
                d["confidence_var"] = float(confidence_var)
                d["confidence"] = confidence_str
        full_score = f"{self.name}|{signature}" if signature else self.name
        full_score = f"{full_score} = {sc}"
        if self._verbose:
            full_score += f" {self._verbose}"
            d["verbose_score"] = self._verbose
        if score_only:
            return sc
        if is_json:
            import json  # only here: most scores are never printed as JSON

            for param in signature.split("|"):
                key, value = param.split(":")
                d[key] = value
            return json.dumps(d, indent=1, ensure_ascii=False)
        return full_score

    def estimate_ci(self, scores: Sequence[Any]) -> None:
        """Mean and half-width of the 95% interval of bootstrap scores (sacreBLEU's rule)."""
        try:
            raw_scores = sorted(getattr(s, "score", s) for s in scores)
        except TypeError:
            if isinstance(scores, Iterable):
                raise  # scores that do not compare: the caller's own error
            kind = type(scores).__name__
            raise InputTypeError(
                f"scores must be an iterable of scores, not {kind}",
                argument="scores",
                reason="not_a_sequence",
            ) from None
        if not raw_scores:
            raise InputError("scores must not be empty", argument="scores", reason="empty")
        n = len(raw_scores)
        lower_idx = n // 40
        upper_idx = n - lower_idx - 1
        lower, upper = raw_scores[lower_idx], raw_scores[upper_idx]
        self._ci = 0.5 * (upper - lower)
        import statistics  # only here: it is a slow import, and bootstrap runs are rare

        self._mean = statistics.mean(raw_scores)

    def __repr__(self) -> str:
        return self.format()
