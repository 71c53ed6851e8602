//! The conformance checker: every code triggered and not, the host spoofing checks and the readings of other software.

#[path = "../common.rs"]
mod common;

mod check;
mod readings;
mod spoof;
