"""Arrow string columns as arguments (issue 31): equal to the list path in every entry point."""

from __future__ import annotations

import struct
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chrf
from strategies import texts

HYPOTHESES = [
    "The cat sat on the mat.",
    "",
    "Grüße aus Zürich — 😀 und 𝔘𝔫𝔦𝔠𝔬𝔡𝔢.",
    "ΣΊΣΥΦΟΣ ΟΔΟΣ",
    "a",
    "日本語のテキストです",
    "  spaces   everywhere  ",
    "İstanbul'da KIŞ",
]
REFERENCES = [
    "The cat is on the mat.",
    "nothing",
    "Grüsse aus Zürich 😀 und Unicode.",
    "σίσυφος οδός",
    "",
    "日本語の文章です",
    "spaces everywhere",
    "istanbul'da kış",
]
SECOND = [
    "A cat sat on a mat.",
    "",
    "Viele Grüße aus Zürich.",
    "ΣΊΣΥΦΟΣ",
    "b",
    "日本語",
    "spaces",
    "İSTANBUL",
]

Maker = Callable[[list[str]], Any]


def chunked(texts: list[str]) -> pa.ChunkedArray:
    """A chunked array with an empty chunk first and last and one in the middle."""
    middle = len(texts) // 2
    return pa.chunked_array([[], texts[:middle], [], texts[middle:], []], type=pa.string())


def sliced(texts: list[str]) -> pa.Array:
    """An array whose data starts and ends inside a larger buffer (a non-zero offset)."""
    return pa.array(["before", *texts, "after"], type=pa.large_string()).slice(1, len(texts))


MAKERS: dict[str, Maker] = {
    "string": lambda t: pa.array(t, type=pa.string()),
    "large_string": lambda t: pa.array(t, type=pa.large_string()),
    "string_view": lambda t: pa.array(t, type=pa.string_view()),
    "chunked": chunked,
    "chunked_view": lambda t: pa.chunked_array([t[:3], [], t[3:]], type=pa.string_view()),
    "sliced": sliced,
    "polars": lambda t: pl.Series(t),
}


@pytest.fixture(params=list(MAKERS), ids=list(MAKERS))
def make(request: pytest.FixtureRequest) -> Maker:
    return MAKERS[request.param]


OPTIONS = [
    {},
    {"word_order": 2},
    {"lowercase": True},
    {"lowercase": True, "word_order": 2},
    {"eps_smoothing": True, "beta": 3, "include_whitespace": True},
    {"char_order": 4, "word_order": 1, "averaging": "per_order_f"},
]


def same(a: object, b: object) -> None:
    if isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray)
        assert a.dtype == b.dtype
        assert a.shape == b.shape
        np.testing.assert_array_equal(a, b)
    else:
        assert a == b


@pytest.mark.parametrize("options", OPTIONS, ids=repr)
def test_corpus_functions_equal_the_list_path(make: Maker, options: dict[str, Any]) -> None:
    hyps, refs = make(HYPOTHESES), make(REFERENCES)
    for function in (
        chrf.score,
        chrf.statistics,
        chrf.segment_statistics,
        chrf.sentence_scores,
    ):
        same(function(hyps, refs, **options), function(HYPOTHESES, REFERENCES, **options))
    if not options.get("eps_smoothing"):
        assert chrf.components(hyps, refs, **options) == chrf.components(
            HYPOTHESES, REFERENCES, **options
        )


@pytest.mark.parametrize("options", OPTIONS, ids=repr)
def test_several_reference_columns_are_streams(make: Maker, options: dict[str, Any]) -> None:
    streams = [make(REFERENCES), make(SECOND)]
    expected = [REFERENCES, SECOND]
    hyps = make(HYPOTHESES)
    assert chrf.score(hyps, streams, **options) == chrf.score(HYPOTHESES, expected, **options)
    same(
        chrf.sentence_scores(hyps, tuple(streams), **options),
        chrf.sentence_scores(HYPOTHESES, expected, **options),
    )
    same(
        chrf.segment_statistics(hyps, streams, layout="streams", **options),
        chrf.segment_statistics(HYPOTHESES, expected, **options),
    )


