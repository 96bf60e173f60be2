//! Shared helpers for the mmd-formats test suites.
