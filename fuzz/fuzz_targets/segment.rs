#![no_main]

libfuzzer_sys::fuzz_target!(|input: chrf_fuzz::targets::segment::Input| {
    chrf_fuzz::targets::segment::check(&input);
});
