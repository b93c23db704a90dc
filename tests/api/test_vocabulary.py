"""One vocabulary (issue 37): the functions take sacreBLEU's ``whitespace`` as well as
``include_whitespace``, refuse other libraries' names with the right one and the function's
name, and the docs' table of names agrees with each library's real signature."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from sacrebleu.metrics import CHRF as SacreCHRF

import chrf
from implementations import error_of

ROOT = Path(__file__).resolve().parents[2]
HYPS = ["the cat  sat on the mat", "a dog"]
REFS = ["the cat sat on a mat", "the dog"]

#: Every public function that takes the keyword options, and its positional arguments.
FUNCTIONS: list[tuple[str, tuple[Any, ...]]] = [
    ("score", (HYPS, REFS)),
    ("components", (HYPS, REFS)),
    ("statistics", (HYPS, REFS)),
    ("sentence_scores", (HYPS, REFS)),
    ("segment_statistics", (HYPS, REFS)),
    ("explain", (HYPS, REFS)),
    ("compare", ([HYPS, HYPS], REFS)),
    ("pairwise", (HYPS, REFS)),
    ("aggregate", (HYPS, REFS)),
    ("expected_utility", (HYPS, REFS)),
    ("mbr", (HYPS, REFS)),
]


def same(a: Any, b: Any) -> bool:
    for form in ("to_dict", "tolist"):
        if hasattr(a, form):
            return bool(getattr(a, form)() == getattr(b, form)())
    return repr(a) == repr(b)


@pytest.mark.parametrize(("name", "args"), FUNCTIONS)
def test_whitespace_is_sacrebleus_name_of_include_whitespace(name: str, args: tuple[Any]) -> None:
    function = getattr(chrf, name)
    assert same(function(*args, whitespace=True), function(*args, include_whitespace=True))


def test_whitespace_gives_sacrebleus_score() -> None:
    expected = SacreCHRF(whitespace=True, word_order=2).corpus_score(HYPS, [REFS]).score
    assert chrf.score(HYPS, REFS, whitespace=True, word_order=2) == expected


@pytest.mark.parametrize(("name", "args"), FUNCTIONS)
@pytest.mark.parametrize(
    "order", [("whitespace", "include_whitespace"), ("include_whitespace", "whitespace")]
)
def test_an_option_and_its_alias_together_are_refused(
    name: str, args: tuple[Any], order: tuple[str, str]
) -> None:
    options = dict.fromkeys(order, True)
    with pytest.raises(TypeError) as raised:
        getattr(chrf, name)(*args, **options)
    assert str(raised.value).startswith(
        f"chrf.{name}() got both 'include_whitespace' and 'whitespace'"
    )


@pytest.mark.parametrize(("name", "args"), FUNCTIONS)
@pytest.mark.parametrize(
    ("keyword", "right"),
    [("eps", "eps_smoothing"), ("n_word_order", "word_order"), ("char_ordre", "char_order")],
)
def test_another_librarys_name_is_refused_with_the_right_one(
    name: str, args: tuple[Any], keyword: str, right: str
) -> None:
    with pytest.raises(TypeError) as raised:
        getattr(chrf, name)(*args, **{keyword: 1})
    assert str(raised.value) == (
        f"chrf.{name}() got an unexpected keyword argument {keyword!r}; did you mean {right!r}?"
    )


def test_an_unknown_name_lists_the_options() -> None:
    with pytest.raises(
        TypeError,
        match=r"chrf\.score\(\) got an unexpected keyword argument "
        r"'zzz'; it takes \['averaging', 'beta'",
    ):
        chrf.score(HYPS, REFS, zzz=1)


def test_methods_and_integrations_are_named_too() -> None:
    with pytest.raises(TypeError, match=r"^chrf\.Statistics\.from_counts\(\) got an unexpected"):
        chrf.Statistics.from_counts([[1, 1, 1]] * 6, segment_count=1, eps=True)
    dask = pytest.importorskip("chrf.dask")
    with pytest.raises(TypeError, match=r"^chrf\.dask\.statistics\(\) got an unexpected"):
        dask.statistics(None, eps=True)


@pytest.mark.parametrize("name", ["score", "sentence_scores", "pairwise", "explain"])
def test_both_implementations_refuse_alike(impl: ModuleType, name: str) -> None:
    args = dict(FUNCTIONS)[name]
    compiled = error_of(getattr(chrf, name), *args, eps=True)
    reference = error_of(getattr(impl, name), *args, eps=True)
    assert compiled is not None
    assert reference == compiled


def docs_table() -> list[list[str]]:
    text = (ROOT / "docs" / "python-api.md").read_text()
    start = text.index("| chrf's functions |")
    rows = []
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def names(cell: str) -> set[str]:
    return set(re.findall(r"`(\w+)`", cell))


def test_the_docs_table_holds_each_librarys_real_names() -> None:
    rows = docs_table()
    sacrebleu = set(inspect.signature(SacreCHRF).parameters) - {"references"}
    evaluate = set(inspect.signature(chrf.compute).parameters) - {"predictions", "references"}
    torchmetrics_names = {"n_char_order", "n_word_order", "beta", "lowercase", "whitespace"}
    options = set(inspect.signature(chrf.Settings).parameters)
    assert set().union(*(names(row[0]) for row in rows)) == options | {"whitespace"}
    assert set().union(*(names(row[1]) for row in rows)) == sacrebleu
    assert set().union(*(names(row[2]) for row in rows)) == evaluate
    assert set().union(*(names(row[3]) for row in rows)) == torchmetrics_names
    for row in rows:
        for name in names(row[0]):
            chrf.statistics(
                HYPS,
                REFS,
                **{
                    name: chrf.Settings().options()[
                        "include_whitespace" if name == "whitespace" else name
                    ]
                },
            )  # type: ignore[literal-required]
