//! Shared by the fuzz targets: a reference's components as one string, so
//! two parses can be compared and a failure shows both.

use iribis::{IriRef, Storage};

/// Every component of `r`, the typed host included.
pub fn view<T: Storage>(r: &IriRef<T>) -> String {
    format!(
        "scheme={:?} authority={:?} userinfo={:?} host={:?} port={:?} path={:?} query={:?} fragment={:?}",
        r.scheme(),
        r.authority(),
        r.userinfo(),
        r.host(),
        r.port(),
        r.path(),
        r.query(),
        r.fragment()
    )
}

/// Checks that `owned`, built by an operation that records its components
/// as it writes (resolution, normalization), has exactly the components a
/// fresh parse of its text finds.
pub fn assert_reparses<T: Storage>(owned: &IriRef<T>, what: &str, from: &str) {
    let again = IriRef::parse(owned.as_str())
        .unwrap_or_else(|e| panic!("{what} of {from:?} gave {:?}, which does not parse: {e}", owned.as_str()));
    assert_eq!(view(owned), view(&again), "{what} of {from:?}: recorded and parsed components differ");
}
