"""Hypothesis strategies for text with every corner spec §3-4 names, and for settings."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

# Whitespace of Python's set (U+001C-U+001F, NBSP, ...), look-alikes that are not whitespace
# (U+200B, U+180E), combining marks, non-BMP code points, punctuation runs, and case corners
# (final sigma, dotted capital I whose lowercase is two code points).
CORNERS = [
    "a",
    "b",
    "a",
    "b",
    "ab",
    "A",
    " ",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x1d",
    "\x1e",
    "\x1f",
    "\x85",
    "\xa0",
    "\u1680",
    "\u2000",
    "\u200a",
    "\u2028",
    "\u2029",
    "\u202f",
    "\u205f",
    "\u3000",
    "\u200b",
    "\u180e",
    "\ufeff",
    "\u0301",
    "\u0308",
    "e\u0301",
    "\U0001f600",
    "\U00010348",
    "\U00020000",
    "\U0010ffff",
    ".",
    ",",
    "(",
    ")",
    "!",
    "?",
    "'",
    '"',
    "-",
    "...",
    "?!",
    "((",
    "))",
    "«",
    "»",
    "σ",
    "Σ",
    "ς",
    "İ",
    "ß",
    "ﬁ",
]

texts = st.lists(
    st.one_of(st.sampled_from(CORNERS), st.characters(exclude_categories=["Cs"])),
    max_size=24,
).map("".join)

# Texts of up to a few hundred code points, repetitive ones included: the core matches texts of
# at most 64, then 128 units bit-parallel and sorts longer ones, so these cross both bounds.
long_texts = st.lists(
    st.one_of(texts, texts.map(lambda text: text * 5)), min_size=1, max_size=10
).map("".join)

betas = st.one_of(
    st.integers(0, 16),  # 0: chrF0, precision only
    st.fractions(min_value=Fraction(1, 8), max_value=8).filter(lambda f: f > 0),
    st.floats(min_value=0.125, max_value=8.0),
)


@st.composite
def chrf_settings(draw: st.DrawFn, *, exact: bool = True) -> dict[str, Any]:
    char_order = draw(st.integers(0, 10))
    word_order = draw(st.integers(1 if char_order == 0 else 0, 4))
    chosen: dict[str, Any] = {
        "char_order": char_order,
        "word_order": word_order,
        "beta": draw(betas),
        "lowercase": draw(st.booleans()),
        "include_whitespace": draw(st.booleans()),
        "count_hyp_without_ref": draw(st.booleans()),
    }
    eps = False if exact else draw(st.booleans())
    chosen["averaging"] = (
        "precision_recall" if eps else draw(st.sampled_from(["precision_recall", "per_order_f"]))
    )
    if not exact:
        chosen["eps_smoothing"] = eps
    return chosen


@st.composite
def corpora(
    draw: st.DrawFn, *, max_streams: int = 3, text: st.SearchStrategy[str] = texts
) -> tuple[list[str], Any]:
    """Hypotheses with one reference each, or with 1..max_streams reference streams."""
    hyps = draw(st.lists(text, min_size=1, max_size=5))
    n = len(hyps)
    if draw(st.booleans()):
        return hyps, draw(st.lists(text, min_size=n, max_size=n))
    streams = draw(
        st.lists(st.lists(text, min_size=n, max_size=n), min_size=1, max_size=max_streams)
    )
    return hyps, streams
