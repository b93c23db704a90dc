"""A Griffe extension for the API reference: the docstrings as ``help()`` shows them, in Markdown.

mkdocstrings reads the package's source without importing it (the site builds without the
compiled extension: the binding's signatures come from ``python/chrf/_chrf.pyi``), so two things
``help()`` shows would be lost or garbled:

* the options paragraph that ``chrf._settings`` appends to ``Settings`` at import: added here
  from the same function (``chrf/_fields.py``'s, over the option table ``chrf/_options.py``,
  both loaded by their paths: they import nothing else of chrf), so the text is the one
  ``help()`` prints. ``help()`` of each entry
  point shows the paragraph too; the reference shows it once, under ``Settings``, and each
  entry point links to it;
* the docstrings' reStructuredText roles and definition lists: ``:func:`x``` becomes a link to
  ``x``'s entry when the reference documents it (plain code otherwise), and a line holding only
  ````name=default```` followed by indented lines becomes a Markdown definition list
  (the ``def_list`` extension in mkdocs.yml).

Loaded by mkdocs.yml (``extensions: [docs/griffe_chrf.py]``); not part of the package.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import griffe

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "chrf"


def _load(name: str) -> ModuleType:
    """One of the package's standard-library-only modules, by its path (importing it as
    ``chrf.NAME`` would import the package, and with it the compiled extension)."""
    spec = importlib.util.spec_from_file_location(f"griffe_chrf_{name}", PACKAGE / f"{name}.py")
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {PACKAGE / name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # where dataclasses look its annotations up
    spec.loader.exec_module(module)
    return module


def _public_names() -> set[str]:
    """``chrf.__all__``, read from the source."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets
        ):
            return set(ast.literal_eval(node.value))
    raise ValueError("chrf/__init__.py has no __all__")


# The table imports its declarations' machinery as ``chrf._fields``: found there, by its path too.
_FIELDS = sys.modules.setdefault("chrf._fields", _load("_fields"))
_OPTIONS = _load("_options")

#: Names the API reference documents, as ``chrf.NAME``: roles naming them become links.
DOCUMENTED = _public_names()

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
    """What the reference adds for the options: ``Settings`` gets the paragraph ``help()``
    shows; an entry point that takes the options, a link to it."""
    if obj.is_class and obj.path == "chrf._settings.Settings":
        return _settings_paragraph(obj)
    for decorator in getattr(obj, "decorators", ()):
        text = str(decorator.value)
        if text.startswith("with_options_doc"):
            but = ", but for ``eps_smoothing``" if "exact=True" in text else ""
            return f"Keyword options: those of :class:`chrf.Settings`{but}, with their defaults."
    return None


def _settings_paragraph(settings: griffe.Object) -> str:
    """The options paragraph of ``Settings``: its fields (the option table's declarations, in
    their order), with their defaults and meanings."""
    paragraph: str = _FIELDS.options_paragraph(_OPTIONS.DECLARED, _OPTIONS.ALIASES)
    return paragraph


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
