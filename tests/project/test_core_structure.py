"""The structure of the pure-Rust core crate, rust/chrf-core: its modules form no circle and no
file outgrows what a reader can hold.

The module graph is read from the sources: `mod` declarations give the modules (a file each;
an inline module, such as a file's tests, belongs to its file), `use` declarations and paths
(`crate::`, `super::`, `self::`, a child module's name) give the edges, and a name the crate
root re-exports (`use crate::{Settings, ...}`) counts as the module that defines it. Comments,
strings and character literals are blanked first, so a path in a comment is no edge.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "rust" / "chrf-core" / "src"
MAX_LINES = 900

Module = tuple[str, ...]


TOKEN = re.compile(
    r"//[^\n]*"  # a line comment
    r"|/\*"  # a block comment, nested ones inside
    r'|\bb?r(#*)"'  # a raw string
    r'|b?"(?:\\.|[^"\\])*"'  # a string
    r"|b?'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^\\'\n])'",  # a character, not a lifetime
    re.DOTALL,
)


def blank(source: str) -> str:
    """The source with comments, strings and character literals replaced by spaces (newlines
    kept, so that offsets still give line numbers)."""
    out, pos = [], 0
    while match := TOKEN.search(source, pos):
        start, end = match.start(), match.end()
        if match.group(0) == "/*":
            depth = 1
            while depth and end < len(source):
                if source.startswith("/*", end):
                    depth, end = depth + 1, end + 2
                elif source.startswith("*/", end):
                    depth, end = depth - 1, end + 2
                else:
                    end += 1
        elif match.group(1) is not None:
            close = source.find('"' + match.group(1), end)
            end = len(source) if close < 0 else close + 1 + len(match.group(1))
        out += [source[pos:start], re.sub(r"[^\n]", " ", source[start:end])]
        pos = end
    out.append(source[pos:])
    return "".join(out)


def split_top(text: str) -> list[str]:
    """The comma-separated items of a use tree's braces, nested braces kept whole."""
    items, depth, start = [], 0, 0
    for k, c in enumerate(text):
        depth += {"{": 1, "}": -1}.get(c, 0)
        if c == "," and depth == 0:
            items.append(text[start:k])
            start = k + 1
    items.append(text[start:])
    return [item.strip() for item in items if item.strip()]


def use_leaves(tree: str, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], str]]:
    """The (path, name bound) of each leaf of a use tree; name "*" for a glob."""
    tree = tree.strip().removeprefix("::").strip()
    brace = tree.find("{")
    if brace >= 0:
        head = tuple(s.strip() for s in tree[:brace].split("::") if s.strip())
        leaves = []
        for item in split_top(tree[brace + 1 : tree.rfind("}")]):
            leaves += use_leaves(item, prefix + head)
        return leaves
    alias = ""
    if renamed := re.fullmatch(r"(.*?)\s+as\s+(\w+)", tree, re.DOTALL):
        tree, alias = renamed.group(1), renamed.group(2)
    segments = prefix + tuple(s.strip() for s in tree.split("::") if s.strip())
    if segments and segments[-1] == "self":
        segments = segments[:-1]
    if segments and segments[-1] == "*":
        return [(segments[:-1], "*")]
    return [(segments, alias or (segments[-1] if segments else ""))]


