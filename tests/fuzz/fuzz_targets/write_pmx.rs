//! The PMX writer on values made inconsistent on purpose (`mmd_formats_fuzz::write::pmx`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mmd_formats_fuzz::write::pmx::{check, Case};

fuzz_target!(|case: Case| check(case));
