"""A Griffe extension for the API reference: the docstrings as ``help()`` shows them, in Markdown.

mkdocstrings reads the package's source without importing it, so two things ``help()`` shows
would be lost or garbled:

* the options paragraph that ``chrf._settings.with_options_doc`` appends at import (and the one
  appended to ``Settings``): added here from the same function, so the text is the one ``help()``
  prints;
* the docstrings' reStructuredText roles and definition lists: ``:func:`x``` becomes a link to
  ``x``'s entry when the reference documents it (plain code otherwise), and a line holding only
  ````name=default```` followed by indented lines becomes a Markdown definition list
  (the ``def_list`` extension in mkdocs.yml).

Loaded by mkdocs.yml (``extensions: [docs/griffe_chrf.py]``); not part of the package.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

import chrf
from chrf._settings import options_doc

#: Names the API reference documents, as ``chrf.NAME``: roles naming them become links.
DOCUMENTED = set(chrf.__all__)

ROLE = re.compile(r":(?:func|class|meth|attr|mod):`~?([^`]+)`")
TERM = re.compile(r"^(\s*)``[^`]+``\s*$")


class ChrfDocstrings(griffe.Extension):
    """Completes and converts every docstring of the package once it is loaded."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        if pkg.name == "chrf":
            for obj in _objects(pkg):
                _convert(obj)


def _objects(module: griffe.Object) -> list[griffe.Object]:
    found: list[griffe.Object] = []
    for member in module.members.values():
        if member.is_alias:
            continue
        found.append(member)
        if member.is_module or member.is_class:
            found.extend(_objects(member))
    return found


def _options_paragraph(obj: griffe.Object) -> str | None:
    """The paragraph ``with_options_doc`` appends at import, if it does to this object."""
    if obj.is_class and obj.path == "chrf._settings.Settings":
        return options_doc()
    for decorator in getattr(obj, "decorators", ()):
        text = str(decorator.value)
        if text.startswith("with_options_doc"):
            return options_doc(exact="exact=True" in text)
    return None


def _convert(obj: griffe.Object) -> None:
    if obj.docstring is None:
        return
    text = obj.docstring.value
    paragraph = _options_paragraph(obj)
    if paragraph is not None:
        text = f"{text.rstrip()}\n\n{paragraph}"
    obj.docstring.value = _markdown(text, _public_class(obj))


def _public_class(obj: griffe.Object) -> griffe.Object | None:
    """The documented class ``obj`` is or belongs to: its methods are ``chrf.Class.method``."""
    owner = obj if obj.is_class else obj.parent
    if owner is not None and owner.is_class and owner.name in DOCUMENTED:
        return owner
    return None


def _markdown(text: str, owner: griffe.Object | None) -> str:
    text = ROLE.sub(lambda match: _link(match, owner), text)
    lines = text.splitlines()
    out: list[str] = []
    for i, line in enumerate(lines):
        following = lines[i + 1] if i + 1 < len(lines) else ""
        is_term = TERM.match(line) and following.startswith(" " * 4) and following.strip()
        if is_term and out and out[-1].strip() and not TERM.match(out[-1] or ""):
            out.append("")  # a definition list starts its own block
        out.append(line)
        if is_term:
            lines[i + 1] = ":   " + following.strip()
    return "\n".join(out)


def _link(match: re.Match[str], owner: griffe.Object | None) -> str:
    name = match.group(1).removesuffix("()")
    short = name.removeprefix("chrf.")
    if short in DOCUMENTED:
        return f"[`chrf.{short}`][chrf.{short}]"
    if owner is not None and short in owner.members and not short.startswith("_"):
        return f"[`{short}`][chrf.{owner.name}.{short}]"
    return f"`{short}`"
