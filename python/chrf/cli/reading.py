"""What the command line reads: files and standard input, line by line as sacreBLEU reads them,
aligned in chunks (so plain scoring streams, in bounded memory) or whole (for resampling).
Plain UTF-8 files are read, split and scored in the core (`native_chunks`, by the same rules);
everything else goes through Python's reading here."""

from __future__ import annotations

import argparse
import codecs
import gzip
import io
import os
import queue
import stat
import sys
import threading
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from itertools import islice, tee, zip_longest
from typing import IO, TYPE_CHECKING, BinaryIO, TypeVar

from chrf import _service
from chrf._inputs import Texts
from chrf.cli.columns import Source, aligned_parts, arrow_rows, length_error, mismatch, whole
from chrf.cli.io import CliError, bounded_lines, open_binary, reading, stdin_binary
from chrf.cli.values import positive_int

if TYPE_CHECKING:
    from chrf._service import AlignedFiles, Corpus
    from chrf._settings import Settings

__all__ = [
    "References",
    "Segments",
    "System",
    "aligned_chunks",
    "native_chunks",
    "native_paths",
    "system_sources",
    "whole_corpora",
    "whole_corpus",
]


#: Segments scored per step when streaming, unless $CHRF_CLI_CHUNK says otherwise.
CHUNK_SEGMENTS = 4096


def chunk_segments() -> int:
    """Segments scored per step when streaming ($CHRF_CLI_CHUNK, for tests): memory stays
    bounded by this, not by file size."""
    text = os.environ.get("CHRF_CLI_CHUNK")
    if text is None:
        return CHUNK_SEGMENTS
    try:
        return positive_int(text)
    except argparse.ArgumentTypeError as error:
        raise CliError(f"CHRF_CLI_CHUNK {error}") from None


#: sacreBLEU's exit status for a line with the wrong number of tab-separated fields (references
#: of --num-refs, or systems on standard input).
FIELD_COUNT_STATUS = 17

#: Bytes of lines read at a time.
READ_BYTES = 1 << 16


def read_lines(path: str, encoding: str) -> Iterator[str]:
    """sacreBLEU's `smart_open`: lines split on "\\n" only, each right-stripped of whitespace;
    a name ending in .gz is read through gzip."""
    with reading(path), open_binary(path) as file, text_of(file, path, encoding) as handle:
        # Blocks of lines, stripped in one comprehension: a third of the time of line by line.
        for lines in bounded_lines(handle, path, READ_BYTES):
            yield from [line.rstrip() for line in lines]


def text_of(file: BinaryIO, path: str, encoding: str) -> IO[str]:
    """The text of `file` (at `path`): through gzip for a .gz name, which leaves `file` open."""
    if path.endswith(".gz"):
        return gzip.open(file, "rt", encoding=encoding, newline="\n")
    return io.TextIOWrapper(file, encoding=encoding, newline="\n")


def stdin_lines(encoding: str) -> Iterator[str]:
    """Standard input as sacreBLEU reads it: with universal newlines ("\\r\\n", "\\r" and "\\n"
    each end a line), unlike files. Lines are not stripped here: see `stdin_systems`."""
    if sys.stdin is None:
        raise CliError("standard input is closed: give the system output with --input (-i)")
    with reading("standard input"):
        handle = io.TextIOWrapper(stdin_binary(), encoding=encoding)
        for lines in bounded_lines(handle, "standard input", READ_BYTES):
            yield from lines


@dataclass
class References:
    files: list[str]
    num_refs: int
    encoding: str
    #: The files behind each stream when a stream is several files read one after another
    #: (`-t` with several test sets, concatenated as sacreBLEU does); `files` then names them.
    parts: list[list[str]] | None = None

    @property
    def count(self) -> int:
        return len(self.files) if self.num_refs == 1 else self.num_refs

    @property
    def names(self) -> list[str]:
        return (
            self.files
            if self.num_refs == 1
            else [f"{self.files[0]} (field {k + 1})" for k in range(self.num_refs)]
        )

    def streams(self) -> list[Source]:
        """One line iterator per reference stream."""
        if self.parts is not None:
            return [concatenated(paths, self.encoding) for paths in self.parts]
        if self.num_refs == 1:
            return [source_of(path, self.encoding) for path in self.files]
        if len(self.files) != 1:
            raise CliError("--num-refs needs exactly one tab-separated reference file")
        return [
            *split_fields(read_lines(self.files[0], self.encoding), self.num_refs, self.files[0])
        ]


def concatenated(paths: list[str], encoding: str) -> Iterator[str]:
    for path in paths:
        yield from read_lines(path, encoding)


def split_fields(lines: Iterator[str], count: int, name: str) -> list[Iterator[str]]:
    rows = (split_row(line, count, name, number) for number, line in enumerate(lines, 1))
    return unzip(rows, count)


