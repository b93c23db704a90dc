//! Turning a segment into the units n-grams are made of: code points and chrF++ word tokens.

/// True for exactly the code points Python's `str.split()` treats as whitespace (spec §3).
///
/// Rust's `char::is_whitespace` is a different set (it lacks U+001C..U+001F), and sacreBLEU's
/// numbers depend on Python's set, so that predicate must not be used anywhere in the crate.
#[inline]
pub fn is_python_whitespace(c: char) -> bool {
    if c.is_ascii() {
        return is_ascii_python_whitespace(c as u8);
    }
    matches!(
        c,
        '\u{09}'..='\u{0D}'
            | '\u{1C}'..='\u{20}'
            | '\u{85}'
            | '\u{A0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202F}'
            | '\u{205F}'
            | '\u{3000}'
    )
}

/// [`is_python_whitespace`] for ASCII, as one test of a 64-bit mask.
#[inline]
const fn is_ascii_python_whitespace(byte: u8) -> bool {
    const MASK: u64 = 0x1_F000_3E00; // 0x09-0x0D, 0x1C-0x20
    byte < 64 && MASK & (1 << byte) != 0
}

/// True for the 32 marks of Python's `string.punctuation`, which sacreBLEU splits off words.
pub(crate) fn is_python_punctuation(c: char) -> bool {
    // `char::is_ascii_punctuation` is defined as exactly the same 32 ASCII marks.
    c.is_ascii_punctuation()
}

/// Calls `f` with every code point character n-grams are taken from, in order.
///
/// Without `include_whitespace`, every whitespace code point is left out, as sacreBLEU's
/// `''.join(line.split())` does; no other change is made (no Unicode normalisation).
#[inline(always)]
pub fn for_each_char_unit(text: &str, include_whitespace: bool, mut f: impl FnMut(u32)) {
    for_each_code_point(text, include_whitespace, |unit, kept| {
        if kept {
            f(unit);
        }
    });
}

/// Calls `f` with every code point of `text`, in order, and whether [`for_each_char_unit`]
/// keeps it: callers that write every code point and keep some, without a branch, take this.
#[inline(always)]
pub fn for_each_code_point(text: &str, include_whitespace: bool, f: impl FnMut(u32, bool)) {
    for_each_code_point_in(Script::of(text), text, include_whitespace, f);
}

/// [`for_each_code_point`] of a text whose [`Script`] the caller has found already.
#[inline(always)]
pub(crate) fn for_each_code_point_in(
    script: Script,
    text: &str,
    include_whitespace: bool,
    mut f: impl FnMut(u32, bool),
) {
    match script {
        // The common case, without UTF-8 decoding.
        Script::Ascii => {
            for &byte in text.as_bytes() {
                f(
                    u32::from(byte),
                    include_whitespace || !is_ascii_python_whitespace(byte),
                );
            }
        }
        Script::Alphabet => alphabetic_units(text, include_whitespace, f),
        // The standard decoder decodes three-byte sequences in fewer instructions than
        // [`alphabetic_units`].
        Script::Other => {
            for c in text.chars() {
                f(u32::from(c), include_whitespace || !is_python_whitespace(c));
            }
        }
    }
}

/// How a text is read, told by its first code point past ASCII.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Script {
    /// No code point past ASCII.
    Ascii,
    /// The first past ASCII takes two bytes: taken to be text in an alphabet (Latin, Greek,
    /// Cyrillic...), most of its code points one or two bytes long.
    Alphabet,
    /// The first past ASCII takes three bytes or four: CJK text, and others.
    Other,
}

impl Script {
    /// The script of `text`: one pass over its ASCII prefix, eight bytes at a time.
    pub(crate) fn of(text: &str) -> Self {
        let bytes = text.as_bytes();
        match bytes.get(ascii_prefix_len(bytes)) {
            None => Self::Ascii,
            Some(&lead) if lead < 0xE0 => Self::Alphabet,
            Some(_) => Self::Other,
        }
    }
}

/// The length of the longest prefix of `bytes` that is ASCII: eight bytes at a time.
#[inline(always)]
fn ascii_prefix_len(bytes: &[u8]) -> usize {
    let mut chunks = bytes.chunks_exact(8);
    let mut done = 0;
    for chunk in chunks.by_ref() {
        let high = eight_bytes(chunk) & HIGHS;
        if high != 0 {
            return done + (high.trailing_zeros() / 8) as usize;
        }
        done += 8;
    }
    done + chunks
        .remainder()
        .iter()
        .take_while(|b| b.is_ascii())
        .count()
}

