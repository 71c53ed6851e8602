//! The storage model of a parsed reference: the byte span of each
//! component in the text, and what is known of the host. Both parsers fill
//! it in (the fast path's split, `crate::fast`, and the lowering of pest's
//! pairs, `crate::syntax::lower`), and the reference types and the
//! operations read components from it without scanning the text again.

use core::net::{Ipv4Addr, Ipv6Addr};

/// A byte range of the input: `(start, end)`.
pub(crate) type Span = (usize, usize);

/// What lowering learns about the host besides its span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HostMeta {
    RegName,
    Ipv4(Ipv4Addr),
    Ipv6(Ipv6Addr),
    /// `dot` is the byte offset of the "." between version and address.
    IpvFuture {
        dot: usize,
    },
}

/// A component's span as stored in a [`Meta`]: `start == usize::MAX` marks
/// an absent component, so the slot takes two words rather than the three
/// of an `Option<Span>` (results are copied by value, and their size showed
/// in the profile of the fast path).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Slot {
    start: usize,
    end: usize,
}

impl Slot {
    /// An absent component.
    pub(crate) const NONE: Slot = Slot {
        start: usize::MAX,
        end: 0,
    };

    /// A present component, possibly empty.
    #[inline]
    pub(crate) const fn new((start, end): Span) -> Slot {
        debug_assert!(start <= end && start != usize::MAX);
        Slot { start, end }
    }

    /// The span, `None` when the component is absent.
    #[inline]
    pub(crate) fn get(self) -> Option<Span> {
        (self.start != usize::MAX).then_some((self.start, self.end))
    }

    #[inline]
    pub(crate) fn is_some(self) -> bool {
        self.start != usize::MAX
    }

    #[inline]
    pub(crate) fn is_none(self) -> bool {
        self.start == usize::MAX
    }
}

impl Default for Slot {
    fn default() -> Self {
        Slot::NONE
    }
}

impl core::fmt::Debug for Slot {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.get().fmt(f)
    }
}

/// The components found in a parse, as spans of the input. An absent
/// component has an empty [`Slot`]; a present but empty one the span
/// `(i, i)`. `host_kind` describes the host when `host` is present.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Meta {
    pub(crate) scheme: Slot,
    pub(crate) authority: Slot,
    pub(crate) userinfo: Slot,
    pub(crate) host: Slot,
    pub(crate) host_kind: HostMeta,
    pub(crate) port: Slot,
    pub(crate) path: Slot,
    pub(crate) query: Slot,
    pub(crate) fragment: Slot,
}

impl Default for Meta {
    #[inline]
    fn default() -> Self {
        Meta::NONE
    }
}

impl Meta {
    /// No component at all: what a parse starts from.
    pub(crate) const NONE: Meta = Meta {
        scheme: Slot::NONE,
        authority: Slot::NONE,
        userinfo: Slot::NONE,
        host: Slot::NONE,
        host_kind: HostMeta::RegName,
        port: Slot::NONE,
        path: Slot::NONE,
        query: Slot::NONE,
        fragment: Slot::NONE,
    };

    /// Whether every component lies in `text` and starts and ends on a
    /// character boundary of it. The fast path's split meets this by
    /// construction on tables that passed `crate::fast::proof::check`;
    /// the pest path checks it (`Proven::fitting`) before the accessors of
    /// the references it builds slice without checks (`IriRef::component`);
    /// the debug builds assert it wherever a reference is built from parts.
    ///
    /// A `const fn`, for the references of the checked literals
    /// (`crate::literal`), which build their proof with it at compile time.
    pub(crate) const fn fits(&self, text: &str) -> bool {
        let slots = [
            self.scheme,
            self.authority,
            self.userinfo,
            self.host,
            self.port,
            self.path,
            self.query,
            self.fragment,
        ];
        let mut i = 0;
        while i < slots.len() {
            let Slot { start, end } = slots[i];
            // What `text.get(start..end).is_some()` checks: in order, and
            // both ends on a boundary (false past the end).
            if start != usize::MAX
                && !(start <= end && text.is_char_boundary(start) && text.is_char_boundary(end))
            {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The host's span and kind.
    #[inline]
    pub(crate) fn host(&self) -> Option<(Span, HostMeta)> {
        self.host.get().map(|s| (s, self.host_kind))
    }

    /// Sets the host's span and kind.
    #[inline]
    pub(crate) const fn set_host(&mut self, span: Span, kind: HostMeta) {
        self.host = Slot::new(span);
        self.host_kind = kind;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_checks_bounds_order_and_character_boundaries() {
        let text = "http://é/"; // "é" is bytes 7 and 8
        let mut meta = Meta::default();
        assert!(meta.fits(text));
        meta.scheme = Slot::new((0, 4));
        meta.host = Slot::new((7, 9));
        meta.path = Slot::new((9, 10));
        assert!(meta.fits(text));
        meta.query = Slot::new((10, 10));
        assert!(meta.fits(text), "an empty component at the end");
        for (bad, why) in [
            ((7, 8), "inside é"),
            ((8, 9), "inside é"),
            ((9, 11), "past the end"),
        ] {
            let mut m = meta;
            m.fragment = Slot::new(bad);
            assert!(!m.fits(text), "{why}: {bad:?}");
        }
        let mut m = meta;
        m.port = Slot { start: 5, end: 4 };
        assert!(!m.fits(text), "reversed");
    }
}
