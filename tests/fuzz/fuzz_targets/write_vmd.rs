//! The VMD writer on values made inconsistent on purpose (`mmd_formats_fuzz::write::vmd`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mmd_formats_fuzz::write::vmd::{check, Case};

fuzz_target!(|case: Case| check(case));