/// [`for_each_code_point`] of text in an alphabet: ASCII and two-byte code points are decoded
/// here, where the only whitespace of two bytes is U+0085 and U+00A0, and each code point of
/// three or four bytes (quotes, dashes) by the standard decoder, until the next ASCII one.
#[inline(always)]
fn alphabetic_units(text: &str, include_whitespace: bool, mut f: impl FnMut(u32, bool)) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(&lead) = bytes.get(i) {
        if lead < 0x80 {
            f(
                u32::from(lead),
                include_whitespace || !is_ascii_python_whitespace(lead),
            );
            i += 1;
        } else if lead < 0xE0 {
            // A valid two-byte sequence: its second byte is there.
            let second = bytes.get(i + 1).map_or(0, |&b| b & 0x3F);
            let code_point = u32::from(lead & 0x1F) << 6 | u32::from(second);
            f(
                code_point,
                include_whitespace || !matches!(code_point, 0x85 | 0xA0),
            );
            i += 2;
        } else {
            // A lead byte is a char boundary, so the rest of the text is a str.
            let Some(rest) = text.get(i..) else { break };
            let mut chars = rest.chars();
            for c in chars.by_ref() {
                f(u32::from(c), include_whitespace || !is_python_whitespace(c));
                if c.is_ascii() {
                    break;
                }
            }
            i = text.len() - chars.as_str().len();
        }
    }
}

/// Calls `f` with every chrF++ word token of `text`, in order (spec §4, sacreBLEU's
/// `_remove_punctuation`).
///
/// Words are the runs between whitespace. A word of more than one code point loses one
/// punctuation mark: the last if it is one, else the first if it is one ("(hi)" gives "(hi", ")").
pub fn for_each_word_token<'t>(text: &'t str, mut f: impl FnMut(&'t str)) {
    for_each_word(text, |start, cut, end| {
        // Words start and end at whitespace or at the ends of the text, and a mark is one
        // byte: char boundaries.
        if let (Some(first), Some(second)) = (text.get(start..cut), text.get(cut..end)) {
            f(first);
            if !second.is_empty() {
                f(second);
            }
        }
    });
}

/// Calls `f(start, cut, end)` with the byte offsets of every word of `text`, in order: its
/// tokens are `start..cut` and, unless empty, `cut..end` (see [`for_each_word_token`]).
#[inline(always)]
pub(crate) fn for_each_word(text: &str, f: impl FnMut(usize, usize, usize)) {
    match Script::of(text) {
        Script::Ascii | Script::Alphabet => words_by_mask(text, f),
        Script::Other => words_by_skipping(text, f),
    }
}

/// [`for_each_word`] of text in an alphabet, whose words are short: whitespace is found 64 bytes
/// at a time, as a mask with a bit per byte, and words are read off the mask's changes. Where
/// words end and which of them lose a mark vary from one word to the next, and a branch on
/// either would be a stream of mispredictions.
#[inline(always)]
fn words_by_mask(text: &str, mut f: impl FnMut(usize, usize, usize)) {
    let bytes = text.as_bytes();
    // Whether the byte before the block is whitespace (the text starts as if after some), and
    // the bits of whitespace sequences that run into the next block.
    let (mut space_before, mut carried) = (true, 0u64);
    let mut start = 0;
    for (k, block) in bytes.chunks(BLOCK).enumerate() {
        let at = k * BLOCK;
        let (space, spill) = whitespace_mask(bytes, at, block);
        let space = space | carried;
        carried = spill;
        // A bit where a byte's whitespace differs from the byte before it.
        let mut changes = space ^ (space << 1 | u64::from(space_before));
        space_before = space >> (BLOCK - 1) & 1 == 1;
        while changes != 0 {
            let position = at + changes.trailing_zeros() as usize;
            changes &= changes - 1;
            // Changes alternate: a word starts at a byte that is not whitespace.
            if space >> (position - at) & 1 == 0 {
                start = position;
            } else {
                emit_word(bytes, start, position, &mut f);
            }
        }
    }
    if !space_before {
        emit_word(bytes, start, bytes.len(), &mut f);
    }
}

/// [`for_each_word`] of CJK text, whose words are long runs without whitespace: they are skipped
/// eight bytes at a time.
#[inline(always)]
fn words_by_skipping(text: &str, mut f: impl FnMut(usize, usize, usize)) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let space = whitespace_len_at(bytes, i);
        if space > 0 {
            i += space;
            continue;
        }
        let start = i;
        i += 1;
        loop {
            i = next_possible_space(bytes, i);
            if i >= bytes.len() || whitespace_len_at(bytes, i) > 0 {
                break;
            }
            i += 1;
        }
        emit_word(bytes, start, i, &mut f);
    }
}

