//! Lines of a UTF-8 text file as sacreBLEU's command line reads them, in chunks of whole lines:
//! Python's `open(path, encoding="utf-8", newline="\n")` then `line.rstrip()`. Only "\n" ends a
//! line (a "\r" before it, or alone, stays in the line until the strip); every line is stripped
//! of trailing whitespace as `str.rstrip()` defines it; a last line without "\n" is a line; a
//! byte-order mark is kept, as Python's "utf-8" codec keeps it.
//!
//! Memory is bounded by the chunk, not by the file: the command line streams files of any size.

use std::io::Read;

use crate::memory::{push, reserve};
use crate::text::is_python_whitespace;
use crate::ChrfError;

/// Bytes asked of the source per read.
const READ_BYTES: usize = 1 << 16;

/// Bytes whose newlines are counted at a time.
const SCAN_BYTES: usize = 1 << 12;

/// Why a chunk could not be read.
#[derive(Debug)]
pub enum LineError {
    /// The source failed.
    Read(std::io::Error),
    /// A line is not UTF-8: its bytes, with the "\n" that ends it if one does, so that the caller
    /// can describe the fault as its own decoder would (the fault never depends on earlier lines,
    /// since "\n" cannot be part of a multi-byte sequence).
    NotUtf8(Vec<u8>),
    /// A buffer could not be allocated.
    Chrf(ChrfError),
}

impl From<ChrfError> for LineError {
    fn from(error: ChrfError) -> Self {
        Self::Chrf(error)
    }
}

/// Whole lines of one chunk: the text and, per line, the byte range of the stripped line.
#[derive(Debug, Default)]
pub struct Lines {
    text: String,
    ranges: Vec<(usize, usize)>,
}

impl Lines {
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Every stripped line, in order.
    pub fn texts(&self) -> Result<Vec<&str>, ChrfError> {
        let mut texts = Vec::new();
        reserve(&mut texts, self.len())?;
        texts.extend(
            self.ranges
                .iter()
                .map(|&(start, end)| &self.text[start..end]),
        );
        Ok(texts)
    }
}

/// Reads a source chunk by chunk, each chunk whole lines.
pub struct LineReader<R> {
    source: R,
    /// Bytes read from the source; those from `start` on are not handed out yet.
    pending: Vec<u8>,
    start: usize,
    finished: bool,
}

impl<R: Read> LineReader<R> {
    pub fn new(source: R) -> Self {
        Self {
            source,
            pending: Vec::new(),
            start: 0,
            finished: false,
        }
    }

    /// The next `count` lines (fewer at the end of the source; none after it).
    pub fn read(&mut self, count: usize) -> Result<Lines, LineError> {
        let end = self.fill_lines(count)?;
        let mut bytes = Vec::new();
        reserve(&mut bytes, end - self.start)?;
        bytes.extend_from_slice(&self.pending[self.start..end]);
        self.start = end;
        split(bytes)
    }

    /// Reads until `pending` holds `count` lines from `start` or the source ends; returns where
    /// the last of those lines ends. Every byte is scanned once and moved at most once, whatever
    /// the chunk size.
    fn fill_lines(&mut self, count: usize) -> Result<usize, LineError> {
        if count == 0 {
            return Ok(self.start);
        }
        let mut scanned = self.start;
        let mut found = 0;
        loop {
            // Newlines are counted a window at a time (a pass that vectorises), and the window
            // holding the count-th one is scanned again to find it.
            while scanned < self.pending.len() {
                let window = &self.pending[scanned..self.pending.len().min(scanned + SCAN_BYTES)];
                let more = newlines(window);
                if found + more >= count {
                    return Ok(scanned + nth_line_end(window, count - found));
                }
                found += more;
                scanned += window.len();
            }
            if self.finished {
                return Ok(self.pending.len());
            }
            // What was handed out makes room: the bytes after it move to the front, once.
            self.pending.drain(..self.start);
            scanned -= self.start;
            self.start = 0;
            self.read_more()?;
        }
    }

    fn read_more(&mut self) -> Result<(), LineError> {
        let bytes = &mut self.pending;
        let start = bytes.len();
        reserve(bytes, READ_BYTES)?;
        // `read_to_end` reads into the spare capacity without zeroing it first, and retries
        // reads that a signal interrupted.
        let read = (&mut self.source)
            .take(READ_BYTES as u64)
            .read_to_end(bytes)
            .map_err(LineError::Read)?;
        self.finished = read == 0;
        debug_assert_eq!(bytes.len(), start + read);
        Ok(())
    }
}

