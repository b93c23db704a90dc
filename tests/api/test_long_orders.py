"""Long orders (char_order and word_order up to 40 and beyond) on texts that repeat themselves:
every path gives sacreBLEU's counts and floats, and a long segment's work grows with its text,
not faster (the core sorts its windows by their first max_order units only)."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF as SacreCHRF

import chrf

# Few distinct units, pieces repeated many times: windows of long orders shared within and
# across the texts, and texts longer than the 128 units of the core's bit-parallel path.
ALPHABET = "abcdefgh ."
pieces = st.text(ALPHABET, min_size=1, max_size=12)


@st.composite
def repetitive(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.tuples(pieces, st.integers(1, 30)), min_size=1, max_size=8))
    text = "".join(piece * count for piece, count in parts)
    if draw(st.booleans()):
        text += text[draw(st.integers(0, len(text))) :]  # a copy of its own end
    return text


@settings(deadline=None, max_examples=60)
@given(
    hyp=repetitive(),
    refs=st.lists(repetitive(), min_size=1, max_size=2),
    char_order=st.integers(1, 40),
    word_order=st.integers(0, 40),
    include_whitespace=st.booleans(),
)
def test_long_orders_score_as_sacrebleu(
    hyp: str, refs: list[str], char_order: int, word_order: int, include_whitespace: bool
) -> None:
    options = {"char_order": char_order, "word_order": word_order}
    theirs = SacreCHRF(**options, whitespace=include_whitespace)
    sentence = theirs.sentence_score(hyp, refs).score
    ours = {"include_whitespace": include_whitespace, **options}
    streams = [[ref] for ref in refs]
    assert chrf.sentence_scores([hyp], [refs], layout="per_hypothesis", **ours)[0] == sentence
    assert chrf.score([hyp], streams, **ours) == theirs.corpus_score([hyp], streams).score
    # The counts themselves, against the first reference.
    stats = chrf.segment_statistics([hyp], [refs[0]], **ours)[0]
    expected = theirs._extract_corpus_statistics([hyp], [[refs[0]]])[0]
    assert stats.ravel().tolist() == expected
    # pairwise counts every distinct text once (another algorithm): the same float.
    matrix = chrf.pairwise([hyp], refs, **ours)
    scores = [chrf.sentence_scores([hyp], [ref], **ours)[0] for ref in refs]
    assert matrix[0].tolist() == scores


BOUNDED = """
import sys, chrf
base = "".join(chr(0x61 + (i * i + 7 * i) % 23) + " " * (i % 5 == 0) for i in range(40_000))
hyp = (base * 60)[:2_000_000]
ref = (base[17:] + base[:17]) * 60
ref = ref[:1_900_000]
scores = [
    chrf.sentence_scores([hyp], [ref], char_order=40)[0],
    chrf.score([hyp], [ref], char_order=40),
    chrf.pairwise([hyp], [ref], char_order=40)[0, 0],
]
assert len(set(scores)) == 1, scores
print(scores[0])
"""


def test_a_long_segment_at_order_40_takes_work_in_proportion_to_its_text() -> None:
    # Regression: the windows of long orders were sorted by every unit of their suffixes, in as
    # many rounds as the longest repeat has doublings, each slower as the text grows: a
    # segment of 20M characters took minutes. A generous bound, far beyond a loaded machine's
    # time for the three calls, and far below the old growth's at 20M.
    done = subprocess.run(
        [sys.executable, "-c", BOUNDED], capture_output=True, text=True, timeout=180, check=False
    )
    assert done.returncode == 0, done.stderr
    assert 0 < float(done.stdout) < 100