@dataclass
class Crate:
    """The modules of a crate, each with its file, and what each module's `use`s bind."""

    files: dict[Module, Path] = field(default_factory=dict)
    modules: set[Module] = field(default_factory=set)
    aliases: dict[Module, dict[str, Module]] = field(default_factory=dict)
    # (source file module, scope module, path as written, line) of every path to resolve.
    paths: list[tuple[Module, Module, tuple[str, ...], int]] = field(default_factory=list)

    def file_of(self, module: Module) -> Module:
        """The module of the file holding `module` (an inline module belongs to its file)."""
        while module not in self.files:
            module = module[:-1]
        return module

    def absolute(self, scope: Module, segments: tuple[str, ...]) -> tuple[str, ...] | None:
        """The path from the crate root, or None for another crate's (std, rayon, ...)."""
        if not segments:
            return None
        first = segments[0]
        if first == "crate":
            return segments
        if first in ("super", "self"):
            base = scope
            while segments and segments[0] in ("super", "self"):
                base = base[:-1] if segments[0] == "super" else base
                segments = segments[1:]
            return base + segments
        if (*scope, first) in self.modules:
            return scope + segments
        alias = self.aliases.get(scope, {}).get(first)
        if alias is not None:
            return alias + segments[1:]
        return None

    def resolve(self, path: tuple[str, ...], depth: int = 0) -> Module:
        """The module that defines what `path` (from the root) names: the deepest module on
        the path, re-exports and imports followed to where the item is defined."""
        module: Module = ("crate",)
        for k, segment in enumerate(path[1:], start=1):
            if (*module, segment) in self.modules:
                module = (*module, segment)
                continue
            alias = self.aliases.get(module, {}).get(segment)
            if alias is not None and depth < 32:
                return self.resolve(alias + path[k + 1 :], depth + 1)
            break
        return module

    def edges(self) -> dict[tuple[Module, Module], list[str]]:
        """Per (file module, file module it uses): where, as `file:line path`."""
        found: dict[tuple[Module, Module], list[str]] = {}
        for source, scope, segments, line in self.paths:
            path = self.absolute(scope, segments)
            if path is None:
                continue
            target = self.file_of(self.resolve(path))
            if target != source:
                where = f"{self.files[source].name}:{line} {'::'.join(segments)}"
                found.setdefault((source, target), []).append(where)
        return found


MOD = re.compile(r"\b(?:pub(?:\s*\([^)]*\))?\s+)?mod\s+(\w+)\s*([;{])")
USE = re.compile(r"\b(pub(?:\s*\([^)]*\))?\s+)?use\s+([^;]+);")
PATH = re.compile(r"(?<![\w:$.])((?:[A-Za-z_]\w*)(?:\s*::\s*[A-Za-z_]\w*)+)")


def matching_brace(text: str, open_at: int) -> int:
    depth = 0
    for k in range(open_at, len(text)):
        depth += {"{": 1, "}": -1}.get(text[k], 0)
        if depth == 0:
            return k
    return len(text)


def read_crate(src: Path) -> Crate:
    crate = Crate()
    pending: list[tuple[Module, Path]] = [(("crate",), src / "lib.rs")]
    texts: dict[Module, str] = {}
    while pending:
        module, path = pending.pop()
        assert "#[path" not in path.read_text(encoding="utf-8"), f"{path}: #[path] not read"
        text = blank(path.read_text(encoding="utf-8"))
        crate.files[module] = path
        crate.modules.add(module)
        texts[module] = text
        inline = inline_modules(text)
        own_dir = path.parent if path.name in ("lib.rs", "mod.rs") else path.with_suffix("")
        for match in MOD.finditer(text):
            scope = scope_at(inline, match.start(), module)
            child = (*scope, match.group(1))
            crate.modules.add(child)
            if match.group(2) == ";":
                folder = own_dir.joinpath(*scope[len(module) :])
                candidates = [folder / f"{child[-1]}.rs", folder / child[-1] / "mod.rs"]
                existing = [c for c in candidates if c.exists()]
                assert len(existing) == 1, f"{path}: no single file for mod {child[-1]}"
                pending.append((child, existing[0]))
    for module, text in texts.items():
        inline = inline_modules(text)
        used = [(m.start(), m.end()) for m in USE.finditer(text)]
        for match in USE.finditer(text):
            scope = scope_at(inline, match.start(), module)
            line = text.count("\n", 0, match.start()) + 1
            for segments, name in use_leaves(match.group(2)):
                crate.paths.append((module, scope, segments, line))
                if name != "*":
                    absolute = crate.absolute(scope, segments)
                    if absolute is not None:
                        crate.aliases.setdefault(scope, {})[name] = absolute
        for match in PATH.finditer(text):
            if any(start <= match.start() < end for start, end in used):
                continue
            segments = tuple(re.split(r"\s*::\s*", match.group(1)))
            scope = scope_at(inline, match.start(), module)
            line = text.count("\n", 0, match.start()) + 1
            crate.paths.append((module, scope, segments, line))
    return crate


def inline_modules(text: str) -> list[tuple[int, int, str]]:
    """The (start, end, name) of each inline module (`mod name { ... }`) of a file."""
    return [
        (m.start(), matching_brace(text, m.end() - 1), m.group(1))
        for m in MOD.finditer(text)
        if m.group(2) == "{"
    ]


def scope_at(inline: list[tuple[int, int, str]], offset: int, module: Module) -> Module:
    """The module at `offset` of a file: the file's, or an inline module's inside it."""
    return (*module, *(name for start, end, name in inline if start < offset <= end))


