"""Columns of Parquet and Arrow IPC files on the command line: `PATH:COLUMN` names a string
column of a `.parquet`, `.arrow`, `.feather` or `.ipc` file, as a system output or a reference
stream, mixed with text files as the user likes. The column is read in record batches (memory
stays flat), and each chunk reaches the core as Arrow arrays, read in place there: no Python
string per row. Needs pyarrow (the `arrow` extra)."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from itertools import islice
from typing import TYPE_CHECKING, Any

from chrf._inputs import Texts
from chrf._messages import counted
from chrf.cli.io import CliError

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "ArrowRows",
    "Source",
    "aligned_parts",
    "arrow_rows",
    "length_error",
    "mismatch",
    "whole",
]

SUFFIXES = (".parquet", ".arrow", ".feather", ".ipc")


def batch_rows() -> int:
    """Rows read from a Parquet file at a time ($CHRF_CLI_BATCH, for tests)."""
    return int(os.environ.get("CHRF_CLI_BATCH", 1 << 16))


def arrow_rows(name: str) -> ArrowRows | None:
    """The column `name` names (`PATH:COLUMN`, PATH a Parquet or Arrow IPC file), or None when
    `name` is a text file's name (one that exists is one, whatever its name)."""
    path, colon, column = name.rpartition(":")
    if not colon or not column or not path.lower().endswith(SUFFIXES) or os.path.exists(name):
        return None
    return ArrowRows(path, column)


class ArrowRows:
    """A string column of a file, read batch by batch when first asked for rows."""

    def __init__(self, path: str, column: str) -> None:
        self.path = path
        self.column = column
        self.name = f"{path}:{column}"
        self._batches: Iterator[pa.Array] | None = None
        self._pending: list[pa.Array] = []
        self._read = 0  # rows handed out or pending, counted for errors naming a row
        self._type: pa.DataType | None = None
        self._dictionary = False

    def take(self, count: int) -> pa.ChunkedArray:
        """The next `count` rows (fewer at the end), slices of the batches: nothing is copied."""
        pa = _pyarrow(self.path)
        parts, have = [], 0
        while have < count and (batch := self._next()) is not None:
            part = batch.slice(0, count - have)
            if len(part) < len(batch):
                self._pending.append(batch.slice(len(part)))
            parts.append(part)
            have += len(part)
        return pa.chunked_array(parts, type=self._type)

    def rest(self) -> int:
        """The number of rows not taken yet (read to the end, for a length error)."""
        count = 0
        while (batch := self._next()) is not None:
            count += len(batch)
        return count

    def _next(self) -> pa.Array | None:
        if self._pending:
            return self._pending.pop()
        if self._batches is None:
            self._batches = self._open()
        with reading_arrow(self.path):
            batch = next(self._batches, None)
        if batch is not None:
            self._check_nulls(batch)
            self._read += len(batch)
        return batch

    def _check_nulls(self, batch: pa.Array) -> None:
        # A dictionary's nulls may be in its values too, which its null_count does not count.
        nulls = batch.null_count or (self._dictionary and batch.dictionary.null_count)
        if nulls:
            import pyarrow.compute as pc

            found = pc.index(batch.is_null(), True).as_py()
            if found >= 0:
                row = self._read + found
                raise CliError(f"{self.path}: column {self.column!r} is null in row {row + 1}")

    def _open(self) -> Iterator[pa.Array]:
        pa = _pyarrow(self.path)
        with reading_arrow(self.path):
            if self.path.lower().endswith(".parquet"):
                import pyarrow.parquet as pq

                parquet = pq.ParquetFile(self.path, memory_map=True)
                self._check_schema(parquet.schema_arrow)
                batches = parquet.iter_batches(batch_rows(), columns=[self.column])
                return (batch.column(0) for batch in batches)
            source = pa.memory_map(self.path)
            try:
                reader: Any = pa.ipc.open_file(source)
                count = reader.num_record_batches
                chosen = (reader.get_batch(i) for i in range(count))
            except pa.ArrowInvalid:  # the streaming format, without a footer
                source.seek(0)
                reader = pa.ipc.open_stream(source)
                chosen = iter(reader)
            self._check_schema(reader.schema)
            return (batch.column(self.column) for batch in chosen)

    def _check_schema(self, schema: pa.Schema) -> None:
        import pyarrow as pa

        if self.column not in schema.names:
            raise CliError(
                f"{self.path} has no column {self.column!r}; its columns: "
                + ", ".join(repr(name) for name in schema.names)
            )
        kind = schema.field(self.column).type
        self._dictionary = pa.types.is_dictionary(kind)
        if not _is_string(kind.value_type if self._dictionary else kind):
            raise CliError(f"{self.path}: column {self.column!r} holds {kind}, not strings")
        self._type = kind


def _is_string(kind: pa.DataType) -> bool:
    """Whether `kind` is one of Arrow's string types: a dictionary of them is read as the strings
    it holds (the core decodes it), as the Python API reads it."""
    import pyarrow as pa

    return bool(
        pa.types.is_string(kind) or pa.types.is_large_string(kind) or kind == pa.string_view()
    )


def _pyarrow(path: str) -> Any:
    try:
        import pyarrow as pa
        import pyarrow.ipc
    except ImportError:
        raise CliError(f"reading {path} needs pyarrow: pip install 'chrf[arrow]'") from None
    return pa


@contextmanager
def reading_arrow(path: str) -> Iterator[None]:
    """Turns pyarrow's failures to read `path` (missing, not Parquet, damaged) into one-line
    CliErrors."""
    try:
        yield
    except CliError:
        raise
    except Exception as error:
        import pyarrow as pa

        if not isinstance(error, OSError | pa.ArrowException):
            raise
        reason = getattr(error, "strerror", None) or str(error).splitlines()[0]
        raise CliError(f"cannot read {path}: {reason}") from None


#: A system output or reference stream: lines of a text file, or a column of rows.
Source = Iterator[str] | ArrowRows


def aligned_parts(sources: list[Source], names: list[str], size: int) -> Iterator[list[Texts]]:
    """`size` rows of every source at a time (Arrow columns as arrays, text files as lists of
    lines); a length mismatch is an error naming every source and its row count."""
    complete = 0
    while True:
        parts = [_take(source, size) for source in sources]
        lengths = {len(part) for part in parts}
        if len(lengths) > 1:
            counts = [complete + len(p) + _rest(s) for p, s in zip(parts, sources, strict=True)]
            raise mismatch(names, counts)
        if lengths == {0}:
            return
        complete += len(parts[0])
        yield parts


def _take(source: Source, size: int) -> Sequence[str] | pa.ChunkedArray:
    return source.take(size) if isinstance(source, ArrowRows) else list(islice(source, size))


def _rest(source: Source) -> int:
    return source.rest() if isinstance(source, ArrowRows) else sum(1 for _ in source)


def whole(source: Source) -> Sequence[str] | pa.ChunkedArray:
    """Every row of a source: for the statistical tests, which resample segments."""
    return source.take(1 << 62) if isinstance(source, ArrowRows) else list(source)


def length_error(names: list[str], complete: int, rest: list[tuple[str | None, ...]]) -> CliError:
    counts = [complete + sum(row[k] is not None for row in rest) for k in range(len(names))]
    return mismatch(names, counts)


def mismatch(names: list[str], counts: list[int]) -> CliError:
    described = ", ".join(
        f"{name} has {counted(count, 'line')}" for name, count in zip(names, counts, strict=True)
    )
    return CliError(f"the system and its references differ in length: {described}")
