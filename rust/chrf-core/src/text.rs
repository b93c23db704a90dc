//! Turning a segment into the units n-grams are made of: code points and chrF++ word tokens.

/// True for exactly the code points Python's `str.split()` treats as whitespace (SPEC §3).
///
/// Rust's `char::is_whitespace` is a different set (it lacks U+001C..U+001F), and sacreBLEU's
/// numbers depend on Python's set, so that predicate must not be used anywhere in the crate.
pub fn is_python_whitespace(c: char) -> bool {
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

/// True for the 32 marks of Python's `string.punctuation`, which sacreBLEU splits off words.
pub fn is_python_punctuation(c: char) -> bool {
    // `char::is_ascii_punctuation` is defined as exactly the same 32 ASCII marks.
    c.is_ascii_punctuation()
}

/// Writes the code points character n-grams are taken from into `units`.
///
/// Without `include_whitespace`, every whitespace code point is deleted, as sacreBLEU's
/// `''.join(line.split())` does; no other change is made (no Unicode normalisation).
pub fn char_units(text: &str, include_whitespace: bool, units: &mut Vec<u32>) {
    units.clear();
    if include_whitespace {
        units.extend(text.chars().map(u32::from));
    } else {
        units.extend(
            text.chars()
                .filter(|&c| !is_python_whitespace(c))
                .map(u32::from),
        );
    }
}

/// Appends the chrF++ word tokens of `text` to `tokens` (SPEC §4, sacreBLEU's `_remove_punctuation`).
///
/// Words are the runs between whitespace. A word of more than one code point loses one
/// punctuation mark: the last if it is one, else the first if it is one ("(hi)" gives "(hi", ")").
pub fn word_tokens<'t>(text: &'t str, tokens: &mut Vec<&'t str>) {
    for word in text.split(is_python_whitespace).filter(|w| !w.is_empty()) {
        let mut chars = word.chars();
        let first = chars.next();
        let last = chars.next_back();
        match (first, last) {
            // Punctuation marks are ASCII, so one byte: splitting at 1 or len - 1 is a char boundary.
            (_, Some(end)) if is_python_punctuation(end) => {
                let cut = word.len() - 1;
                tokens.push(&word[..cut]);
                tokens.push(&word[cut..]);
            }
            (Some(start), Some(_)) if is_python_punctuation(start) => {
                tokens.push(&word[..1]);
                tokens.push(&word[1..]);
            }
            _ => tokens.push(word),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        word_tokens(text, &mut out);
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
}
