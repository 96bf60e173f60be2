//! The PMD writer on values made inconsistent on purpose (`mmd_formats_fuzz::write::pmd`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mmd_formats_fuzz::write::pmd::{check, Case};

fuzz_target!(|case: Case| check(case));
