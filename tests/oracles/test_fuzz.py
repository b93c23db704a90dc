"""Fuzz tests: arbitrary Python objects at every public function and class of the package.

Every call returns a result of the right type and shape, or raises TypeError or ValueError
(the JSON contract answers invalid_input instead; the command line exits with status 1, or 2
for argparse's usage errors), or lets through the exception a hostile user object raised
itself. Never anything else: no RecursionError, OverflowError, KeyError, AttributeError,
PanicException, SystemError... And no call mutates its inputs. Where a call succeeds on texts,
the same texts as plain `str` in plain lists give the same answer.

The smoke size is the hypothesis profile's (tests/conftest.py); fuzz/python/fuzz_api.py runs
these same tests under atheris for long runs (fuzz/README.md).
"""

from __future__ import annotations

import contextlib
import io
import json
import operator
import os
import re
import sys
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chrf
from chrf import contract
from chrf.cli import main
from fuzz_objects import (
    MAX_ORDER,
    OPTION_VALUES,
    Array,
    Boom,
    Deep,
    LyingText,
    OneShot,
    anything,
    fresh,
    options,
    references,
    text_lists,
    texts,
    weights,
)
from strategies import texts as valid_texts

CLEAR_ERRORS = (TypeError, ValueError, Boom)


# What "unchanged" and "the same texts" mean ----------------------------------------------------


def snapshot(value: Any, depth: int = 0) -> Any:
    """Everything a call could change in `value`: identities of the items of containers, the
    bytes of arrays, the attributes of objects (deep structures are compared by identity past
    a depth, which a call cannot change without touching the levels above)."""
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            items = tuple(snapshot(v, depth + 1) for v in value.ravel().tolist())
            return ("array", id(value), value.shape, value.flags.writeable, items)
        return (
            "array",
            id(value),
            value.dtype.str,
            value.shape,
            value.flags.writeable,
            value.tobytes(),
        )
    if depth > 50:
        return ("deep", id(value))
    if isinstance(value, (list, tuple)):
        return (type(value), id(value), tuple(snapshot(v, depth + 1) for v in value))
    if isinstance(value, dict):
        return ("dict", id(value), tuple((id(k), snapshot(v, depth + 1)) for k, v in value.items()))
    if isinstance(value, set):
        return ("set", id(value), frozenset(id(v) for v in value))
    attributes = getattr(value, "__dict__", None)
    if isinstance(attributes, dict) and not isinstance(value, type):
        return ("object", id(value), tuple(sorted((k, id(v)) for k, v in attributes.items())))
    return ("atom", id(value))


def called(call: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, BaseException | None]:
    """The result of the call, or the clear error it raised; fails on any other exception and on
    any change to the arguments."""

    def state() -> Any:
        return [snapshot(v) for v in args], {k: snapshot(v) for k, v in kwargs.items()}

    before = state()
    try:
        result = call(*args, **kwargs)
    except CLEAR_ERRORS as error:
        result, raised = None, error
    else:
        raised = None
    assert state() == before, f"{call.__name__} changed its arguments"
    return result, raised


def plain_texts(recipe: Any) -> list[Any] | None:
    """The recipe's texts as plain `str` in plain lists (streams as lists of lists, batches as
    lists of those), or None if it holds anything but texts (or texts whose methods lie)."""
    value = fresh(recipe)

    def plain(item: Any, depth: int = 0) -> Any:
        if isinstance(item, LyingText):
            raise LookupError
        if isinstance(item, str):
            return str.__str__(item)
        if depth == 3:
            raise LookupError
        if isinstance(item, np.ndarray):
            values = item.tolist()
            if not isinstance(values, list):  # a 0-d array
                raise LookupError
            return [plain(v, depth + 1) for v in values]
        if type(item) in (list, tuple) or isinstance(item, Iterator):
            return [plain(v, depth + 1) for v in item]
        raise LookupError

    try:
        return plain(value)  # type: ignore[no-any-return]
    except LookupError:
        return None


def check_scores(result: Any, shape: tuple[int | None, ...]) -> None:
    """A float64 array of scores on 0..100, of the given shape (None: any length)."""
    assert isinstance(result, np.ndarray)
    assert result.dtype == np.float64
    assert len(result.shape) == len(shape)
    assert all(n is None or n == m for n, m in zip(shape, result.shape, strict=True))
    assert np.all((result >= 0) & (result <= 100))


