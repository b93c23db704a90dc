#![no_main]

libfuzzer_sys::fuzz_target!(|input: chrf_fuzz::targets::scores::Input| {
    chrf_fuzz::targets::scores::check(&input);
});