class StreamExporter:
    """An object that exports a column as an Arrow stream and nothing else (not iterable)."""

    def __init__(self, texts: list[str]) -> None:
        self._column = pa.chunked_array([texts[:2], texts[2:]], type=pa.string())

    def __arrow_c_stream__(self, requested_schema: object = None) -> object:
        return self._column.__arrow_c_stream__(requested_schema)


class ArrayExporter:
    """An object that exports a column as one Arrow array and nothing else."""

    def __init__(self, texts: list[str]) -> None:
        self._array = pa.array(texts, type=pa.large_string())

    def __arrow_c_array__(self, requested_schema: object = None) -> tuple[object, object]:
        return self._array.__arrow_c_array__(requested_schema)


@pytest.mark.parametrize("exporter", [StreamExporter, ArrayExporter])
def test_any_capsule_exporter_is_a_column(exporter: type) -> None:
    hyps, refs, second = exporter(HYPOTHESES), exporter(REFERENCES), exporter(SECOND)
    assert chrf.score(hyps, refs) == chrf.score(HYPOTHESES, REFERENCES)
    streams = [REFERENCES, SECOND]
    assert chrf.score(hyps, [refs, second]) == chrf.score(HYPOTHESES, streams)
    same(chrf.pairwise(hyps, refs), chrf.pairwise(HYPOTHESES, REFERENCES))


def test_arrow_and_list_columns_mix() -> None:
    assert chrf.score(pa.array(HYPOTHESES), REFERENCES) == chrf.score(HYPOTHESES, REFERENCES)
    assert chrf.score(HYPOTHESES, pl.Series(REFERENCES)) == chrf.score(HYPOTHESES, REFERENCES)
    mixed = [pa.array(REFERENCES, type=pa.string_view()), SECOND]
    assert chrf.score(HYPOTHESES, mixed) == chrf.score(HYPOTHESES, [REFERENCES, SECOND])


PER_HYPOTHESIS: list[list[str | None]] = [
    ["The cat is on the mat.", None, "There is a cat."],
    ["nothing"],
    [None, "Grüsse aus Zürich 😀 und Unicode."],
    ["σίσυφος οδός", "ΣΊΣΥΦΟΣ"],
    [""],
    ["日本語の文章です", None],
    ["spaces everywhere"],
    ["istanbul'da kış", "İstanbul'da kış", None],
]


@pytest.mark.parametrize("list_type", [pa.list_(pa.string()), pa.large_list(pa.large_string())])
@pytest.mark.parametrize("options", OPTIONS, ids=repr)
def test_list_column_holds_the_references_of_each_hypothesis(
    list_type: pa.DataType, options: dict[str, Any]
) -> None:
    refs = pa.array(PER_HYPOTHESIS, type=list_type)
    for layout in (None, "per_hypothesis"):
        for function in (chrf.score, chrf.statistics, chrf.sentence_scores):
            expected = function(HYPOTHESES, PER_HYPOTHESIS, layout="per_hypothesis", **options)
            same(function(pa.array(HYPOTHESES), refs, layout=layout, **options), expected)
    same(
        chrf.segment_statistics(HYPOTHESES, pl.Series(PER_HYPOTHESIS), **options),
        chrf.segment_statistics(HYPOTHESES, PER_HYPOTHESIS, layout="per_hypothesis", **options),
    )


def test_list_column_in_chunks_with_a_string_view_item() -> None:
    refs = pa.chunked_array(
        [PER_HYPOTHESIS[:3], [], PER_HYPOTHESIS[3:]], type=pa.list_(pa.string_view())
    )
    assert chrf.score(HYPOTHESES, refs) == chrf.score(
        HYPOTHESES, PER_HYPOTHESIS, layout="per_hypothesis"
    )