fn newlines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&byte| byte == b'\n').count()
}

/// Where the `n`-th line of `bytes` ends (after its "\n"); `bytes` holds at least `n` >= 1.
fn nth_line_end(bytes: &[u8], n: usize) -> usize {
    let mut seen = 0;
    for (offset, &byte) in bytes.iter().enumerate() {
        seen += usize::from(byte == b'\n');
        if seen == n {
            return offset + 1;
        }
    }
    bytes.len()
}

/// Several sources read in step, chunk by chunk: a system's output and its references.
pub struct AlignedLines<R> {
    readers: Vec<LineReader<R>>,
    /// Lines of every source in the chunks handed out so far.
    complete: usize,
}

/// What reading the next chunk of every source gives.
#[derive(Debug)]
pub enum Chunk {
    /// The next lines of each source, in the order the sources were given; empty at the end.
    Lines(Vec<Lines>),
    /// The sources differ in length: the line count of each.
    Mismatch(Vec<usize>),
}

/// A failure of one source: its index and why.
pub type SourceError = (usize, LineError);

impl<R: Read> AlignedLines<R> {
    pub fn new(sources: impl IntoIterator<Item = R>) -> Self {
        Self {
            readers: sources.into_iter().map(LineReader::new).collect(),
            complete: 0,
        }
    }

    /// The next `count` lines of every source (fewer in the last chunk). A source that ends
    /// before another makes the sources read to their ends, to count their lines.
    pub fn read(&mut self, count: usize) -> Result<Chunk, SourceError> {
        let chunk = self.each(|reader| reader.read(count))?;
        let first = chunk.first().map_or(0, Lines::len);
        if chunk.iter().all(|lines| lines.len() == first) {
            self.complete += first;
            return Ok(Chunk::Lines(chunk));
        }
        let mut counts: Vec<usize> = chunk
            .iter()
            .map(|lines| self.complete + lines.len())
            .collect();
        drop(chunk);
        loop {
            let rest = self.each(|reader| reader.read(count))?;
            if rest.iter().all(Lines::is_empty) {
                return Ok(Chunk::Mismatch(counts));
            }
            for (total, lines) in counts.iter_mut().zip(&rest) {
                *total += lines.len();
            }
        }
    }

    fn each(
        &mut self,
        read: impl Fn(&mut LineReader<R>) -> Result<Lines, LineError>,
    ) -> Result<Vec<Lines>, SourceError> {
        let mut chunk = Vec::new();
        reserve(&mut chunk, self.readers.len()).map_err(|error| (0, error.into()))?;
        for (index, reader) in self.readers.iter_mut().enumerate() {
            chunk.push(read(reader).map_err(|error| (index, error))?);
        }
        Ok(chunk)
    }
}