def lengths(*recipes: Any) -> tuple[int | None, ...]:
    """The numbers of texts in the recipes, where they hold only texts."""
    plain = [plain_texts(recipe) for recipe in recipes]
    return tuple(None if texts is None else len(texts) for texts in plain)


# The library functions -------------------------------------------------------------------------


def check_corpus_result(entry: Any, result: Any, hyps: Any) -> None:
    if entry is chrf.score:
        assert type(result) is float
        assert 0 <= result <= 100
    elif entry is chrf.components:
        assert isinstance(result, chrf.Components)
        assert re.fullmatch(r"\d{1,3}\.\d{6}", result.score)
        assert 0 <= float(result) <= 100
        json.dumps(result.to_dict())
    elif entry is chrf.statistics:
        assert isinstance(result, chrf.Statistics)
        assert 0 <= result.score() <= 100
        assert len(result.counts) == result.settings.order_count
        for h, r, m in result.counts:
            assert 0 <= m <= min(h, r)
        plain = plain_texts(hyps)
        if plain is not None:
            assert result.segment_count == len(plain)
    else:
        check_scores(result, lengths(hyps))


@given(text_lists, references, options)
def test_corpus_functions(hyps: Any, refs: Any, opts: dict[str, Any]) -> None:
    for entry in (chrf.score, chrf.components, chrf.statistics, chrf.sentence_scores):
        args, kwargs = (fresh(hyps), fresh(refs)), fresh(opts)
        result, raised = called(entry, *args, **kwargs)
        if raised is not None:
            continue
        check_corpus_result(entry, result, hyps)
        plain_hyps, plain_refs = plain_texts(hyps), plain_texts(refs)
        if plain_hyps is not None and plain_refs is not None:
            again = entry(plain_hyps, plain_refs, **fresh(opts))
            same_answer(result, again)


def same_answer(a: Any, b: Any) -> None:
    if isinstance(a, np.ndarray):
        np.testing.assert_array_equal(a, b)
    elif isinstance(a, chrf.Statistics):
        assert (a.counts, a.segment_count) == (b.counts, b.segment_count)
    elif isinstance(a, chrf.Components):
        assert a.to_dict() == b.to_dict()
    else:
        assert a == b


batches = st.one_of(st.lists(text_lists, min_size=1, max_size=3), anything)


@given(text_lists, text_lists, batches, batches, options, weights, st.one_of(st.none(), anything))
def test_batch_functions(
    hyps: Any, refs: Any, hyp_batch: Any, ref_batch: Any, opts: Any, w: Any, batch_w: Any
) -> None:
    opts = {k: v for k, v in opts.items() if k != "weights"}
    plain_hyps, plain_refs = plain_texts(hyps), plain_texts(refs)
    result, _ = called(chrf.pairwise, fresh(hyps), fresh(refs), **fresh(opts))
    if result is not None:
        check_scores(result, lengths(hyps, refs))
        if plain_hyps is not None and plain_refs is not None:
            np.testing.assert_array_equal(result, chrf.pairwise(plain_hyps, plain_refs, **opts))
    result, _ = called(chrf.aggregate, fresh(hyps), fresh(refs), weights=fresh(w), **fresh(opts))
    if result is not None:
        check_scores(result, lengths(hyps))
        if plain_hyps is not None and plain_refs is not None:
            check_weights_by_value(plain_hyps, plain_refs, w, opts, result)
    result, _ = called(chrf.pairwise_batched, fresh(hyp_batch), fresh(ref_batch), **fresh(opts))
    if result is not None:
        check_scores(result, (None, None, None))
    result, _ = called(
        chrf.aggregate_batched, fresh(hyp_batch), fresh(ref_batch), weights=fresh(batch_w), **opts
    )
    if result is not None:
        check_scores(result, (None, None))


def exact_value(weight: Any) -> Fraction:
    """A weight's exact value as a Fraction: NumPy floats of any width, Python numbers, and
    integers of any kind (`__index__`)."""
    if isinstance(weight, np.floating):
        return Fraction(*weight.as_integer_ratio())
    if isinstance(weight, (float, Fraction)):
        return Fraction(weight)
    return Fraction(operator.index(weight))


