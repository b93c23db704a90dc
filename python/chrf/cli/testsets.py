"""sacreBLEU's test sets (`-t`, `-l`, `--echo`, `--list`, `--citation`, `--download`), through
sacreBLEU's own registry and its cache folder ($SACREBLEU, else ~/.sacrebleu), so that a recipe
naming a test set scores the references sacreBLEU would. sacreBLEU is an optional dependency
(`pip install 'chrf[sacrebleu]'`): it is imported here only, when a test set is named.

sacreBLEU looks for the test set's text files in the cache (`NAME/NAME.PAIR.FIELD`) and
downloads and extracts the raw files only when one is missing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from itertools import islice
from types import ModuleType
from typing import Any, TypeVar

from chrf.cli.io import CliError, error_text, stderr_line, write_line
from chrf.cli.options import Options
from chrf.cli.reading import References, read_lines

__all__ = ["answer", "test_set_references"]

T = TypeVar("T")


def sacrebleu_utils() -> ModuleType:
    try:
        from sacrebleu import utils
    except ImportError:
        raise CliError(
            "test sets (-t, --echo, --list) come from sacreBLEU's registry: install sacreBLEU "
            "(pip install 'chrf[sacrebleu]'), or give reference files"
        ) from None
    return utils


def datasets() -> Mapping[str, Any]:
    sacrebleu_utils()
    from sacrebleu.dataset import DATASETS

    return DATASETS


@contextmanager
def fetching(what: str) -> Iterator[None]:
    """sacreBLEU's failures to find or download a test set (exceptions, or its own exit) as one
    line naming the cache folder."""
    try:
        yield
    except CliError:
        raise
    except (Exception, SystemExit) as error:
        folder = sacrebleu_utils().SACREBLEU_DIR
        raise CliError(
            f"cannot get {what} from sacreBLEU's cache {folder} (set by $SACREBLEU): "
            f"{error_text(error)}; sacreBLEU downloads missing test sets there, which needs "
            "network access"
        ) from None


def checked(test_set: str, langpair: str | None) -> None:
    registry = datasets()
    if test_set not in registry:
        raise CliError(f"unknown test set {test_set!r}: --list shows sacreBLEU's test sets")
    if langpair is None:
        return
    pairs = sacrebleu_utils().get_langpairs_for_testset(test_set)
    if langpair not in pairs:
        raise CliError(
            f"test set {test_set!r} has no language pair {langpair!r}; it has {', '.join(pairs)}"
        )


def answer(options: Options) -> int:
    """What sacreBLEU answers, and quits, for --download, --list, --citation and --echo (in the
    order sacreBLEU looks at them)."""
    if options.download:
        return download(options.download, options.langpair)
    if options.listing:
        return list_test_sets(options.test_set, options.langpair)
    if options.citation:
        return citations(str(options.test_set))
    return echo(str(options.test_set), str(options.langpair), options.echo)


def download(test_set: str, langpair: str | None) -> int:
    """sacreBLEU's --download: the test set's files into the cache (all pairs without -l)."""
    checked(test_set, langpair)
    pairs = [langpair] if langpair else sacrebleu_utils().get_langpairs_for_testset(test_set)
    for pair in pairs:
        with fetching(f"{test_set} ({pair})"):
            sacrebleu_utils().get_files(test_set, pair)
    return 0


def citations(test_sets: str) -> int:
    """The BibTeX of each test set (sacreBLEU 2.6.0's own --citation fails with a TypeError)."""
    for name in test_sets.split(","):
        checked(name, None)
        citation = datasets()[name].citation
        if citation:
            write_line(citation)
        else:
            stderr_line(f"chrf: note: sacreBLEU has no citation for {name}")
    return 0


def test_set_references(test_sets: str, langpair: str, encoding: str) -> References:
    """The reference streams of the test sets (comma-separated ones concatenated, stream by
    stream, as sacreBLEU concatenates them)."""
    names = test_sets.split(",")
    files_of_sets = []
    for name in names:
        checked(name, langpair)
        with fetching(f"the references of {name} ({langpair})"):
            files = list(sacrebleu_utils().get_reference_files(name, langpair))
        if not files:
            raise CliError(f"sacreBLEU has no references for {name} ({langpair})")
        files_of_sets.append(files)
    if len({len(files) for files in files_of_sets}) != 1:
        raise CliError(f"the test sets {test_sets} have different numbers of references")
    streams = [list(paths) for paths in zip(*files_of_sets, strict=True)]
    names_of_streams = [f"{test_sets}:{langpair}:ref{k + 1}" for k in range(len(streams))]
    return References(names_of_streams, 1, encoding, parts=streams)


def list_test_sets(test_set: str | None, langpair: str | None) -> int:
    """sacreBLEU's --list: the test sets (of a pair), or a test set's pairs and fields."""
    utils = sacrebleu_utils()
    registry = datasets()
    if test_set is not None:
        checked(test_set, langpair)
        pairs = [langpair] if langpair else utils.get_langpairs_for_testset(test_set)
        for pair in pairs:
            with fetching(f"the fields of {test_set} ({pair})"):
                fields = registry[test_set].fieldnames(pair)
            write_line(f"{pair}: {', '.join(fields)}")
        return 0
    if langpair:
        lines = [f"The available test sets for {langpair} are:"]
        names = utils.get_available_testsets_for_langpair(langpair)
    else:
        lines = ["The available test sets are:"]
        names = utils.get_available_testsets()
    for name in sorted(names):
        description = registry[name].description.strip()
        lines.append(f"{name:<30}: {description}")
    write_line("\n".join(lines))
    return 0


def echo(test_sets: str, langpair: str, asked: tuple[str, ...]) -> int:
    """sacreBLEU's --echo: the asked fields of each test set, tab-separated, line by line
    ("all" for every field; "ref" for the first reference where there is no plain "ref"),
    read as UTF-8 whatever --encoding says, as sacreBLEU reads them."""
    for name in test_sets.split(","):
        checked(name, langpair)
        with fetching(f"{name} ({langpair})"):
            fields = list(datasets()[name].fieldnames(langpair))
            files = list(sacrebleu_utils().get_files(name, langpair))
        paths = [files[fields.index(field)] for field in fields_to_echo(asked, fields, name)]
        rows = zip(*(read_lines(path, "utf-8") for path in paths), strict=False)
        for chunk in chunks(rows, 4096):
            write_line("\n".join("\t".join(row) for row in chunk))
    return 0


def fields_to_echo(asked: tuple[str, ...], fields: list[str], name: str) -> list[str]:
    if "all" in asked:
        if len(asked) != 1:
            raise CliError("--echo all cannot be combined with other fields")
        return fields
    wanted = list(asked)
    if "ref" in wanted and "ref" not in fields:
        first_ref = min(f for f in fields if f.startswith("ref"))
        wanted = [first_ref if f == "ref" else f for f in wanted]
    for field in wanted:
        if field not in fields:
            raise CliError(f"{name} has no field {field!r}; its fields: {', '.join(fields)}")
    return wanted


def chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk
