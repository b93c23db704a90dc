//! `text::for_each_char_unit`, `text::for_each_word_token` and `text::is_python_whitespace`
//! against SPEC §3-4 as the oracle writes them, on any Unicode (the word splitter reads UTF-8
//! bytes eight at a time, so byte patterns matter as much as code points).

use arbitrary::Arbitrary;
use chrf_core::text::{for_each_char_unit, for_each_word_token, is_python_whitespace};

use crate::input::Text;
use crate::oracle;

#[derive(Arbitrary, Debug)]
pub struct Input {
    pub raw: String,
    pub biased: Text,
    pub include_whitespace: bool,
    pub code_point: char,
}

pub fn check(input: &Input) {
    assert_eq!(
        is_python_whitespace(input.code_point),
        oracle::is_whitespace(input.code_point),
        "{:?}",
        input.code_point
    );
    for text in [input.raw.as_str(), input.biased.0.as_str()] {
        let mut units = Vec::new();
        for_each_char_unit(text, input.include_whitespace, |unit| units.push(unit));
        assert_eq!(
            units,
            oracle::char_units(text, input.include_whitespace),
            "{text:?}"
        );

        let mut tokens = Vec::new();
        for_each_word_token(text, |token| tokens.push(token));
        assert_eq!(tokens, oracle::word_tokens(text), "{text:?}");
    }
}
