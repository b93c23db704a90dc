#![no_main]

libfuzzer_sys::fuzz_target!(|input: chrf_fuzz::targets::corpus::Input| {
    chrf_fuzz::targets::corpus::check(&input);
});
