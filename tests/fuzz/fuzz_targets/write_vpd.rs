//! The VPD writer on values made inconsistent on purpose (`mmd_formats_fuzz::write::vpd`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mmd_formats_fuzz::write::vpd::{check, Case};

fuzz_target!(|case: Case| check(case));
