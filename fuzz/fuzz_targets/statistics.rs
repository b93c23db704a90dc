#![no_main]

libfuzzer_sys::fuzz_target!(|input: chrf_fuzz::targets::statistics::Input| {
    chrf_fuzz::targets::statistics::check(&input);
});