/// The first index from `i` whose byte may start whitespace: a byte below 0x21 (the ASCII
/// whitespace is 0x09-0x0D and 0x1C-0x20) or a lead byte of non-ASCII whitespace (see
/// [`whitespace_leads`]). Eight bytes at a time.
#[inline]
fn next_possible_space(bytes: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = bytes.get(i..i + 8) {
        let x = eight_bytes(chunk);
        let flags = in_range(x, 0x00, 0x20) | whitespace_leads(x);
        if flags != 0 {
            return i + (flags.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while bytes
        .get(i)
        .is_some_and(|&b| b >= 0x21 && !matches!(b, 0xC2 | 0xE0..=0xE3))
    {
        i += 1;
    }
    i
}

/// Bytes a whitespace mask covers.
const BLOCK: usize = u64::BITS as usize;

/// sacreBLEU's one-mark split of the word `start..end`, without a branch. Punctuation marks are
/// ASCII, so a mark is one byte, and a word of more than one byte whose first or last byte is a
/// mark has more than one code point (UTF-8 continuation and lead bytes are never ASCII).
#[inline(always)]
fn emit_word(bytes: &[u8], start: usize, end: usize, f: &mut impl FnMut(usize, usize, usize)) {
    let mark = |at: usize| {
        bytes
            .get(at)
            .is_some_and(|&b| is_python_punctuation(char::from(b)))
    };
    // `&`, not `&&`: no branch.
    let long = end - start > 1;
    let last = long & mark(end - 1);
    let first = long & !last & mark(start);
    let cut = if last {
        end - 1
    } else if first {
        start + 1
    } else {
        end
    };
    f(start, cut, end);
}

/// The whitespace of `block` (the bytes of `bytes` from `at`) as a bit per byte, and the bits
/// of the next block's bytes that continue a whitespace code point of this one.
#[inline(always)]
fn whitespace_mask(bytes: &[u8], at: usize, block: &[u8]) -> (u64, u64) {
    // The text's end reads as whitespace, which ends its last word. Whole blocks are read in
    // place, without a copy.
    let padded: [u8; BLOCK];
    let block: &[u8; BLOCK] = match block.try_into() {
        Ok(whole) => whole,
        Err(_) => {
            let mut last = [b' '; BLOCK];
            last[..block.len()].copy_from_slice(block);
            padded = last;
            &padded
        }
    };
    let words = block.chunks_exact(8).map(eight_bytes);
    // Each word's 8 bits enter at the top and move down: a chain the compiler keeps scalar (its
    // vector multiplies of 64 bits are slow).
    let mut space = 0u64;
    for x in words.clone() {
        space = space >> 8 | high_bits(in_range(x, 0x09, 0x0D) | in_range(x, 0x1C, 0x20)) << 56;
    }
    let mut leads = 0u64;
    // Blocks of ASCII, all of some text, have no lead bytes to look for.
    if words.clone().fold(0, |any, x| any | x) & HIGHS != 0 {
        for x in words {
            leads = leads >> 8 | high_bits(whitespace_leads(x)) << 56;
        }
    }
    // Lead bytes of the non-ASCII whitespace: tested one by one, but few in most text.
    let mut spill = 0u64;
    while leads != 0 {
        let offset = leads.trailing_zeros() as usize;
        leads &= leads - 1;
        let len = whitespace_len_at(bytes, at + offset);
        let bits = (1u128 << len) - 1;
        let bits = bits << offset;
        space |= bits as u64;
        spill |= (bits >> BLOCK) as u64;
    }
    (space, spill)
}

/// A chunk of eight bytes as a little-endian word.
#[inline(always)]
fn eight_bytes(chunk: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(chunk);
    u64::from_le_bytes(word)
}

const ONES: u64 = u64::from_le_bytes([0x01; 8]);
const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);

/// 0x80 in each byte of `x` in `low..=high` (ASCII), else 0: exact per byte, no borrow crossing
/// bytes, as each byte's high bit is set before the subtraction.
#[inline(always)]
fn in_range(x: u64, low: u8, high: u8) -> u64 {
    let set = x | HIGHS;
    let at_least_low = set.wrapping_sub(ONES * u64::from(low)) & HIGHS;
    let above_high = set.wrapping_sub(ONES * u64::from(high + 1)) & HIGHS;
    at_least_low & !above_high & !x
}

/// 0x80 in each byte of `x` that may lead a whitespace code point past ASCII, else 0: C2, and E0
/// to E3 in one test (E0 leads none, and is tested one by one with the others, see
/// [`whitespace_len_at`]).
#[inline(always)]
fn whitespace_leads(x: u64) -> u64 {
    equal(x, 0xC2) | equal(x & !(ONES * 3), 0xE0)
}

/// 0x80 in each byte of `x` equal to `byte`, else 0: exact per byte.
#[inline(always)]
fn equal(x: u64, byte: u8) -> u64 {
    const LOWS: u64 = !HIGHS;
    let y = x ^ (ONES * u64::from(byte));
    !(((y & LOWS) + LOWS) | y) & HIGHS
}

/// The high bits of the bytes of `flags` (all its other bits clear) as the low 8 bits.
#[inline(always)]
fn high_bits(flags: u64) -> u64 {
    (flags >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The byte length of the whitespace code point starting at `bytes[i]`, or 0 if there is none
/// (a continuation byte, or any other code point). Reads UTF-8 directly: besides ASCII, Python's
/// whitespace set has U+0085 and U+00A0 (lead byte C2), U+1680 (E1), U+2000..U+200A, U+2028,
/// U+2029, U+202F, U+205F (E2) and U+3000 (E3).
#[inline]
fn whitespace_len_at(bytes: &[u8], i: usize) -> usize {
    let at = |k: usize| bytes.get(i + k).copied().unwrap_or(0);
    match at(0) {
        b if b < 0x80 => usize::from(is_ascii_python_whitespace(b)),
        0xC2 => 2 * usize::from(matches!(at(1), 0x85 | 0xA0)),
        0xE1 => 3 * usize::from(at(1) == 0x9A && at(2) == 0x80),
        0xE2 => {
            let space = matches!(
                (at(1), at(2)),
                (0x80, 0x80..=0x8A | 0xA8 | 0xA9 | 0xAF) | (0x81, 0x9F)
            );
            3 * usize::from(space)
        }
        0xE3 => 3 * usize::from(at(1) == 0x80 && at(2) == 0x80),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn char_units(text: &str, include_whitespace: bool, units: &mut Vec<u32>) {
        units.clear();
        for_each_char_unit(text, include_whitespace, |unit| units.push(unit));
    }

    fn tokens(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        for_each_word_token(text, |token| out.push(token));
        out
    }

    #[test]
    fn whitespace_is_pythons_set_not_rusts() {
        for c in ['\u{1C}', '\u{1D}', '\u{1E}', '\u{1F}'] {
            assert!(is_python_whitespace(c) && !c.is_whitespace());
        }
        for c in ['\u{200B}', '\u{180E}', '\u{FEFF}', 'a'] {
            assert!(!is_python_whitespace(c));
        }
        let python_set: Vec<u32> = vec![
            0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x85, 0xA0, 0x1680, 0x2000,
            0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x2028,
            0x2029, 0x202F, 0x205F, 0x3000,
        ];
        let ours: Vec<u32> = (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| is_python_whitespace(c))
            .map(u32::from)
            .collect();
        assert_eq!(ours, python_set);
    }

    #[test]
    fn punctuation_is_string_punctuation() {
        let ours: String = (0u8..128)
            .map(char::from)
            .filter(|&c| is_python_punctuation(c))
            .collect();
        assert_eq!(ours, "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");
    }

    #[test]
    fn the_ascii_mask_is_the_whitespace_set() {
        let ascii: String = (0u8..128).map(char::from).collect();
        let mut units = Vec::new();
        char_units(&ascii, false, &mut units);
        let expected: Vec<u32> = (0u32..128)
            .filter(|&c| !is_python_whitespace(char::from(c as u8)))
            .collect();
        assert_eq!(units, expected);
    }

    #[test]
    fn char_units_delete_whitespace_only_when_asked() {
        let mut units = Vec::new();
        char_units("a b\u{A0}c\u{200B}", false, &mut units);
        assert_eq!(units, vec![0x61, 0x62, 0x63, 0x200B]);
        char_units(" a\u{1F600}", true, &mut units);
        assert_eq!(units, vec![0x20, 0x61, 0x1F600]);
    }

    #[test]
    fn one_mark_is_split_off() {
        assert_eq!(tokens("(hi)"), vec!["(hi", ")"]);
        assert_eq!(tokens("(hi"), vec!["(", "hi"]);
        assert_eq!(tokens("!"), vec!["!"]);
        assert_eq!(tokens("..."), vec!["..", "."]);
        assert_eq!(tokens("é."), vec!["é", "."]);
        assert_eq!(tokens("«a»"), vec!["«a»"]);
        assert_eq!(tokens("  a\u{1C}b\u{200B}c  "), vec!["a", "b\u{200B}c"]);
        assert!(tokens(" \t ").is_empty());
    }

    #[test]
    fn tokens_split_on_every_python_whitespace_and_nothing_else() {
        for space in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let text = format!("a{space}b");
            let expected: Vec<&str> = if is_python_whitespace(space) {
                vec!["a", "b"]
            } else {
                vec![&text]
            };
            assert_eq!(tokens(&text), expected, "U+{:04X}", u32::from(space));
        }
    }

    #[test]
    fn tokens_of_seeded_texts_across_whitespace_blocks_are_the_words_split_by_rule() {
        // Every kind of whitespace and of word byte, in texts of up to five 64-byte blocks, so
        // that words and multi-byte whitespace straddle blocks; against the rule on `char`s.
        let pieces = [
            "a",
            "bc",
            "\u{E9}",
            "\u{201E}",
            "\u{4E2D}",
            "\u{1F600}",
            ",",
            "(",
            ".",
            "\u{1B}",
            "\u{E1}",
            " ",
            "  ",
            "\t",
            "\n",
            "\u{1C}",
            "\u{85}",
            "\u{A0}",
            "\u{1680}",
            "\u{2000}",
            "\u{200A}",
            "\u{2028}",
            "\u{202F}",
            "\u{205F}",
            "\u{3000}",
            "\u{200B}",
        ];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..3000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 320) as usize;
            let mut text = String::new();
            let mut pick = state;
            while text.len() < len {
                pick = pick.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                text.push_str(pieces[(pick >> 33) as usize % pieces.len()]);
            }
            let mut expected = Vec::new();
            for word in text.split(is_python_whitespace).filter(|w| !w.is_empty()) {
                let mark = |c: Option<char>| c.is_some_and(is_python_punctuation);
                let many = word.chars().count() > 1;
                if many && mark(word.chars().last()) {
                    let cut = word.len() - 1;
                    expected.extend([&word[..cut], &word[cut..]]);
                } else if many && mark(word.chars().next()) {
                    expected.extend([&word[..1], &word[1..]]);
                } else {
                    expected.push(word);
                }
            }
            assert_eq!(tokens(&text), expected, "{text:?}");
            // Both ways of finding words, whichever the text's script would take.
            let mut by_mask = Vec::new();
            words_by_mask(&text, |start, cut, end| by_mask.push((start, cut, end)));
            let mut by_skipping = Vec::new();
            words_by_skipping(&text, |start, cut, end| by_skipping.push((start, cut, end)));
            assert_eq!(by_mask, by_skipping, "{text:?}");
        }
    }

    #[test]
    fn char_units_of_mixed_scripts_are_the_code_points_kept() {
        // Seeded texts mixing every width of UTF-8 (combining marks, astral code points), every
        // whitespace code point and its neighbours, in runs that switch between the byte loop
        // and the standard decoder at every place; empty texts among them.
        let pool: Vec<char> =
            "aZ0.\u{7F}\u{80}\u{84}\u{85}\u{86}\u{9F}\u{A0}\u{A1}é\u{301}ß\u{7FF}\
             \u{800}\u{167F}\u{1680}\u{1681}\u{1FFF}\u{200B}\u{2027}\u{202F}\u{205F}\u{2060}\
             \u{3000}\u{3001}中文\u{FFFF}\u{10000}\u{1F600}\u{10FFFF}"
                .chars()
                .chain((0..0x80u8).map(char::from))
                .chain(
                    (0..=0x3000u32)
                        .filter_map(char::from_u32)
                        .filter(|&c| is_python_whitespace(c)),
                )
                .collect();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut below = move |bound: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as usize
        };
        let mut units = Vec::new();
        for case in 0..20_000 {
            let text: String = (0..below(12 + case % 40))
                .map(|_| pool[below(pool.len())])
                .collect();
            for include_whitespace in [false, true] {
                char_units(&text, include_whitespace, &mut units);
                let expected: Vec<u32> = text
                    .chars()
                    .filter(|&c| include_whitespace || !is_python_whitespace(c))
                    .map(u32::from)
                    .collect();
                assert_eq!(units, expected, "{text:?}");
            }
        }
    }
}