/// Whole lines (the last one may lack its "\n") into text and stripped line ranges.
fn split(bytes: Vec<u8>) -> Result<Lines, LineError> {
    let text = String::from_utf8(bytes).map_err(|error| {
        let valid = error.utf8_error().valid_up_to();
        let bytes = error.into_bytes();
        let start = bytes[..valid]
            .iter()
            .rposition(|&byte| byte == b'\n')
            .map_or(0, |newline| newline + 1);
        let end = bytes[valid..]
            .iter()
            .position(|&byte| byte == b'\n')
            .map_or(bytes.len(), |newline| valid + newline + 1);
        LineError::NotUtf8(bytes[start..end].to_vec())
    })?;
    let mut ranges = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let end = text[start..]
            .find('\n')
            .map_or(text.len(), |newline| start + newline);
        let stripped = text[start..end].trim_end_matches(is_python_whitespace);
        push(&mut ranges, (start, start + stripped.len()))?;
        start = end + 1;
    }
    Ok(Lines { text, ranges })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]

    use super::*;

    /// Every chunk of `count` lines of `bytes`, as owned strings.
    fn chunks(bytes: &[u8], count: usize) -> Vec<Vec<String>> {
        let mut reader = LineReader::new(bytes);
        let mut out = Vec::new();
        loop {
            let lines = reader.read(count).unwrap();
            if lines.is_empty() {
                return out;
            }
            out.push(
                lines
                    .texts()
                    .unwrap()
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            );
        }
    }

    #[test]
    fn lines_end_at_newline_only_and_are_right_stripped() {
        let text = "a \r\nb\rc\t\n\n  d\u{3000}\u{85}\n\u{feff}e\x1c";
        assert_eq!(
            chunks(text.as_bytes(), 10),
            [vec!["a", "b\rc", "", "  d", "\u{feff}e"]]
        );
    }

    #[test]
    fn chunks_hold_count_lines_and_a_final_newline_adds_none() {
        let text = "1\n2\n3\n4\n5\n";
        assert_eq!(
            chunks(text.as_bytes(), 2),
            [vec!["1", "2"], vec!["3", "4"], vec!["5"]]
        );
        assert_eq!(chunks(b"", 3), Vec::<Vec<String>>::new());
        assert_eq!(chunks(b"\n", 3), [vec![""]]);
    }

    #[test]
    fn chunks_across_read_boundaries_are_the_lines_in_order() {
        let lines: Vec<String> = (0..6_000)
            .map(|i| format!("{i} {}", "ab ".repeat(i % 17)))
            .collect();
        let text = lines.join("\n");
        let stripped: Vec<&str> = lines.iter().map(|l| l.trim_end()).collect();
        for count in [1, 7, 4096, 100_000] {
            let chunks = chunks(text.as_bytes(), count);
            assert!(chunks.iter().all(|c| c.len() <= count));
            assert_eq!(chunks.concat(), stripped, "{count}");
        }
    }

    #[test]
    fn lines_longer_than_a_read_are_whole() {
        let long = "x".repeat(3 * READ_BYTES + 5);
        let text = format!("{long}\ny\n{long}");
        assert_eq!(chunks(text.as_bytes(), 2), [vec![&long, "y"], vec![&long]]);
    }

    fn aligned(sources: &[&str], count: usize) -> Vec<Result<Chunk, SourceError>> {
        let mut files = AlignedLines::new(sources.iter().map(|s| s.as_bytes()));
        let mut out = Vec::new();
        loop {
            let chunk = files.read(count);
            let last = !matches!(&chunk, Ok(Chunk::Lines(lines)) if !lines[0].is_empty());
            out.push(chunk);
            if last {
                return out;
            }
        }
    }

    fn aligned_bytes(sources: &[&[u8]], count: usize) -> Vec<Result<Chunk, SourceError>> {
        let mut files = AlignedLines::new(sources.iter().copied());
        let mut out = Vec::new();
        loop {
            let chunk = files.read(count);
            let last = !matches!(&chunk, Ok(Chunk::Lines(lines)) if !lines[0].is_empty());
            out.push(chunk);
            if last {
                return out;
            }
        }
    }

    #[test]
    fn aligned_sources_come_in_step_and_a_mismatch_counts_every_line() {
        let chunks = aligned(&["a\nb\nc\n", "x\ny\nz"], 2);
        assert_eq!(chunks.len(), 3);
        assert!(matches!(&chunks[1], Ok(Chunk::Lines(l)) if l[1].texts().unwrap() == ["z"]));
        let chunks = aligned(
            &["a\nb\nc\nd\ne\n", "x\ny\nz\n", "1\n2\n3\n4\n5\n6\n7\n"],
            2,
        );
        assert!(matches!(chunks.last(), Some(Ok(Chunk::Mismatch(c))) if c == &[5, 3, 7]));
        let chunks = aligned(&["a\n", "x\ny\n"], 5);
        assert!(matches!(chunks.last(), Some(Ok(Chunk::Mismatch(c))) if c == &[1, 2]));
    }

    #[test]
    fn a_failing_source_is_named_by_its_index() {
        let chunks = aligned_bytes(&[b"a\nb\n", b"x\n\xff\n"], 5);
        assert!(matches!(
            chunks.last(),
            Some(Err((1, LineError::NotUtf8(_))))
        ));
    }

    #[test]
    fn an_undecodable_line_is_handed_back_with_its_newline() {
        let mut reader = LineReader::new(&b"ok\nbad \xc3(\nlater\n"[..]);
        match reader.read(5) {
            Err(LineError::NotUtf8(line)) => assert_eq!(line, b"bad \xc3(\n"),
            other => panic!("{other:?}"),
        }
        let mut reader = LineReader::new(&b"ok\nend\xe2\x82"[..]);
        match reader.read(5) {
            Err(LineError::NotUtf8(line)) => assert_eq!(line, b"end\xe2\x82"),
            other => panic!("{other:?}"),
        }
    }
}
