//! PMD files: read, write back, inspect (the properties of `mmd_formats_fuzz::read::check_file`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mmd_formats_fuzz::api::Format;

fuzz_target!(|data: &[u8]| {
    mmd_formats_fuzz::read::check_file(Format::Pmd, data);
});
