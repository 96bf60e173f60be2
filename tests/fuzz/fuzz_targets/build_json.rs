//! JSON documents built as every format (`mmd build`), the properties of
//! `mmd_formats_fuzz::build::check_document`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    mmd_formats_fuzz::build::check_document(data);
});