def check_weights_by_value(hyps: Any, refs: Any, w: Any, opts: Any, result: Any) -> None:
    """Weights of any numeric type weigh as their exact values: NumPy integers and floats give
    the scores of the same values as Python ints and Fractions."""
    values = fresh(w)
    if values is None:
        return
    exact = [exact_value(v) for v in values]
    np.testing.assert_array_equal(result, chrf.aggregate(hyps, refs, weights=exact, **opts))


# Settings and Statistics -----------------------------------------------------------------------

setting_kwargs = st.dictionaries(
    st.one_of(st.sampled_from(sorted(OPTION_VALUES)), st.text(max_size=3)),
    anything,
    max_size=4,
) | st.fixed_dictionaries({}, optional=OPTION_VALUES)


@given(setting_kwargs)
def test_settings(kwargs: dict[str, Any]) -> None:
    s, _ = called(chrf.Settings, **fresh(kwargs))
    if s is None:
        return
    assert isinstance(s, chrf.Settings)
    assert 0 <= s.char_order <= 65_536
    assert 0 <= s.word_order <= 65_536
    assert chrf.Settings(**s.options()) == s
    hash(s)
    assert s.factor >= 0  # 0.0 where β² underflows, inf where it overflows
    assert s.one_plus_factor >= max(1.0, s.factor)
    if s.order_count <= MAX_ORDER:
        # (Settings take a str subclass that claims equality with everything as `averaging`;
        # the compiled settings refuse it.)
        score, _ = called(chrf.score, ["ab c"], ["abd c"], **s.options())
        assert score is None or 0 <= score <= 100


plausible_counts = st.one_of(
    st.lists(st.tuples(*[st.integers(0, 2**128 - 1)] * 3), max_size=8).map(tuple),
    st.lists(st.tuples(*[st.integers(0, 5)] * 3), min_size=6, max_size=6).map(tuple),
    anything,
)


@given(
    st.lists(valid_texts, min_size=1, max_size=3),
    st.sampled_from([{}, {"word_order": 2}, {"eps_smoothing": True}, {"char_order": 3}]),
    anything,
    plausible_counts,
    st.one_of(st.integers(-1, 5), anything),
)
def test_statistics(
    hyps: list[str], opts: dict[str, Any], other: Any, counts: Any, segments: Any
) -> None:
    stats = chrf.statistics(hyps, hyps[::-1], **opts)
    # (`Statistics.total` of items that are not Statistics returns their sum, fuzz/README.md:
    # here it always gets one Statistics first.)
    # (A NumPy array on either side broadcasts the addition over its items: NumPy's rule, as
    # Statistics does not opt out with `__array_ufunc__ = None`.)
    results = (
        called(lambda a, b: a + b, stats, fresh(other)),
        called(lambda a, b: a + b, fresh(other), stats),
        called(sum, [stats, fresh(other)]),
        called(chrf.Statistics.total, [stats, fresh(other)]),
    )
    expected = (chrf.Statistics, np.ndarray) if isinstance(other, Array) else chrf.Statistics
    for result, _ in results:
        assert result is None or isinstance(result, expected)
    assert stats.score() == chrf.score(hyps, hyps[::-1], **opts)
    # Statistics built by hand, from anything: refused, or scored and added like any other.
    for settings_value in (stats.settings, fresh(other)):
        made, _ = called(chrf.Statistics, settings_value, fresh(counts), fresh(segments))
        if made is None:
            continue
        for method in (made.score, made.components):
            result, _ = called(method)
            assert result is None or isinstance(result, (float, chrf.Components))
        result, _ = called(lambda a, b: a + b, made, stats)
        assert result is None or isinstance(result, chrf.Statistics)


# The sacreBLEU drop-in -------------------------------------------------------------------------

chrf_args = st.lists(st.one_of(st.integers(0, 6), st.booleans(), anything), max_size=7)
chrf_kwargs = st.fixed_dictionaries(
    {},
    optional={
        "references": st.one_of(references, st.none()),
        "averaging": OPTION_VALUES["averaging"],
        "count_hyp_without_ref": OPTION_VALUES["count_hyp_without_ref"],
        "whitespace": OPTION_VALUES["include_whitespace"],
    },
)