def test_batch_functions_equal_the_list_path(make: Maker) -> None:
    hyps, refs = make(HYPOTHESES), make(REFERENCES)
    for options in ({}, {"word_order": 2}, {"lowercase": True}):
        same(chrf.pairwise(hyps, refs, **options), chrf.pairwise(HYPOTHESES, REFERENCES, **options))
        same(
            chrf.aggregate(hyps, refs, weights=range(1, 9), **options),
            chrf.aggregate(HYPOTHESES, REFERENCES, weights=range(1, 9), **options),
        )
        same(
            chrf.expected_utility(hyps, refs, **options),
            chrf.expected_utility(HYPOTHESES, REFERENCES, **options),
        )
        batch = [hyps, make(SECOND)]
        listed = [HYPOTHESES, SECOND]
        same(
            chrf.pairwise_batched(batch, [refs, refs], **options),
            chrf.pairwise_batched(listed, [REFERENCES, REFERENCES], **options),
        )
        same(
            chrf.aggregate_batched(batch, [refs, SECOND], **options),
            chrf.aggregate_batched(listed, [REFERENCES, SECOND], **options),
        )
        same(
            chrf.expected_utility_batched(batch, [refs, refs], **options),
            chrf.expected_utility_batched(listed, [REFERENCES, REFERENCES], **options),
        )
    assert chrf.mbr(hyps).hypothesis == chrf.mbr(HYPOTHESES).hypothesis


def test_explain_equals_the_list_path(make: Maker) -> None:
    for options in ({}, {"word_order": 2, "lowercase": True}):
        arrow = chrf.explain(make(HYPOTHESES), [make(REFERENCES), make(SECOND)], **options)
        listed = chrf.explain(HYPOTHESES, [REFERENCES, SECOND], **options)
        assert arrow.score == listed.score
        assert arrow.orders == listed.orders
        for name in ("references", "segment_statistics", "sentence_scores", "leave_one_out"):
            same(getattr(arrow, name), getattr(listed, name))
        assert arrow.costliest(3) == listed.costliest(3)


def test_sacrebleu_facade_reads_arrow_references() -> None:
    metric = chrf.CHRF(word_order=2)
    expected = metric.corpus_score(HYPOTHESES, [REFERENCES, SECOND])
    got = metric.corpus_score(pa.array(HYPOTHESES), [pa.array(REFERENCES), pl.Series(SECOND)])
    assert got.score == expected.score
    one = metric.sentence_score(HYPOTHESES[2], pa.array([REFERENCES[2], SECOND[2]]))
    assert one.score == metric.sentence_score(HYPOTHESES[2], [REFERENCES[2], SECOND[2]]).score


def test_a_null_is_named() -> None:
    with pytest.raises(ValueError, match=r"^hypotheses\[2\] is null$"):
        chrf.score(pa.array(["a", "b", None]), ["a", "b", "c"])
    with pytest.raises(ValueError, match=r"^references\[4\] is null$"):
        chrf.sentence_scores(["a"] * 5, pa.chunked_array([["a", "b"], [], ["c", "d", None]]))
    with pytest.raises(ValueError, match=r"^references\[1\]\[0\] is null$"):
        chrf.score(["a"], [pa.array(["a"]), pl.Series([None], dtype=pl.String)])
    with pytest.raises(ValueError, match=r"^hypotheses\[1\]\[1\] is null$"):
        chrf.pairwise_batched([["a", "b"], pa.array(["a", None])], [["a"], ["b"]])
    with pytest.raises(ValueError, match=r"^references\[1\] is null$"):
        chrf.score(["a", "b"], pa.array([["a"], None], type=pa.list_(pa.string())))
    with pytest.raises(ValueError, match=r"^references\[1\] has no reference: hypothesis 1"):
        chrf.score(["a", "b"], pa.array([["a"], [None, None]], type=pa.list_(pa.string())))
    with pytest.raises(ValueError, match=r"^references\[0\] has no reference: hypothesis 0"):
        chrf.score(["a"], pa.array([[]], type=pa.list_(pa.string())))


