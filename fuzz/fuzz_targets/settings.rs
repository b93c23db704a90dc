#![no_main]

libfuzzer_sys::fuzz_target!(|input: chrf_fuzz::targets::settings::Input| {
    chrf_fuzz::targets::settings::check(&input);
});
