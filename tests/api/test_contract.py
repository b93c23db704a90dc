"""The chrf-components 1.0.0 contract: the example byte for byte, strict validation in order."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from typing import Any

import pytest

import chrf
from chrf import contract

NULL_ORDER = (
    '"hypothesis_ngrams": 0, "reference_ngrams": 0, "matching_ngrams": 0, "effective": false, '
    '"precision": null, "recall": null, "f_score": null}'
)
# spec §6's example, written out: orders of spec §1, K = 2, averages 1/4, score 25.
CONTRACT_EXAMPLE_OUTPUT = (
    '{"result": {"char_order": 6, "word_order": 0, "beta": 3, "lowercase": false, '
    '"include_whitespace": false, "averaging": "precision_recall", "segment_count": 1, '
    '"orders": [{"type": "char", "n": 1, "hypothesis_ngrams": 2, "reference_ngrams": 2, '
    '"matching_ngrams": 1, "effective": true, "precision": "1/2", "recall": "1/2", '
    '"f_score": "1/2"}, {"type": "char", "n": 2, "hypothesis_ngrams": 1, "reference_ngrams": 1, '
    '"matching_ngrams": 0, "effective": true, "precision": "0/1", "recall": "0/1", '
    '"f_score": "0/1"}, '
    + ", ".join(f'{{"type": "char", "n": {n}, {NULL_ORDER}' for n in (3, 4, 5, 6))
    + '], "effective_order_count": 2, "average_precision": "1/4", "average_recall": "1/4", '
    '"score": "25.000000", "score_fraction": "25/1"}}\n'
)
EXAMPLE = {"hypotheses": ["aa"], "references": ["ab"], "beta": 3}


def run_cli(stdin: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "chrf.cli", "components", *args],
        input=stdin,
        capture_output=True,
        check=False,
    )


def test_the_contract_example_byte_for_byte_from_the_command_line(tmp_path: Any) -> None:
    request = tmp_path / "request.json"
    request.write_text(json.dumps(EXAMPLE))
    done = run_cli(b"", "--input", str(request))
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode() == CONTRACT_EXAMPLE_OUTPUT


def test_the_contract_example_from_stdin_and_from_python() -> None:
    done = run_cli(json.dumps(EXAMPLE).encode(), "--input", "-")
    assert done.stdout.decode() == CONTRACT_EXAMPLE_OUTPUT
    assert contract.dumps(contract.evaluate(EXAMPLE)) + "\n" == CONTRACT_EXAMPLE_OUTPUT


def test_an_error_exits_2_with_the_error_object() -> None:
    done = run_cli(b'{"hypotheses": ["a"], "references": ["a"], "beta": 0}', "--input", "-")
    assert done.returncode == 2
    assert json.loads(done.stdout) == {
        "error": {"code": "invalid_input", "message": "beta must be an integer from 1 to 16"}
    }


def error_of(request: object) -> str:
    response = contract.evaluate(request)
    assert set(response) == {"error"}, response
    assert response["error"]["code"] == "invalid_input"
    message: str = response["error"]["message"]
    return message


def ok(**changes: Any) -> dict[str, Any]:
    return {"hypotheses": ["abc"], "references": ["abd"], **changes}


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ([1, 2], "input must be a JSON object"),
        ("text", "input must be a JSON object"),
        ({"hypotheses": 1, "references": 1, "bogus": 1}, "unknown key 'bogus'"),
        ({"references": ["a"], "beta": "x"}, "missing key 'hypotheses'"),
        ({"hypotheses": ["a"]}, "missing key 'references'"),
        (ok(hypotheses="abc", references=3), "hypotheses must be an array of strings"),
        (ok(hypotheses=["a"] * 257, references=[]), "hypotheses must have at most 256 segments"),
        (ok(hypotheses=[], references=[1]), "hypotheses must have at least one segment"),
        (ok(hypotheses=["a", 1], references=[]), "hypotheses[1] must be a string"),
        (ok(references={}), "references must be an array of strings"),
        (ok(references=["a"] * 257), "references must have at most 256 segments"),
        (ok(references=[]), "references must have at least one segment"),
        (ok(references=[None]), "references[0] must be a string"),
        (ok(references=["a", "b"], char_order=99), "same number of segments (1 != 2)"),
        (ok(hypotheses=["a" * 65_536], char_order=99), "at most 65536 UTF-8 bytes, not 65539"),
        (ok(hypotheses=["\ud800"], char_order=99), "hypotheses[0] contains a lone surrogate"),
        (ok(references=["a\udfff"], char_order=99), "references[0] contains a lone surrogate"),
        (ok(char_order=11, word_order=9), "char_order must be an integer from 0 to 10"),
        (ok(char_order=True), "char_order must be an integer from 0 to 10"),
        (ok(char_order=6.0), "char_order must be an integer from 0 to 10"),
        (ok(word_order=5, beta=0), "word_order must be an integer from 0 to 4"),
        (ok(char_order=0, word_order=0), "word_order must not be 0 when char_order is 0"),
        (ok(beta=17, lowercase=1), "beta must be an integer from 1 to 16"),
        (ok(beta=True), "beta must be an integer from 1 to 16"),
        (ok(beta=2.0), "beta must be an integer from 1 to 16"),
        (ok(lowercase=1, include_whitespace=1), "lowercase must be a boolean"),
        (ok(include_whitespace="yes", averaging="x"), "include_whitespace must be a boolean"),
        (ok(averaging="mean"), 'averaging must be "precision_recall" or "per_order_f"'),
    ],
)
def test_the_first_failure_in_validation_order_is_reported(request_: object, message: str) -> None:
    assert message in error_of(request_)


def test_limits_are_inclusive() -> None:
    assert "result" in contract.evaluate(ok(hypotheses=["a"] * 256, references=["b"] * 256))
    exactly = ["é" * 16_384, "é" * 16_384]  # 2 bytes each: 65,536 bytes in all
    assert "result" in contract.evaluate(ok(hypotheses=exactly[:1], references=exactly[1:]))
    response = contract.evaluate(ok(char_order=0, word_order=4, beta=16, averaging="per_order_f"))
    assert response["result"]["beta"] == 16


def test_json_text_is_strict() -> None:
    assert "not valid JSON" in contract.evaluate_json(b"{")["error"]["message"]
    assert (
        "not valid UTF-8" in contract.evaluate_json(b'{"hypotheses": ["\xff"]}')["error"]["message"]
    )
    nan = contract.evaluate_json('{"hypotheses": ["a"], "references": ["a"], "beta": NaN}')
    assert "NaN" in nan["error"]["message"]
    dup = contract.evaluate_json('{"hypotheses": ["a"], "references": ["a"], "beta": 2, "beta": 3}')
    assert dup["error"]["message"] == "duplicate key 'beta'"
    surrogate = contract.evaluate_json('{"hypotheses": ["\\ud83d"], "references": ["a"]}')
    assert "lone surrogate (U+D83D)" in surrogate["error"]["message"]
    pair = contract.evaluate_json('{"hypotheses": ["\\ud83d\\ude00"], "references": ["a"]}')
    assert "result" in pair


def test_the_contract_counts_every_hypothesis_ngram_unlike_sacrebleu() -> None:
    request = ok(hypotheses=["abc"], references=["ab"], char_order=3)
    third = contract.evaluate(request)["result"]["orders"][2]
    assert (third["hypothesis_ngrams"], third["reference_ngrams"]) == (1, 0)
    assert third["precision"] == "0/1"
    assert third["recall"] is None
    assert third["effective"] is False
    library = chrf.components(["abc"], ["ab"], char_order=3).orders[2]
    assert library.hypothesis_ngrams == 0
    assert library.precision is None


def test_the_request_is_not_mutated() -> None:
    request = ok(hypotheses=["ABC d"], references=["abc D"], lowercase=True, word_order=2)
    before = copy.deepcopy(request)
    contract.evaluate(request)
    assert request == before
