"""The architecture's rules, checked (issue 28's "done when"):

- only the boundary, ``chrf._core`` (and ``chrf._service``), imports the compiled core;
- no import cycle among the package's modules, imports inside functions counted (an import
  under ``if TYPE_CHECKING:`` never runs and is not);
- no Python module over 400 lines; the binding's ``lib.rs`` at most 250 lines and no binding
  file over 900 (chrf-core's files: tests/project/test_core_structure.py);
- no circle among the Rust modules of either crate (chrf-core's:
  tests/project/test_core_structure.py), and no module of the binding uses anything of its root,
  ``lib.rs``;
- the command line reaches the scores through the service layer, not the internals, and its
  scoring walk from argv to the core is short and goes one way (`test_the_scoring_walk...`);
- settings equal exactly when they score alike.

Measurement logs in code comments are tests/project/test_docs.py's to find.
"""

from __future__ import annotations

import ast
import pickle
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from test_core_structure import circles_of, cycles, read_crate

import chrf

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "python" / "chrf"
BINDING = ROOT / "rust" / "chrf-py" / "src"
MAX_MODULE_LINES = 400
MAX_LIB_LINES = 250
MAX_BINDING_FILE_LINES = 900


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def runtime_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement that may run: at module level or in a function, not under
    ``if TYPE_CHECKING:`` (its ``else`` branch runs)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and is_type_checking(node.test):
            for child in node.orelse:
                yield from runtime_imports(ast.Module(body=[child], type_ignores=[]))
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from runtime_imports(node)


