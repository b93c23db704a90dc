"""`chrf.CHRF`: a drop-in for `sacrebleu.metrics.CHRF`, with the same numbers and strings."""

from __future__ import annotations

import operator
import sys
from collections.abc import Iterable, Sequence
from typing import Any

from chrf import _service
from chrf._core import VERSION as CORE_VERSION
from chrf._errors import InputError, InputTypeError, SettingsError, SettingsTypeError
from chrf._inputs import References, Texts
from chrf._messages import shown
from chrf._service import Corpus
from chrf._settings import Averaging, Beta, Settings, score_name

__all__ = ["CHRF", "CHRFScore", "CHRFSignature", "score_name"]

VERSION = CORE_VERSION
_new_score = object.__new__
SIGNATURE_VERSION = f"chrf-{VERSION}"


class CHRFSignature:
    """sacreBLEU's reproducibility signature, with the same keys, order and abbreviations.

    Settings sacreBLEU does not have appear only when they differ from the default
    (``avg:per_order_f``, ``hypnoref:count``), so a default signature reads exactly like
    sacreBLEU's, but for the version, which names this package.
    """

    def __init__(self, metric: CHRF) -> None:
        if not isinstance(metric, CHRF):
            raise InputTypeError(
                f"metric must be a chrf.CHRF, not {type(metric).__name__}",
                argument="metric",
                reason="wrong_type",
            )
        if metric.num_refs is None:
            raise InputError(
                "Number of references unknown, please evaluate the metric first.",
                argument="metric",
                reason="not_evaluated",
            )
        self._abbr = {
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
            "avg": "a",
            "hypnoref": "hnr",
        }
        s = metric.settings
        self.info: dict[str, Any] = {
            "version": SIGNATURE_VERSION,
            "nrefs": "var" if metric.num_refs == -1 else metric.num_refs,
            "bs": metric.n_bootstrap,
            "ar": None,
            "seed": metric.seed,
            "test": None,
            "lang": None,
            "origlang": None,
            "subset": None,
            "case": "lc" if s.lowercase else "mixed",
            "eff": "no" if s.eps_smoothing else "yes",
            "nc": s.char_order,
            "nw": s.word_order,
            "space": "yes" if s.include_whitespace else "no",
            "avg": None if s.averaging == "precision_recall" else s.averaging,
            "hypnoref": "count" if s.count_hyp_without_ref else None,
        }

    def format(self, short: bool = False) -> str:
        """``key:value`` pairs joined by ``|``, None values left out, the version last."""
        pairs = []
        keys = [key for key in self.info if key != "version"] + ["version"]
        for key in keys:
            value = self.info[key]
            if value is None:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            pairs.append(f"{self._abbr[key] if short else key}:{value}")
        return "|".join(pairs)

    def update(self, key: str, value: Any) -> None:
        """Sets one field of the signature, as sacreBLEU's ``Signature.update`` does."""
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()


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


