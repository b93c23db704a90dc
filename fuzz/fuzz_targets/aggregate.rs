#![no_main]

libfuzzer_sys::fuzz_target!(|input: chrf_fuzz::targets::aggregate::Input| {
    chrf_fuzz::targets::aggregate::check(&input);
});
