#![no_main]

libfuzzer_sys::fuzz_target!(|input: chrf_fuzz::targets::bootstrap::Input| {
    chrf_fuzz::targets::bootstrap::check(&input);
});