def cycles(edges: set[tuple[Module, Module]]) -> list[set[Module]]:
    """The strongly connected components of more than one module (Tarjan)."""
    graph: dict[Module, list[Module]] = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    index: dict[Module, int] = {}
    low: dict[Module, int] = {}
    stack: list[Module] = []
    on_stack: set[Module] = set()
    found: list[set[Module]] = []

    def visit(node: Module) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def circles_of(src: Path) -> list[str]:
    """Each circle among the crate's modules, with the uses that close it."""
    edges = read_crate(src).edges()
    described = []
    for component in cycles(set(edges)):
        names = sorted("::".join(m) for m in component)
        uses = [
            f"  {'::'.join(a)} -> {'::'.join(b)}: {', '.join(where[:3])}"
            for (a, b), where in sorted(edges.items())
            if a in component and b in component
        ]
        described.append(" <-> ".join(names) + "\n" + "\n".join(uses))
    return described


def test_the_core_modules_form_no_circle() -> None:
    circles = circles_of(CORE)
    assert circles == [], "\n".join(circles)


def test_no_core_file_is_over_the_line_limit() -> None:
    lengths = {
        str(path.relative_to(CORE)): len(path.read_text(encoding="utf-8").splitlines())
        for path in CORE.rglob("*.rs")
    }
    assert {name: n for name, n in lengths.items() if n > MAX_LINES} == {}


def test_every_core_file_is_a_module_of_the_crate() -> None:
    # A file no `mod` declares would escape the graph above (and the compiler).
    crate = read_crate(CORE)
    assert set(CORE.rglob("*.rs")) == set(crate.files.values())


def test_the_graph_has_the_edges_the_sources_write() -> None:
    # Named imports, root re-exports, `super::` and a child module's path are all read.
    edges = read_crate(CORE).edges()
    assert (("crate", "corpus"), ("crate", "segment")) in edges
    assert (("crate", "segment"), ("crate", "settings")) in edges  # via `use crate::Settings`
    assert (("crate", "ngrams"), ("crate", "ngrams", "bits")) in edges


def write_crate(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


LIB = """
mod exact;
mod float;
mod stats;
pub use exact::{components, Components};
pub use stats::{Count, OrderCounts};
"""


@pytest.mark.parametrize(
    ("files", "circle"),
    [
        # The circle this test was written for: exact.rs took `Run` from float.rs, which took
        # `per_order_f_score` from exact.rs.
        (
            {
                "float.rs": "use crate::exact::per_order_f_score;\npub type Run = (u8, usize);",
                "exact.rs": "use crate::float::Run;\npub fn components() {}",
                "stats.rs": "pub type Count = u128;",
            },
            "crate::exact <-> crate::float",
        ),
        # Through the root's re-exports: `crate::Count` is stats.rs's.
        (
            {
                "float.rs": "use crate::{Count, OrderCounts};\npub(crate) type Run = (u8, usize);",
                "exact.rs": "",
                "stats.rs": "pub type Count = u128;\nfn runs() -> crate::float::Run { todo!() }",
            },
            "crate::float <-> crate::stats",
        ),
        # A parent calling a child that takes a type back from it with `super::`.
        (
            {
                "float.rs": "mod radix;\npub trait Key {}\nfn f() { radix::sort(); }",
                "float/radix.rs": "use super::Key;\npub fn sort() {}",
                "exact.rs": "",
                "stats.rs": "",
            },
            "crate::float <-> crate::float::radix",
        ),
    ],
)
def test_the_check_finds_circles(tmp_path: Path, files: dict[str, str], circle: str) -> None:
    src = write_crate(tmp_path, {"lib.rs": LIB, **files})
    circles = circles_of(src)
    assert [c.splitlines()[0] for c in circles] == [circle]


def test_comments_strings_and_a_files_own_tests_close_no_circle(tmp_path: Path) -> None:
    files = {
        "lib.rs": LIB,
        "float.rs": "use crate::exact::components;\n",
        "exact.rs": (
            "/// See [`crate::float::Run`].\n"
            'const S: &str = "crate::float::Run"; const C: char = \'"\';\n'
            "// crate::float::x\n"
            "#[cfg(test)]\nmod tests {\n    use super::*;\n}\n"
        ),
        "stats.rs": "",
    }
    src = write_crate(tmp_path, files)
    assert circles_of(src) == []
    assert (("crate", "float"), ("crate", "exact")) in read_crate(src).edges()
