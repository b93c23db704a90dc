"""The text of the keyword options, as ``help()`` and the API reference show it.

Standard library only, and nothing of chrf: the documentation site's Griffe extension
(docs/griffe_chrf.py) loads this file by its path, without the compiled extension.
"""

from __future__ import annotations

from collections.abc import Mapping

#: What each option means: the one text of it, which `options_paragraph` writes (with the
#: defaults of `Settings`) to the docstring of every entry point that takes these options.
OPTION_MEANINGS: dict[str, str] = {
    "char_order": "character n-gram orders 1..char_order (0: none).",
    "word_order": "word n-gram orders 1..word_order (0: none; 2 is chrF++).",
    "beta": "weight of recall against precision (0: precision only): an int, a Fraction, or a "
    "float taken at its exact binary value.",
    "lowercase": "lowercase with Python's str.lower() (full Unicode) before everything.",
    "include_whitespace": "keep whitespace in character n-grams.",
    "averaging": "'precision_recall' (sacreBLEU 2.x: average precision and recall over the "
    "orders, then F) or 'per_order_f' (Popović's chrF++.py: the mean of per-order F).",
    "eps_smoothing": "sacreBLEU's float eps smoothing of orders without matches; float scores "
    "only, it has no exact form.",
    "count_hyp_without_ref": "spec §1.4's rule: with False (sacreBLEU's rule) a segment whose "
    "reference has no n-gram of order n contributes no hypothesis n-grams of that order; with "
    "True (the JSON contract's rule) every hypothesis n-gram counts.",
}


def options_paragraph(
    defaults: Mapping[str, object], aliases: Mapping[str, str], *, exact: bool = False
) -> str:
    """The options paragraph: each option (``defaults``, in order), its default and meaning, and
    its other name (``aliases``); ``exact`` leaves out ``eps_smoothing``."""
    lines = ["Keyword options (sacreBLEU's defaults):", ""]
    for name, default in defaults.items():
        if exact and name == "eps_smoothing":
            continue
        lines.append(f"``{name}={default!r}``")
        lines.extend(_wrapped(OPTION_MEANINGS[name], "    ", 92))
        others = [alias for alias, of in aliases.items() if of == name]
        if others:
            lines.extend(_wrapped(f"(Also ``{others[0]}``, sacreBLEU's name.)", "    ", 92))
    return "\n".join(lines)


def _wrapped(text: str, indent: str, width: int) -> list[str]:
    # Not textwrap: this runs at import, for every documented entry point, and must cost little.
    lines = [indent]
    for word in text.split():
        if len(lines[-1]) + 1 + len(word) > width and lines[-1] != indent:
            lines.append(indent)
        lines[-1] += word if lines[-1] == indent else " " + word
    return lines


def with_paragraph(doc: str, paragraph: str) -> str:
    # help() dedents a docstring by its lines' common indent: the paragraph takes the body's.
    body = [line for line in doc.splitlines()[1:] if line.strip()]
    indent = min((len(line) - len(line.lstrip()) for line in body), default=0)
    indented = "\n".join(" " * indent + line if line else line for line in paragraph.splitlines())
    return f"{doc.rstrip()}\n\n{indented}\n"
