//! What the library takes from std and `alloc` lacks, the same names under
//! both builds: the cells written once (the tables decoded on first use, an
//! error's details) and the map of the checker's host cache.
//!
//! With the `std` feature they are std's own. Without it, the cells are
//! once_cell's `race::OnceBox` (an atomic pointer to a box, so nothing but
//! atomics and `alloc`), and the map is a `BTreeMap`. A `race` cell's value
//! may be computed by more than one thread at first use, of which one is
//! kept: every value computed here is a pure function of the tables, so
//! the one kept is the same either way.

#[cfg(feature = "std")]
pub(crate) use std::collections::HashMap;
#[cfg(feature = "std")]
pub(crate) use std::sync::{LazyLock, OnceLock};

#[cfg(not(feature = "std"))]
pub(crate) use alloc::collections::BTreeMap as HashMap;
#[cfg(not(feature = "std"))]
pub(crate) use race::{LazyLock, OnceLock};

/// `LazyLock` and `OnceLock` as far as the library uses them, over
/// `once_cell::race::OnceBox`.
#[cfg(not(feature = "std"))]
mod race {
    use alloc::boxed::Box;
    use core::ops::Deref;

    use once_cell::race::OnceBox;

    /// A value computed by `init` on first use (as `std::sync::LazyLock`).
    pub(crate) struct LazyLock<T> {
        cell: OnceBox<T>,
        init: fn() -> T,
    }

    impl<T> LazyLock<T> {
        /// A cell that `init` fills when first read.
        pub(crate) const fn new(init: fn() -> T) -> Self {
            Self {
                cell: OnceBox::new(),
                init,
            }
        }
    }

    impl<T> Deref for LazyLock<T> {
        type Target = T;

        #[inline]
        fn deref(&self) -> &T {
            self.cell.get_or_init(|| Box::new((self.init)()))
        }
    }

    /// A cell written at most once (as `std::sync::OnceLock`).
    pub(crate) struct OnceLock<T>(OnceBox<T>);

    impl<T> OnceLock<T> {
        /// An empty cell.
        pub(crate) const fn new() -> Self {
            Self(OnceBox::new())
        }

        /// The value, written by `f` if the cell is empty.
        #[inline]
        pub(crate) fn get_or_init(&self, f: impl FnOnce() -> T) -> &T {
            self.0.get_or_init(|| Box::new(f()))
        }
    }

    impl<T> From<T> for OnceLock<T> {
        fn from(value: T) -> Self {
            Self(OnceBox::with_value(Box::new(value)))
        }
    }

    impl<T: Clone> Clone for OnceLock<T> {
        fn clone(&self) -> Self {
            Self(self.0.clone())
        }
    }
}
