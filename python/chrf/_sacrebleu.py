"""`chrf.CHRF`: a drop-in for `sacrebleu.metrics.CHRF`, with the same numbers and strings."""

from __future__ import annotations

import operator
import sys
from collections.abc import Sequence
from typing import Any

from chrf import _service
from chrf._errors import InputError, InputTypeError, SettingsError, SettingsTypeError
from chrf._inputs import References, Texts
from chrf._keywords import named_by, renamed
from chrf._messages import shown
from chrf._options import OPTIONS
from chrf._service import Corpus
from chrf._settings import Beta, Settings
from chrf._signature import ABBREVIATIONS, CHRFScore, formatted, score_name, signature_info
from chrf._signature import SIGNATURE_VERSION as SIGNATURE_VERSION  # the tests' name of it
from chrf._signature import VERSION as VERSION

# Not typing's own: the first score would import typing (see chrf/__init__.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing_extensions import Unpack

    from chrf._settings import OwnOptions

__all__ = ["CHRF", "CHRFScore", "CHRFSignature", "score_name"]

#: The options sacreBLEU lacks, which `CHRF` takes as keyword arguments (`OwnOptions`).
OWN_OPTIONS = frozenset(option.name for option in OPTIONS if "sacrebleu" not in option.names)

_new_score = object.__new__


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
        self._abbr = dict(ABBREVIATIONS)
        self.info: dict[str, Any] = signature_info(
            metric.settings, metric.num_refs, metric.n_bootstrap, metric.seed
        )

    def format(self, short: bool = False) -> str:
        """``key:value`` pairs joined by ``|``, None values left out, the version last."""
        return formatted(self.info, short)

    def update(self, key: str, value: Any) -> None:
        """Sets one field of the signature, as sacreBLEU's ``Signature.update`` does."""
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()


class CHRF:
    """Drop-in for ``sacrebleu.metrics.CHRF``: same constructor, methods, scores and signature.

    ``references`` in :meth:`corpus_score` may be sacreBLEU's reference streams or one reference
    string per hypothesis; streams of the wrong length raise ValueError instead of being
    truncated. This package's options that sacreBLEU lacks are keyword arguments besides
    sacreBLEU's (see :class:`chrf.Settings`).
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
        **own: Unpack[OwnOptions],
    ) -> None:
        for name in own.keys() - OWN_OPTIONS:  # as Python refuses a keyword it does not know
            raise TypeError(f"CHRF.__init__() got an unexpected keyword argument {name!r}")
        given = {
            "char_order": char_order,
            "word_order": word_order,
            "beta": beta,
            "lowercase": lowercase,
            "whitespace": whitespace,
            "eps_smoothing": eps_smoothing,
            **own,
        }
        self.settings = Settings(**renamed("sacrebleu", given))
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
        return cls(**named_by("sacrebleu", settings.options()))

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