def test_dictionary_encoded_strings_are_read_as_their_strings() -> None:
    """pyarrow's dictionary_encode() and polars' Categorical: scored as the strings they hold."""
    hyps, refs = list(HYPOTHESES), list(REFERENCES)
    expected = chrf.sentence_scores(hyps, refs, word_order=2)
    encoded = pa.chunked_array(
        [pa.array(hyps[:3]).dictionary_encode(), pa.array(hyps[3:]).dictionary_encode()]
    )
    assert encoded.type == pa.dictionary(pa.int32(), pa.string())
    np.testing.assert_array_equal(chrf.sentence_scores(encoded, refs, word_order=2), expected)
    categorical = pl.Series(refs, dtype=pl.Categorical)
    np.testing.assert_array_equal(chrf.sentence_scores(hyps, categorical, word_order=2), expected)
    assert chrf.score(hyps, categorical) == chrf.score(hyps, refs)
    with pytest.raises(ValueError, match=r"^hypotheses\[1\] is null$"):
        chrf.score(pa.array(["a", None]).dictionary_encode(), ["a", "b"])
    with pytest.raises(TypeError, match=r"^hypotheses must be .* not dictionary<int64>$"):
        chrf.score(pa.array([1, 2]).dictionary_encode(), ["a", "b"])


def test_wrong_types_are_named() -> None:
    with pytest.raises(TypeError, match=r"^hypotheses must be an Arrow column of strings"):
        chrf.score(pa.array([1, 2]), ["a", "b"])
    with pytest.raises(TypeError, match=r"^references must be an Arrow column of strings.*int64"):
        chrf.score(["a", "b"], pl.Series([1, 2]))
    with pytest.raises(TypeError, match=r"^references\[1\] must be an Arrow column of strings"):
        chrf.score(["a"], [["a"], pa.array([1.5])])
    with pytest.raises(TypeError, match=r"^hypotheses must be an Arrow column of strings"):
        chrf.score(pa.array([["a"]]), ["a"])
    with pytest.raises(TypeError, match=r"^references must be .* not list<int64>$"):
        chrf.score(["a"], pa.array([[1]]))


def test_a_list_column_is_not_streams() -> None:
    refs = pa.array([["a", "b"], ["c"]])
    with pytest.raises(ValueError, match="references is an Arrow column of lists"):
        chrf.score(["a", "b"], refs, layout="streams")


def test_lengths_are_checked() -> None:
    with pytest.raises(ValueError, match="references has 2 segments but hypotheses has 3"):
        chrf.score(pa.array(["a", "b", "c"]), pa.array(["a", "b"]))
    with pytest.raises(ValueError, match="references has 1 items but hypotheses has 2"):
        chrf.score(["a", "b"], pa.array([["a"]]))
    with pytest.raises(ValueError, match="hypotheses must not be empty"):
        chrf.score(pa.array([], type=pa.string()), pa.array([], type=pa.string()))


def test_inputs_are_not_mutated() -> None:
    hyps = pa.array(HYPOTHESES, type=pa.string_view())
    refs = pa.array(PER_HYPOTHESIS)
    series = pl.Series(REFERENCES)
    before = (hyps.to_pylist(), refs.to_pylist(), series.to_list())
    chrf.score(hyps, refs, lowercase=True)
    chrf.sentence_scores(hyps, series, lowercase=True)
    assert (hyps.to_pylist(), refs.to_pylist(), series.to_list()) == before


def test_the_column_outlives_the_caller_s_array() -> None:
    """The texts keep the Arrow buffers alive: the caller may drop its arrays meanwhile."""
    import gc

    from chrf import _service

    settings = chrf.Settings()
    c = _service.read(settings, pa.array([t.upper() for t in HYPOTHESES]), pa.array(REFERENCES))
    gc.collect()
    hypotheses, streams = c.texts()
    assert hypotheses == [t.upper() for t in HYPOTHESES]
    assert streams == [list(REFERENCES)]
    expected = chrf.score([t.upper() for t in HYPOTHESES], list(REFERENCES))
    assert _service.score(settings, c) == expected


