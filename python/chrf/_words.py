"""The word tokens of chrF++ (spec §4), as sacreBLEU's ``CHRF._remove_punctuation`` gives them."""

from __future__ import annotations

from chrf._errors import InputTypeError
from chrf._reference.metric import word_tokens


def words(text: str) -> list[str]:
    """The word tokens that chrF++'s word n-grams are built of (spec §4).

    The text is split on whitespace as Python's ``str.split()`` splits; a token longer than one
    code point loses one ASCII punctuation mark, from its end if it ends with one, else from its
    start, and the mark becomes a token of its own: ``"(hi)"`` gives ``"(hi"`` and ``")"``.
    With ``lowercase=True`` the scores tokenise ``text.lower()``.

    >>> chrf.words("Hello, world!")
    ['Hello', ',', 'world', '!']
    """
    if not isinstance(text, str):
        raise InputTypeError(
            f"text must be a str, not {type(text).__name__}", argument="text", reason="not_a_string"
        )
    return word_tokens(text)