def imported(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The modules an import statement imports: ``from p import n`` imports the module ``p.n``
    when there is one, else ``p`` (for its name ``n``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{base}" if base else package
    found = []
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        found.append(sub if sub in MODULES or sub == "chrf._chrf" else base)
    return found


def import_graph() -> dict[str, set[str]]:
    """Each module of the package and the package's modules it imports."""
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        targets = {t for node in runtime_imports(tree) for t in imported(name, node)}
        graph[name] = {t for t in targets if t == "chrf._chrf" or t in MODULES} - {name}
    return graph


def test_only_the_boundary_modules_import_the_compiled_core() -> None:
    importers = {name for name, targets in import_graph().items() if "chrf._chrf" in targets}
    assert importers
    assert importers <= {"chrf._core", "chrf._service"}


def test_weights_are_scaled_by_the_core_alone() -> None:
    # The core scales weights to integers (rust/chrf-core/src/batch/scaling.rs), for the exact
    # MBR choice as well; Python's own scaling is the reference's, which the core is held to.
    pattern = re.compile(r"\bmath\.(lcm|gcd)\b|\bdef binary_weights\b")
    scaling = {
        path.relative_to(ROOT).as_posix()
        for path in PACKAGE.rglob("*.py")
        if pattern.search(path.read_text(encoding="utf-8"))
    }
    assert scaling == {"python/chrf/_reference/weights.py"}


def test_the_python_modules_import_no_circle() -> None:
    graph = import_graph()
    edges = {(a, b) for a, targets in graph.items() for b in targets if b in MODULES}
    circles = [sorted(component) for component in cycles(edges)]
    assert circles == []


def test_the_import_check_finds_a_circle_through_a_function_level_import() -> None:
    tree = ast.parse("def f():\n    from chrf.cli import io\n")
    assert [imported("chrf._api", node) for node in runtime_imports(tree)] == [["chrf.cli.io"]]
    typing_only = ast.parse("if TYPE_CHECKING:\n    import chrf._api\nelse:\n    import json\n")
    assert [imported("chrf._api", node) for node in runtime_imports(typing_only)] == [["json"]]
    assert cycles({("a", "b"), ("b", "a"), ("b", "c")}) == [{"a", "b"}]


def test_no_python_module_is_over_the_line_limit() -> None:
    lengths = {
        name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in MODULES.items()
    }
    assert {name: n for name, n in lengths.items() if n > MAX_MODULE_LINES} == {}


def test_the_command_line_calls_the_service_layer_not_the_internals() -> None:
    internals = {"chrf._api", "chrf._batch", "chrf._core", "chrf._mbr", "chrf._explained"}
    reached = {
        (name, target)
        for name, targets in import_graph().items()
        if name.startswith("chrf.cli")
        for target in targets
        if target in internals
    }
    assert reached == set()


def test_the_bindings_lib_only_declares_and_registers() -> None:
    lines = len((BINDING / "lib.rs").read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LIB_LINES
    lengths = {
        path.name: len(path.read_text(encoding="utf-8").splitlines())
        for path in BINDING.rglob("*.rs")
    }
    assert {name: n for name, n in lengths.items() if n > MAX_BINDING_FILE_LINES} == {}


def test_the_binding_modules_form_no_circle() -> None:
    circles = circles_of(BINDING)
    assert circles == [], "\n".join(circles)


def test_no_binding_module_uses_its_root() -> None:
    # lib.rs declares the modules and registers names: a helper there that a child imported
    # back would be a circle the module graph cannot see (the root holds every module).
    root = ("crate",)
    into_root = {a: where for (a, b), where in read_crate(BINDING).edges().items() if b == root}
    assert into_root == {}
    assert read_crate(BINDING).edges(), "the graph holds the root's uses of its modules"


# Settings: equal exactly when they score alike

SAMPLE = (
    ["The cat sat on the mat.", "A dog!", "x", "Ünïcödé text, with punctuation"],
    [["The cat is on the mat.", "A dog.", "y", "Unicode text with punctuation"]],
)


def score_bits(settings: chrf.Settings) -> bytes:
    """The sample's corpus and sentence scores, bit for bit, with the metric's name."""
    hyps, refs = SAMPLE
    options = settings.options()
    corpus = chrf.score(hyps, refs, **options)
    sentences = chrf.sentence_scores(hyps, refs, **options)
    metric = chrf.CHRF.from_settings(settings)
    name = f"{metric.corpus_score(hyps, refs).name} {metric.get_signature().format(False)}"
    return np.float64(corpus).tobytes() + sentences.tobytes() + str(name).encode()


def test_settings_of_each_kind_of_beta_differ() -> None:
    kinds = [chrf.Settings(beta=2), chrf.Settings(beta=2.0), chrf.Settings(beta=Fraction(2))]
    assert len(set(kinds)) == 3
    assert all(a != b for k, a in enumerate(kinds) for b in kinds[k + 1 :])
    assert chrf.Settings(beta=0.1) != chrf.Settings(beta=Fraction(0.1))
    # The same kind and value: equal, whatever the value was written as.
    assert chrf.Settings(beta=Fraction(4, 2)) == chrf.Settings(beta=Fraction(2))
    assert hash(chrf.Settings(beta=Fraction(4, 2))) == hash(chrf.Settings(beta=Fraction(2)))
    assert chrf.Settings(word_order=2) == chrf.Settings(word_order=2)
    assert chrf.Settings(word_order=2) != chrf.Settings()


@pytest.mark.parametrize(
    "written",
    [
        (chrf.Settings(beta=Fraction(4, 2)), chrf.Settings(beta=Fraction(2))),
        (chrf.Settings(beta=np.int64(3)), chrf.Settings(beta=3)),
        (
            chrf.Settings(char_order=np.int32(4), word_order=2),
            chrf.Settings(char_order=4, word_order=2),
        ),
        (chrf.Settings(lowercase=np.bool_(True)), chrf.Settings(lowercase=True)),
        (pickle.loads(pickle.dumps(chrf.Settings(beta=0.5))), chrf.Settings(beta=0.5)),
    ],
)
def test_equal_settings_give_bit_identical_scores(
    written: tuple[chrf.Settings, chrf.Settings],
) -> None:
    a, b = written
    assert a == b
    assert hash(a) == hash(b)
    assert score_bits(a) == score_bits(b)


def test_settings_that_differ_score_or_are_named_differently() -> None:
    grid = [
        chrf.Settings(beta=beta, word_order=word_order)
        for beta in (1, 2, 2.0, Fraction(2), 0.1, Fraction(0.1), 3)
        for word_order in (0, 2)
    ]
    bits = {settings: score_bits(settings) for settings in grid}
    for k, a in enumerate(grid):
        for b in grid[k + 1 :]:
            assert a != b
            # Different in what they report, or in how they compute (a Fraction β takes
            # sacreBLEU's bootstrap into double precision).
            assert bits[a] != bits[b] or a.beta_is_fraction != b.beta_is_fraction, (a, b)


def test_equal_settings_score_alike() -> None:
    # 1 + β² rounds differently for a float β and its exact Fraction: different settings.
    beta = next(
        k / 97 for k in range(1, 1000) if 1 + (k / 97) ** 2 != float(1 + Fraction(k / 97) ** 2)
    )
    as_float, as_fraction = chrf.Settings(beta=beta), chrf.Settings(beta=Fraction(beta))
    assert as_float != as_fraction
    counts = ((3, 2, 1),) * 6
    scores = {s: chrf.Statistics(s, counts, 1).score() for s in (as_float, as_fraction)}
    assert scores[as_float] != scores[as_fraction]


def test_settings_own_their_compiled_form_and_pickle_without_it() -> None:
    settings = chrf.Settings(word_order=2, beta=Fraction(3, 2))
    assert settings.compiled is settings.compiled
    restored = pickle.loads(pickle.dumps(settings))
    assert restored == settings
    assert "compiled" not in vars(restored)


# One option table (issue 35): an option is declared once, in chrf._options

#: The files that may spell an option's name (as a word, in code or text), and why each does.
#: Adding an option spells it in the first group only; the rest use or show it.
OPTION_PLACES = {
    # declared: the table (Settings' fields, their kinds and the typed keywords), the binding's
    # conversion into the core, and the core's Settings
    "python/chrf/_options.py",
    "rust/chrf-py/src/config.rs",
    "rust/chrf-core/src/settings.rs",
    # Python's one rule across two options (eps_smoothing with averaging) and the exact entry
    # points' refusal of eps_smoothing
    "python/chrf/_settings.py",
    # shown: sacreBLEU's signature fields and the drop-in's sacreBLEU arguments (chrf's own
    # options' fields and keyword arguments come from the table)
    "python/chrf/_signature.py",
    "python/chrf/_sacrebleu.py",
}
#: The most files each option's name may be spelled in. Beyond the declarations and texts above
#: (6), every option is spelled where it is used: the core's computations and their tests, the
#: independent reference implementation (python/chrf/_reference), and, for averaging, the JSON
#: contract's own field and a docstring (13 files; 14 while the rules' messages sat in error.rs
#: apart from the settings, 16 while the signature and the drop-in's keyword arguments spelled
#: it, 17 before the table). eps_smoothing, a float-only mode, is also refused by name where no
#: float exists (the exact entry points, --breakdown, comparisons, statistics), is the name of
#: evaluate's, mbrs' and mbr's own argument in the three integrations' signatures, and decides
#: which orders the core's means take (means.rs) (23; 24 while error.rs held its refusal's
#: message and the binding's errors.rs named its argument, 25 before).
#: count_hyp_without_ref is the core's rule in each counting path (10; 11 while Settings' fields
#: were written out in chrf._settings besides the table, 14 while the signature and the drop-in
#: spelled it).
MAX_OPTION_FILES = {"averaging": 13, "eps_smoothing": 23, "count_hyp_without_ref": 10}


def test_the_binding_raises_every_settings_rule_alike() -> None:
    # A rule of chrf-core's settings brings its message, reason and argument (settings.rs): the
    # binding names no rule, so a new option's rules need no line of it.
    binding = ROOT / "rust" / "chrf-py" / "src"
    naming = [p.name for p in binding.glob("*.rs") if "SettingsRule::" in p.read_text("utf-8")]
    assert naming == []
    rules = (ROOT / "rust" / "chrf-core" / "src" / "settings.rs").read_text(encoding="utf-8")
    assert "pub fn argument(self)" in rules
    assert "enum SettingsRule" in rules


def files_spelling(name: str) -> set[str]:
    pattern = re.compile(rf"\b{name}\b")
    paths = [*PACKAGE.rglob("*.py"), *(ROOT / "rust").rglob("*.rs")]
    return {
        path.relative_to(ROOT).as_posix()
        for path in paths
        if pattern.search(path.read_text(encoding="utf-8"))
    }


@pytest.mark.parametrize("name", sorted(MAX_OPTION_FILES))
def test_an_option_is_declared_once_and_spelled_in_few_files(name: str) -> None:
    spelled = files_spelling(name)
    assert "python/chrf/_options.py" in spelled
    assert len(spelled) <= MAX_OPTION_FILES[name], sorted(spelled - OPTION_PLACES)


def test_settings_fields_are_written_out_in_the_table_alone() -> None:
    # Settings' fields, their annotations, defaults and constructor arguments are the table's
    # declarations (`chrf._options.SettingsFields`): chrf._settings writes none of them out.
    from chrf._options import FIELDS, OPTIONS

    tree = ast.parse((PACKAGE / "_settings.py").read_text(encoding="utf-8"))
    settings = next(
        node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Settings"
    )
    written = {
        node.target.id
        for node in settings.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
    }
    functions = [node for node in settings.body if isinstance(node, ast.FunctionDef)]
    parameters = {arg.arg for node in functions for arg in node.args.args + node.args.kwonlyargs}
    assert written & set(FIELDS) == set()
    assert parameters & set(FIELDS) == set()
    # Each option's kind checks its value and reads it from the command line: no module of the
    # command line's values holds a kind's reading.
    assert all(option.kind.argument for option in OPTIONS)
    values = (PACKAGE / "cli" / "values.py").read_text(encoding="utf-8")
    assert "def order(" not in values
    assert "def beta(" not in values


def test_an_option_of_a_new_kind_is_one_declaration() -> None:
    # What adding an option takes on the Python side, done here on a throwaway class: its kind
    # (check and command-line reading) and its declaration, from which the constructor, the
    # checks and the command line's flag follow with no other edit.
    import argparse

    from chrf._fields import Kind, constructor, fields, option
    from chrf.cli.arguments import setting_argument

    def check(declared: object, value: object) -> tuple[int, ...] | None:
        if value is not None and not isinstance(value, tuple):
            raise TypeError("order_weights must be a tuple")
        return value

    def read(text: str) -> tuple[int, ...]:
        return tuple(int(part) for part in text.split(","))

    weights = Kind("weights", check, {"type": read})

    @fields
    class Declared:
        __slots__ = ()
        order_weights: tuple[int, ...] | None = option(
            weights,
            default=None,
            meaning="a weight per order",
            flags=("--order-weights",),
            help="a weight per order",
            names={},
        )

    (declared,) = Declared.__options__  # type: ignore[attr-defined]
    assert (declared.name, Declared.order_weights, Declared.__match_args__) == (
        "order_weights",
        None,
        ("order_weights",),
    )

    def build(cls: type, values: tuple[object, ...]) -> dict[str, object]:
        return {declared.name: declared.kind.check(declared, values[0])}

    new = constructor(Declared, build, "dict")
    assert new(Declared) == {"order_weights": None}
    assert new(Declared, order_weights=(1, 2)) == {"order_weights": (1, 2)}
    with pytest.raises(TypeError, match="order_weights must be a tuple"):
        new(Declared, order_weights=[1])
    parser = argparse.ArgumentParser()
    flags, keywords, _ = setting_argument(declared)
    parser.add_argument(*flags, **keywords)
    assert parser.parse_args(["--order-weights", "1,2,3"]).order_weights == (1, 2, 3)
    assert parser.parse_args([]).order_weights is None


def test_the_cli_and_the_integrations_name_options_through_the_table() -> None:
    # The command line's chrF flags and the integrations' renamings are the table's: none of
    # these modules spells an option's flag or its other library's name itself.
    modules = ("cli/specs.py", "cli/arguments.py", "cli/options.py", "torchmetrics.py", "mbrs.py")
    for module in (*modules, "zurich_mbr.py"):
        text = (PACKAGE / module).read_text(encoding="utf-8")
        assert "--chrf-beta" not in text, module
        assert '"include_whitespace"' not in text, module


def test_every_registered_subcommand_has_its_parser_and_runner() -> None:
    from chrf.cli.commands import SUBCOMMANDS, loaded

    for name, entry in SUBCOMMANDS.items():
        assert loaded(entry.parser)().prog == f"chrf {name}"
        assert callable(loaded(entry.runner))


def test_the_tests_import_their_helpers_by_name_not_through_a_tests_package() -> None:
    # tests/ is no package: `tests.X` resolves against whichever `tests` package comes first on
    # the path, and a dependency may ship one (verl does), which hid the suite's own modules.
    pattern = re.compile(r"^\s*(?:from tests\b|import tests\b)|[\"']-m[\"'],\s*[\"']tests\.", re.M)
    found = [
        path.name
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []


# The command line's scoring walk (issue 35): from argv to the core in one direction

#: The most package modules, and the most returns, of the walk `walk_of` measures.
MAX_WALK_MODULES = 8
MAX_WALK_RETURNS = 15
#: Comprehensions are frames of their own only before CPython 3.12 (PEP 709 inlines them).
COMPREHENSIONS = {"<listcomp>", "<dictcomp>", "<setcomp>"}


def walk_of(args: list[str]) -> tuple[list[str], list[str]]:
    """The walk of ``chrf.cli.main(args)`` from its entry to its first call into the compiled
    module, as ``sys.setprofile`` sees it: the package modules whose functions ran on the way
    (in the order first run), and the returns, ``module.function``, of the package's frames
    to a caller before that call (a generator's yield included; comprehension frames not, see
    `COMPREHENSIONS`). The first call into the compiled module is the first built-in function
    or method of ``chrf._chrf`` called (a compiled class's construction is no profile event:
    the walk ends at its first method call). The command runs once before, unwatched: the
    walk is the command's own, not the first import of its modules."""
    import contextlib
    import io
    import sys

    from chrf.cli import main

    modules: list[str] = []
    returns: list[str] = []
    ended = False

    def compiled(function: object) -> bool:
        owner = getattr(function, "__self__", None)
        return getattr(function, "__module__", None) == "chrf._chrf" or (
            owner is not None
            and (type(owner).__module__ == "chrf._chrf" or owner is sys.modules["chrf._chrf"])
        )

    def profile(frame: object, event: str, arg: object) -> None:
        nonlocal ended
        if ended:
            return
        if event == "c_call" and compiled(arg):
            ended = True
            return
        module = frame.f_globals.get("__name__", "")  # type: ignore[attr-defined]
        if not (module == "chrf" or module.startswith("chrf.")):
            return
        if event == "call" and module not in modules:
            modules.append(module)
        name = frame.f_code.co_name  # type: ignore[attr-defined]
        if event == "return" and name not in COMPREHENSIONS:
            returns.append(f"{module}.{name}")

    for watched in (False, True):
        with contextlib.redirect_stdout(io.StringIO()):
            if watched:
                sys.setprofile(profile)
            try:
                status = main(args)
            finally:
                sys.setprofile(None)
        assert status == 0
    assert ended, "the command never called the compiled module"
    return modules, returns


def test_the_scoring_walk_from_argv_to_the_core_is_short_and_one_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("CHRF_CLI_CHUNK", raising=False)
    modules, returns = walk_of(["examples/ref.txt", "-i", "examples/hyp.txt"])
    assert len(modules) <= MAX_WALK_MODULES, modules
    assert len(returns) <= MAX_WALK_RETURNS, returns
    # Down one way: argv parsed once (options, by the specs' tables), one command runner
    # (modes), its inputs (reading), one call into the service; no module of option values
    # or signatures, no settings checked option by option, on the way.
    assert modules[:2] == ["chrf.cli", "chrf.cli.outcome"]
    assert modules[-1] == "chrf._service"
    assert not {"chrf.cli.values", "chrf._signature", "chrf._sacrebleu"} & set(modules)


def test_the_walk_counts_the_returns_of_a_longer_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    # Non-default settings are checked option by option on their way: the count sees it.
    monkeypatch.chdir(ROOT)
    _, plain = walk_of(["examples/ref.txt", "-i", "examples/hyp.txt"])
    _, longer = walk_of(["examples/ref.txt", "-i", "examples/hyp.txt", "--chrf-beta", "1/3"])
    assert len(longer) > len(plain)
    assert "chrf._options.read_beta" in longer