class CHRF:
    """Drop-in for ``sacrebleu.metrics.CHRF``: same constructor, methods, scores and signature.

    ``references`` in :meth:`corpus_score` may be sacreBLEU's reference streams or one reference
    string per hypothesis; streams of the wrong length raise ValueError instead of being
    truncated. The two keyword-only arguments are this package's (see :class:`chrf.Settings`).
    """

    # sacreBLEU's class constants; every default has its one home in Settings.
    CHAR_ORDER = Settings.char_order
    WORD_ORDER = Settings.word_order
    BETA = Settings.beta

    def __init__(
        self,
        char_order: int = CHAR_ORDER,
        word_order: int = WORD_ORDER,
        beta: Beta = BETA,
        lowercase: bool = Settings.lowercase,
        whitespace: bool = Settings.include_whitespace,
        eps_smoothing: bool = Settings.eps_smoothing,
        references: Sequence[Sequence[str]] | None = None,
        *,
        averaging: Averaging = Settings.averaging,
        count_hyp_without_ref: bool = Settings.count_hyp_without_ref,
    ) -> None:
        self.settings = Settings(
            char_order=char_order,
            word_order=word_order,
            beta=beta,
            lowercase=lowercase,
            include_whitespace=whitespace,
            averaging=averaging,
            eps_smoothing=eps_smoothing,
            count_hyp_without_ref=count_hyp_without_ref,
        )
        self.char_order = self.settings.char_order
        self.word_order = self.settings.word_order
        self.beta = self.settings.beta
        self.order = self.char_order + self.word_order
        self._name = score_name(self.beta, self.word_order)
        self.lowercase = lowercase
        self.whitespace = whitespace
        self.eps_smoothing = eps_smoothing
        self.num_refs: int | None = None
        self.n_bootstrap: int | None = None
        self.seed: str | None = None
        self._ref_cache: list[list[object]] | None = None
        if references is not None:
            self._ref_cache = self._streams(references)

    @classmethod
    def from_settings(cls, settings: Settings) -> CHRF:
        """The metric of a :class:`chrf.Settings`."""
        if not isinstance(settings, Settings):
            raise SettingsTypeError(
                f"settings must be a chrf.Settings, not {type(settings).__name__}",
                argument="settings",
                reason="wrong_type",
            )
        return cls(
            settings.char_order,
            settings.word_order,
            settings.beta,
            settings.lowercase,
            settings.include_whitespace,
            settings.eps_smoothing,
            averaging=settings.averaging,
            count_hyp_without_ref=settings.count_hyp_without_ref,
        )

    def _streams(self, references: References) -> list[list[object]]:
        streams, self.num_refs = _service.reference_streams(references)
        return streams

    def _corpus(self, hypotheses: Texts, references: References | None) -> Corpus:
        if references is None:
            if self._ref_cache is None:
                raise RuntimeError("No references provided and the cache is empty.")
            return _service.read(self.settings, hypotheses, self._ref_cache, "streams")
        return _service.read(self.settings, hypotheses, self._streams(references), "streams")

    def corpus_score(
        self,
        hypotheses: Texts,
        references: References | None,
        n_bootstrap: int = 1,
        *,
        progress: bool = False,
    ) -> CHRFScore:
        """The corpus score; with ``n_bootstrap > 1``, also sacreBLEU's bootstrap 95% interval
        (``progress=True`` draws a progress bar on stderr when it is a terminal)."""
        n_bootstrap = _resample_count(n_bootstrap)
        c = self._corpus(hypotheses, references)
        if n_bootstrap > 1:
            self.n_bootstrap = n_bootstrap
            self.seed, samples = _service.bootstrap(self.settings, c, n_bootstrap, progress)
            result = self._score(_service.score(self.settings, c))
            result.estimate_ci(samples)
            return result
        return self._score(_service.score(self.settings, c))

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> CHRFScore:
        """The score of one hypothesis against one or more references."""
        # The core reads both, naming `hypothesis` and `references[k]`, and drops sacreBLEU's
        # None placeholders, which sacreBLEU does not count as references; it sets num_refs.
        value = _service.compiled_sentence_score(
            self.settings.compiled, hypothesis, references, self
        )
        # CHRFScore.__init__ inlined, attribute for attribute and in its order (so `vars()` is
        # the same): a call of a class with a Python __init__ would be most of a short pair's
        # Python time.
        score = _new_score(CHRFScore)
        score.beta = self.beta
        score.char_order = self.char_order
        score.word_order = self.word_order
        score.name = self._name
        score.score = value
        score._mean = -1.0
        score._ci = -1.0
        score._verbose = ""
        return score

    def get_signature(self) -> CHRFSignature:
        """The reproducibility signature of this metric's settings, as sacreBLEU's."""
        return CHRFSignature(self)

    def _score(self, value: float) -> CHRFScore:
        return CHRFScore(value, self.char_order, self.word_order, self.beta, self._name)


def _resample_count(value: object) -> int:
    """``n_bootstrap`` as an int; as in sacreBLEU, 1 or less means no resampling."""
    if isinstance(value, bool):
        raise SettingsTypeError(
            "n_bootstrap must be an int, not bool", argument="n_bootstrap", reason="wrong_type"
        )
    try:
        count = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise SettingsTypeError(
            f"n_bootstrap must be an int, not {type(value).__name__}",
            argument="n_bootstrap",
            reason="wrong_type",
        ) from None
    if count > sys.maxsize:  # NumPy sizes are C integers
        raise SettingsError(
            f"n_bootstrap must be at most {sys.maxsize}, not {shown(count)}",
            argument="n_bootstrap",
            reason="out_of_range",
        )
    return count
