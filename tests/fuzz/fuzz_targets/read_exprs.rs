//! A downstream format whose expressions use every operator: read, write back
//! (`mmd_formats_fuzz::exprs::check`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    mmd_formats_fuzz::exprs::check(data);
});
