#![no_main]

libfuzzer_sys::fuzz_target!(|input: chrf_fuzz::targets::text::Input| {
    chrf_fuzz::targets::text::check(&input);
});