def split_row(line: str, count: int, name: str, number: int) -> list[str]:
    fields = line.split("\t", maxsplit=count - 1)
    if len(fields) != count:
        raise CliError(
            f"{name} line {number}: expected {count} tab-separated fields, found {len(fields)}",
            FIELD_COUNT_STATUS,
        )
    return fields


def unzip(rows: Iterator[list[str]], count: int) -> list[Iterator[str]]:
    """Splits one iterator of rows into `count` column iterators. Consumed in lockstep (as the
    references are, by `zip`), `tee` buffers one row; consumed one after another (several systems
    on stdin), it keeps the rows the later columns have not reached yet."""
    return [column(copy, k) for k, copy in enumerate(tee(rows, count))]


def column(rows: Iterator[list[str]], k: int) -> Iterator[str]:
    for row in rows:
        yield row[k]


def source_of(name: str, encoding: str) -> Source:
    """A text file's lines, or a column of a Parquet or Arrow IPC file (`PATH:COLUMN`: a name
    without a colon is a text file's, with no further look)."""
    rows = arrow_rows(name) if ":" in name else None
    return rows or read_lines(name, encoding)


@dataclass
class System:
    name: str
    lines: Source
    #: The file the lines come from; None for standard input.
    path: str | None = None


def system_sources(
    inputs: tuple[str, ...], encoding: str, *, paired: bool, ref_files: int = 0
) -> list[System]:
    """The systems of `--input`, or of standard input when it names none. A paired test
    takes a file given twice as one system; otherwise it is an error. An empty stdin after
    several files (``ref_files``) is most likely a forgotten ``-i``: the error says so."""
    if inputs:
        names = list(dict.fromkeys(inputs))
        if len(names) != len(inputs) and not paired:
            raise CliError("the same system file is given twice")
        return [System(name, source_of(name, encoding), name) for name in names]
    hint = f" (the {ref_files} files named are all read as references; hypotheses go after -i)"
    return stdin_systems(stdin_lines(encoding), hint if ref_files > 1 else "")


def stdin_systems(lines: Iterator[str], hint: str = "") -> list[System]:
    """sacreBLEU's stdin: one system, or several as tab-separated fields of each line. As in
    sacreBLEU, the first line is right-stripped whole, and every later line whole and then
    field by field (so "x \\t..." keeps its space on the first line only)."""
    first = next(lines, None)
    if first is None:
        raise CliError("no input on stdin" + hint)
    fields = first.rstrip().split("\t")
    count = len(fields)
    rows = (
        check_fields([f.rstrip() for f in line.rstrip().split("\t")], count, n)
        for n, line in enumerate(lines, 2)
    )
    columns = unzip(_prepend(fields, rows), count)
    names = ["stdin"] if count == 1 else [f"System {k + 1}" for k in range(count)]
    return [System(name, column) for name, column in zip(names, columns, strict=True)]


def _prepend(first: list[str], rows: Iterator[list[str]]) -> Iterator[list[str]]:
    yield first
    yield from rows


def check_fields(fields: list[str], count: int, number: int) -> list[str]:
    if len(fields) != count:
        raise CliError(
            f"stdin line {number}: {len(fields)} tab-separated systems, "
            f"where the first line has {count}",
            FIELD_COUNT_STATUS,
        )
    return fields


@dataclass
class Segments:
    """Aligned hypotheses and reference streams (`references[k][i]`)."""

    hypotheses: Texts
    references: list[Texts]

    def corpus(self, settings: Settings) -> Corpus:
        """The segments read as the settings read texts."""
        return _service.read(settings, self.hypotheses, self.references, "streams")


def aligned_chunks(system: System, refs: References) -> Iterator[Segments]:
    """The system and its references in chunks of aligned segments; a length mismatch is an
    error naming every stream and its line count. From regular files, the next chunk is read
    on a thread while the caller scores this one (scoring releases the GIL), one chunk ahead:
    memory stays bounded. A pipe (standard input, `<(...)`) is read here, in the caller's
    thread: a read from a pipe can wait for ever, and only the main thread's reads end at a
    Ctrl-C (a thread waiting in standard input's read holds its lock, which the interpreter's
    shutdown then needs)."""
    chunks = _chunks(system, refs)
    return read_ahead(chunks) if _all_regular(system, refs) else chunks


def _all_regular(system: System, refs: References) -> bool:
    paths = [path for part in refs.parts for path in part] if refs.parts else refs.files
    if system.path is None:
        try:
            stdin_regular = sys.stdin is not None and _regular(os.fstat(sys.stdin.fileno()))
        except (OSError, ValueError):  # no file descriptor
            return False
        return stdin_regular and all(map(_regular_file, paths))
    return all(map(_regular_file, [system.path, *paths]))


def _regular_file(path: str) -> bool:
    try:
        return _regular(os.stat(path))
    except (OSError, ValueError):  # Python's reading, in the caller's thread, reports it
        return False


