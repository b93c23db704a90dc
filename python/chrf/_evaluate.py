"""``chrf.compute``: Hugging Face evaluate's "chrf" metric, called as evaluate calls it."""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

from chrf import _service
from chrf._inputs import Texts
from chrf._keywords import renamed
from chrf._settings import Beta, settings_of


class EvaluateResult(TypedDict):
    """The output dict of evaluate's "chrf" metric."""

    score: float
    char_order: int
    word_order: int
    beta: Beta


def compute(
    predictions: Texts,
    references: object,
    *,
    char_order: int = 6,
    word_order: int = 0,
    beta: Beta = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> EvaluateResult:
    """``evaluate.load("chrf").compute(...)`` without evaluate, the Hub or sacreBLEU.

    The arguments, their defaults and the output dict are those of evaluate's metric:
    ``references[i]`` is the reference (a str) or the list of references of
    ``predictions[i]``. Unlike evaluate, predictions may have different numbers of references
    (evaluate raises ValueError). ``score`` is sacreBLEU's corpus score, as evaluate gives it.
    """
    options = {
        "char_order": char_order,
        "word_order": word_order,
        "beta": beta,
        "lowercase": lowercase,
        "whitespace": whitespace,
        "eps_smoothing": eps_smoothing,
    }
    settings = settings_of(renamed("evaluate", options))  # type: ignore[arg-type]
    corpus = _service.read(settings, predictions, references, "per_hypothesis")
    value = _service.score(settings, corpus)
    return {"score": value, "char_order": char_order, "word_order": word_order, "beta": beta}


def evaluate_module() -> str:
    """The path of the Hugging Face evaluate metric that ships with chrf:
    ``evaluate.load(chrf.evaluate_module())`` loads it offline, without the Hub, and its
    ``compute`` is :func:`compute` (evaluate's "chrf" arguments and dict, sacreBLEU's score).
    Loading it needs evaluate (``pip install 'chrf[integrations]'``)."""
    return str(Path(__file__).resolve().parent / "evaluate_chrf")
