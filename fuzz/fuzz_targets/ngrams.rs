#![no_main]

libfuzzer_sys::fuzz_target!(|input: chrf_fuzz::targets::ngrams::Input| {
    chrf_fuzz::targets::ngrams::check(&input);
});