@given(
    chrf_args,
    chrf_kwargs,
    text_lists,
    st.one_of(references, st.none()),
    st.one_of(st.integers(-1, 5), anything),
    st.one_of(texts, anything),
    st.one_of(st.integers(0, 6), anything),
)
def test_chrf_dropin(
    args: Any, kwargs: Any, hyps: Any, refs: Any, n_bootstrap: Any, sentence: Any, width: Any
) -> None:
    metric, _ = called(chrf.CHRF, *fresh(args), **fresh(kwargs))
    if metric is None:
        return
    if refs is None and metric._ref_cache is None:
        # sacreBLEU's own error, kept by the drop-in.
        with pytest.raises(RuntimeError, match="No references provided"):
            metric.corpus_score(fresh(hyps), None)
        return
    with mock.patch.dict(os.environ, {"SACREBLEU_SEED": "12345"}):
        score, _ = called(metric.corpus_score, fresh(hyps), fresh(refs), fresh(n_bootstrap))
    if score is not None:
        assert isinstance(score, chrf.CHRFScore)
        assert 0 <= score.score <= 100
        text, _ = called(score.format, fresh(width))
        assert text is None or isinstance(text, str)
        signature, _ = called(metric.get_signature)
        assert signature is None or isinstance(str(signature), str)
    result, _ = called(metric.sentence_score, fresh(sentence), fresh(refs))
    assert result is None or isinstance(result, chrf.CHRFScore)


# The JSON contract -----------------------------------------------------------------------------

json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-3, 20),
        st.integers(),
        st.floats(allow_nan=False, allow_infinity=False),
        texts,
    ),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=10,
)
requests = st.fixed_dictionaries(
    {},
    optional={
        "hypotheses": st.one_of(st.lists(texts, min_size=1, max_size=3), json_values),
        "references": st.one_of(st.lists(texts, min_size=1, max_size=3), json_values),
        "char_order": st.one_of(st.integers(0, 10), json_values),
        "word_order": st.one_of(st.integers(0, 4), json_values),
        "beta": st.one_of(st.integers(1, 16), json_values),
        "lowercase": json_values,
        "include_whitespace": json_values,
        "averaging": st.one_of(st.sampled_from(["precision_recall", "per_order_f"]), json_values),
    },
)
json_texts = st.one_of(
    requests.map(json.dumps),
    requests.map(lambda r: json.dumps(r).encode()),
    requests.map(lambda r: json.dumps(r, ensure_ascii=False).encode("utf-16", "surrogatepass")),
    st.sampled_from(["[" * 200 + "]" * 200, '{"a": NaN}', '{"hypotheses": [], "hypotheses": []}']),
    st.text(max_size=30),
    st.binary(max_size=30),
)


def check_response(response: Any) -> None:
    assert isinstance(response, dict)
    assert set(response) in ({"result"}, {"error"})
    if "error" in response:
        assert response["error"]["code"] == "invalid_input"
        assert response["error"]["message"]
    json.loads(contract.dumps(response))


@given(st.one_of(requests, anything, json_values), json_texts)
def test_contract(request: Any, text: Any) -> None:
    value = fresh(request)
    before = snapshot(value)
    check_response(contract.evaluate(value))
    assert snapshot(value) == before
    check_response(contract.evaluate_json(text))


# The command line ------------------------------------------------------------------------------


def write_cli_files(root: Path) -> dict[str, str]:
    """Files for the command line to read: aligned and misaligned texts, tab-separated
    references, another encoding, a JSON request, a directory and a missing path."""
    contents = {
        "ref": "the cat sat\non the mat\nhello\n",
        "ref2": "a cat sat\non a mat\nhello there\n",
        "hyp": "the cat sat down\non mat\nhello\n",
        "hyp2": "cat\nmat\nhi\n",
        "short": "one line\n",
        "tabs": "the cat\ta cat\non the mat\ton a mat\nhello\thi\n",
        "empty": "",
    }
    paths = {}
    for name, text in contents.items():
        (root / name).write_text(text, encoding="utf-8")
        paths[name] = str(root / name)
    (root / "latin1").write_bytes("caf\xe9\n".encode("latin-1") * 3)
    paths["latin1"] = str(root / "latin1")
    request = {"hypotheses": ["aa"], "references": ["ab"], "beta": 3}
    (root / "request.json").write_text(json.dumps(request), encoding="utf-8")
    paths["request"] = str(root / "request.json")
    paths["directory"] = str(root)
    paths["missing"] = str(root / "missing")
    return paths