def test_import_chrf_imports_neither_pyarrow_nor_polars() -> None:
    code = (
        "import sys, chrf; chrf.score(['a'], ['a']); chrf.sentence_scores(['a b'], ['a c']); "
        "print(sorted(m for m in ('pyarrow', 'polars') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


@settings(max_examples=60, deadline=None)
@given(
    pairs=st.lists(st.tuples(texts, texts, texts), min_size=1, max_size=12),
    kind=st.sampled_from(list(MAKERS)),
    options=st.sampled_from(OPTIONS),
    chunks=st.integers(1, 4),
)
def test_arrow_equals_lists_on_random_texts(
    pairs: list[tuple[str, str, str]], kind: str, options: dict[str, Any], chunks: int
) -> None:
    hyps, refs, second = (list(column) for column in zip(*pairs, strict=True))
    make = MAKERS[kind]
    if kind == "chunked":
        size = -(-len(hyps) // chunks)

        def make(t: list[str]) -> pa.ChunkedArray:
            return pa.chunked_array(
                [t[i : i + size] for i in range(0, len(t), size)] + [[]], type=pa.string()
            )

    same(
        chrf.sentence_scores(make(hyps), [make(refs), make(second)], layout="streams", **options),
        chrf.sentence_scores(hyps, [refs, second], layout="streams", **options),
    )
    assert chrf.statistics(make(hyps), make(refs), **options) == chrf.statistics(
        hyps, refs, **options
    )


def offsets_array(offsets: list[int], values: bytes, *, large: bool = False) -> pa.Array:
    """A string array made from raw buffers, which pyarrow checks for structure only."""
    kind, width = (pa.large_string(), "<q") if large else (pa.string(), "<i")
    raw = b"".join(struct.pack(width, offset) for offset in offsets)
    return pa.Array.from_buffers(
        kind, len(offsets) - 1, [None, pa.py_buffer(raw), pa.py_buffer(values)]
    )


def view(text: bytes, buffer: int = 0, offset: int = 0) -> bytes:
    """One string_view view: inline up to 12 bytes, else prefix, buffer index and offset."""
    if len(text) <= 12:
        return struct.pack("<i", len(text)) + text.ljust(12, b"\0")
    return struct.pack("<i4sii", len(text), text[:4], buffer, offset)


def views_array(views: list[bytes], data: bytes) -> pa.Array:
    buffers = [None, pa.py_buffer(b"".join(views)), pa.py_buffer(data)]
    return pa.Array.from_buffers(pa.string_view(), len(views), buffers)


@pytest.mark.parametrize(
    "column",
    [
        pytest.param(lambda: offsets_array([0, 2, 4], b"ab\xff\xfe"), id="invalid UTF-8"),
        pytest.param(lambda: offsets_array([0, 3, 2], b"abc"), id="offsets out of order"),
        pytest.param(lambda: offsets_array([0, 1, 3], "éa".encode()), id="inside a character"),
        pytest.param(lambda: offsets_array([0, 2, 4], b"ab\xffd", large=True), id="large_string"),
        pytest.param(lambda: views_array([view(b"ok"), view(b"\xff")], b""), id="inline view"),
        pytest.param(
            lambda: views_array([view(b"a" * 20, 0, 10)], b"a" * 25), id="view past its buffer"
        ),
        pytest.param(
            lambda: views_array([view(b"a" * 20, 1, 0)], b"a" * 25), id="view of no buffer"
        ),
        pytest.param(
            lambda: views_array([view(b"\xff" * 13)], b"\xff" * 13), id="view of invalid UTF-8"
        ),
        pytest.param(
            lambda: views_array([view("é".encode() * 7, 0, 1)], "é".encode() * 8),
            id="view splitting a character",
        ),
    ],
)
def test_invalid_arrow_data_is_refused(column: Callable[[], pa.Array]) -> None:
    """A producer can hand over any bytes: the core reads none it has not checked."""
    array = column()
    with pytest.raises(ValueError, match=r"^hypotheses is not valid Arrow data: "):
        chrf.score(array, ["x"] * len(array))


def test_only_the_rows_bytes_are_checked() -> None:
    """Bytes outside the rows (before a slice, between views) may be anything."""
    sliced = offsets_array([0, 2, 4, 6], b"\xff\xfeabcd").slice(1)
    assert chrf.score(sliced, ["ab", "cd"]) == chrf.score(["ab", "cd"], ["ab", "cd"])
    data = b"\xff" + "Grüße aus Zürich".encode() + b"\xfe"
    views = views_array([view("Grüße aus Zürich".encode(), 0, 1), view(b"short")], data)
    assert chrf.sentence_scores(views, ["Grüße", "short"]).tolist() == (
        chrf.sentence_scores(["Grüße aus Zürich", "short"], ["Grüße", "short"]).tolist()
    )