def _regular(status: os.stat_result) -> bool:
    return stat.S_ISREG(status.st_mode)


#: How often (seconds) a reader waiting to hand over its next chunk checks that the caller
#: still wants it.
HANDOVER_WAIT = 0.1


def read_ahead(items: Generator[Segments, None, None]) -> Iterator[Segments]:
    """`items`, each produced on a reader thread while the caller works on the one before; an
    error of the reader is raised here, in its place in the sequence. The reader is no daemon:
    when the caller stops early (an error, Ctrl-C), it is told to stop, stops after the chunk
    it is reading, closes its files and is joined, so no thread is left reading when the
    interpreter shuts down."""
    ready: queue.Queue[tuple[Segments | None, BaseException | None]] = queue.Queue(maxsize=1)
    stop = threading.Event()

    def hand_over(entry: tuple[Segments | None, BaseException | None]) -> bool:
        while not stop.is_set():
            try:
                ready.put(entry, timeout=HANDOVER_WAIT)
                return True
            except queue.Full:
                # A caller that never closed this generator: the interpreter is shutting down.
                if not threading.main_thread().is_alive():
                    return False
        return False

    def read() -> None:
        try:
            for item in items:
                if not hand_over((item, None)):
                    return
            hand_over((None, None))
        except BaseException as error:  # handed to the caller, who raises it
            hand_over((None, error))
        finally:
            items.close()  # closes the files, in the thread that reads them

    reader = threading.Thread(target=read, name="chrf-reader")
    reader.start()
    try:
        while True:
            item, error = ready.get()
            if error is not None:
                raise error
            if item is None:
                return
            yield item
    finally:
        stop.set()
        reader.join()


def _chunks(system: System, refs: References) -> Generator[Segments, None, None]:
    sources, size = [system.lines, *refs.streams()], chunk_segments()
    lines = [source for source in sources if isinstance(source, Iterator)]
    if len(lines) < len(sources):  # Arrow columns among them
        for parts in aligned_parts(sources, [system.name, *refs.names], size):
            yield Segments(parts[0], parts[1:])
        return
    rows = zip_longest(*lines)
    complete = 0
    while chunk := list(islice(rows, size)):
        # A stream that ended leaves None in every row after its end, so in the last one.
        if None in chunk[-1]:
            raise length_error([system.name, *refs.names], complete, [*chunk, *rows])
        complete += len(chunk)
        yield Segments(
            [row[0] for row in chunk], [[row[k] for row in chunk] for k in range(1, len(chunk[0]))]
        )


def native_paths(system: System, refs: References, lowercase: bool) -> list[str] | None:
    """The system's file and its reference files, when the core can read them itself, by the
    rules of `read_lines`: regular, uncompressed UTF-8 files, one reference per file, no
    lowercasing (which is Python's `str.lower`). None sends the lines through Python."""
    if system.path is None or refs.parts is not None or refs.num_refs != 1 or lowercase:
        return None
    if codecs.lookup(refs.encoding).name != "utf-8":
        return None
    paths = [system.path, *refs.files]
    for path in paths:  # `_regular_file` of each, written out: the plain command's one step
        try:
            if path.endswith(".gz") or not stat.S_ISREG(os.stat(path).st_mode):
                return None
        except (OSError, ValueError):  # Python's reading, in the caller's thread, reports it
            return None
    return paths


Chunk = TypeVar("Chunk")


def native_chunks(
    paths: list[str], names: list[str], score: Callable[[AlignedFiles], Chunk | None]
) -> Iterator[Chunk]:
    """`score` of each chunk of the files read in the core (see `native_paths`): the same
    chunks, lines and errors as `aligned_chunks`, without a Python string per line. (When
    several files fail within one chunk, this names the first of them, the system's file
    first; the Python reader, reading ahead in blocks, may name another.)"""
    files = _service.aligned_files(paths, chunk_segments())
    while True:
        try:
            chunk = score(files)
        except (OSError, UnicodeDecodeError):
            if files.failed is None:
                raise
            with reading(names[files.failed]):
                raise
        if chunk is None:
            break
        yield chunk
    if files.mismatch is not None:
        raise mismatch(names, files.mismatch)


def whole_corpus(system: System, refs: References) -> Segments:
    """All segments in memory: for the statistical tests, which resample segments."""
    return whole_corpora([system], refs)[0]


def whole_corpora(systems: list[System], refs: References) -> list[Segments]:
    """Every system's segments in memory, the references read once and shared by all."""
    references = [whole(stream) for stream in refs.streams()]
    corpora = []
    for system in systems:
        hypotheses = whole(system.lines)
        counts = [len(hypotheses), *(len(stream) for stream in references)]
        if len(set(counts)) != 1:
            raise mismatch([system.name, *refs.names], counts)
        corpora.append(Segments(hypotheses, references))
    return corpora
