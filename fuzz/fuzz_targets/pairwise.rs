#![no_main]

libfuzzer_sys::fuzz_target!(|input: chrf_fuzz::targets::pairwise::Input| {
    chrf_fuzz::targets::pairwise::check(&input);
});