@pytest.fixture(scope="module")
def cli_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return write_cli_files(tmp_path_factory.mktemp("cli"))


OPTION_NAMES = [
    "-i", "--input", "-m", "-nr", "-e", "-cc", "-cw", "--chrf-beta", "--beta", "-lc",
    "--chrf-whitespace", "--chrf-eps-smoothing", "--averaging", "--count-hyp-without-ref",
    "-ci", "-cin", "-pbs", "-par", "-pbsn", "-parn", "-j", "-f", "-w", "-b", "-sh", "-sl",
    "--breakdown", "-q", "--input=", "--width=-1", "--no-such-option", "-",
]  # fmt: skip
VALUES = [
    "0", "1", "2", "3", "-1", "6", "1/2", "0.5", "1e400", "nan", "inf", "-2", "1" * 5000,
    "json", "text", "chrf", "bleu", "precision_recall", "per_order_f", "utf-8", "latin-1",
    "utf-16", "no-such-encoding", "", " ", "\udcff", "components", "selftest",
]  # fmt: skip


@st.composite
def argvs(draw: st.DrawFn, files: dict[str, str]) -> list[str]:
    token = st.one_of(
        st.sampled_from(OPTION_NAMES),
        st.sampled_from(VALUES),
        st.sampled_from(sorted(files.values())),
        st.text(max_size=6),
    )
    head = draw(
        st.sampled_from([[], [files["ref"]], ["components"], ["selftest"], [files["ref"], "-i"]])
    )
    return [*head, *draw(st.lists(token, max_size=8))]


def run_cli(argv: list[str], stdin: bytes, env: dict[str, str]) -> int:
    out, err = io.StringIO(), io.StringIO()
    fake_stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    with (
        mock.patch.object(sys, "stdin", fake_stdin),
        mock.patch.dict(os.environ, env),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            return main(argv)
        except SystemExit as exit:
            # argparse: --help and --version exit 0, usage errors 2.
            code = exit.code
    assert code in (0, 2), err.getvalue()
    return int(code or 0)


@given(data=st.data())
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_cli(cli_files: dict[str, str], data: st.DataObject) -> None:
    check_cli(cli_files, data)


def check_cli(files: dict[str, str], data: st.DataObject) -> None:
    """`chrf.cli.main` in-process on random arguments, stdin and environment: exit status 0, 1,
    2 or 17 (sacreBLEU's, for lines with the wrong number of tab-separated fields), never an
    exception (argparse's SystemExit only with 0 or 2)."""
    argv = data.draw(argvs(files))
    stdin = data.draw(
        st.one_of(st.binary(max_size=40), st.sampled_from([b"a b\nc\n", b"x\ty\nz\tw\n"]))
    )
    env = data.draw(
        st.fixed_dictionaries(
            {},
            optional={
                "SACREBLEU_SEED": st.sampled_from(["12345", "none", "abc", "-1", "1" * 30]),
                "SACREBLEU_FORMAT": st.sampled_from(["text", "json", "TEXT"]),
            },
        )
    )
    before = list(argv)
    assert run_cli(argv, stdin, env) in (0, 1, 2, 17)
    assert argv == before


def test_the_fuzz_strategies_reach_every_kind_of_object() -> None:
    """The recipes build what they promise (a broken strategy would fuzz nothing)."""
    assert list(fresh(OneShot(("a", "b")))) == ["a", "b"]
    deep = fresh(Deep(3, "x"))
    assert deep == [[["x"]]]
    array = fresh(Array(["ab", "c"], "U1"))
    assert array.tolist() == ["a", "c"]
    assert plain_texts(Array(["ab", "c"], object)) == ["ab", "c"]
    assert plain_texts([OneShot(("a",)), ("b",)]) == [["a"], ["b"]]
    assert plain_texts([LyingText("a")]) is None
