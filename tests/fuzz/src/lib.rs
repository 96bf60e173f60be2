//! The checks behind the coverage-guided fuzz targets of mmd-formats (see
//! `tests/FUZZING.md`).
//!
//! - [`read::check_file`]: one input of one format, read, written back and inspected; every
//!   property `mmd-fuzz` checks, and a bound on what reading allocates.
//! - [`write`]: decoded samples made inconsistent through their public fields, then
//!   written: every failure must be an `Err`, and every file written must read back as the
//!   value that was written.
//! - [`exprs::check`]: a downstream format whose expressions use every operator, read
//!   and written back: an expression that cannot be evaluated is a read error.
//! - [`build::check_document`]: one JSON document built as each format (`mmd build`):
//!   every failure an error at a JSON path or a line and column, and every file built
//!   reads back and dumps to JSON that builds it again.
//!
//! Every call into `mmd-formats` beyond the format types' own fields and constructors is
//! in [`api`], so that a moved or renamed function is fixed in one place.

pub mod alloc;
pub mod api;
pub mod build;
pub mod exprs;
pub mod read;
pub mod write;
