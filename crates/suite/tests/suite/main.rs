//! The conformance suite: its cases recomputed from the spec, iribis passing every one, the checked-in copy fresh, the schemas.

mod conformance_suite;
