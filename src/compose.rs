//! Writing a reference component by component, recording each component's
//! span as it goes, so that the operations that make new references
//! (resolution, normalization) never parse their own output again; and
//! [`recompose`], the one recomposition (RFC 3986 §5.3) of validated
//! components that [`crate::edit::Builder`] and the setters share.

use crate::error::ParseError;
use crate::iri::{IriRef, Storage};
use crate::iri::{parse_owned, slice};
use crate::meta::{HostMeta, Meta, Slot, Span};
use crate::prelude::*;
use crate::profile::Profile;
use crate::rule::{GrammarRule, Sym};
use crate::syntax;
use crate::syntax::lower::Lower;

/// A reference being written, left to right (RFC 3986 §5.3 order).
pub(crate) struct Builder {
    out: String,
    meta: Meta,
}

impl Builder {
    pub(crate) fn with_capacity(n: usize) -> Self {
        Builder {
            out: String::with_capacity(n),
            meta: Meta::default(),
        }
    }

    fn push(&mut self, s: &str) -> Span {
        let start = self.out.len();
        self.out.push_str(s);
        (start, self.out.len())
    }

    /// `scheme ":"`.
    pub(crate) fn scheme(&mut self, scheme: &str) {
        self.meta.scheme = Slot::new(self.push(scheme));
        self.out.push(':');
    }

    /// `"//" [ userinfo "@" ] host [ ":" port ]`. `host_meta` is the host's
    /// kind as lowered from `host_from`, a reference whose host it is (its
    /// offsets are moved to the new position).
    pub(crate) fn authority(
        &mut self,
        userinfo: Option<&str>,
        host: &str,
        host_meta: HostMeta,
        host_from: Span,
        port: Option<&str>,
    ) {
        let userinfo = userinfo.map(|u| move |out: &mut String| out.push_str(u));
        self.authority_with(
            userinfo,
            |out| out.push_str(host),
            host_meta,
            host_from,
            port,
        );
    }

    /// [`authority`](Self::authority), with the userinfo and the host
    /// written in place by the functions given (which append to the text).
    pub(crate) fn authority_with(
        &mut self,
        userinfo: Option<impl FnOnce(&mut String)>,
        host: impl FnOnce(&mut String),
        host_meta: HostMeta,
        host_from: Span,
        port: Option<&str>,
    ) {
        self.out.push_str("//");
        let start = self.out.len();
        if let Some(write) = userinfo {
            let at = self.out.len();
            write(&mut self.out);
            self.meta.userinfo = Slot::new((at, self.out.len()));
            self.out.push('@');
        }
        let at = self.out.len();
        host(&mut self.out);
        let span = (at, self.out.len());
        let kind = match host_meta {
            HostMeta::IpvFuture { dot } => HostMeta::IpvFuture {
                dot: dot - host_from.0 + span.0,
            },
            other => other,
        };
        self.meta.set_host(span, kind);
        if let Some(p) = port {
            self.out.push(':');
            self.meta.port = Slot::new(self.push(p));
        }
        self.meta.authority = Slot::new((start, self.out.len()));
    }

    /// Copies the authority of `r`, which must have one.
    ///
    /// The authority is copied whole and its components' spans moved with
    /// it: one copy instead of one per component (resolution copies an
    /// authority for most references).
    pub(crate) fn authority_of<T: Storage>(&mut self, r: &IriRef<T>) {
        let meta = r.meta();
        let Some((from, to)) = meta.authority.get() else {
            debug_assert!(false, "authority_of needs an authority");
            return;
        };
        self.out.push_str("//");
        let start = self.out.len();
        self.out.push_str(&r.as_str()[from..to]);
        // Every span of the authority moves from `from` to `start`.
        let moved = |slot: Slot| match slot.get() {
            Some((a, b)) => Slot::new((a - from + start, b - from + start)),
            None => Slot::NONE,
        };
        self.meta.authority = Slot::new((start, self.out.len()));
        self.meta.userinfo = moved(meta.userinfo);
        self.meta.port = moved(meta.port);
        self.meta.host = moved(meta.host);
        self.meta.host_kind = match meta.host_kind {
            HostMeta::IpvFuture { dot } => HostMeta::IpvFuture {
                dot: dot - from + start,
            },
            other => other,
        };
    }

    /// Writes every component of `r`, with `host` in place of its host's
    /// text (a registered name converted by IDNA stays a registered name).
    pub(crate) fn copy_with_host<T: Storage>(r: &IriRef<T>, host: &str) -> IriRef<String> {
        let mut out = Builder::with_capacity(r.as_str().len() + host.len());
        if let Some(s) = r.scheme() {
            out.scheme(s);
        }
        if r.authority().is_some() {
            out.authority(r.userinfo(), host, HostMeta::RegName, (0, 0), r.port());
        }
        let start = out.len();
        out.text_mut().push_str(r.path());
        out.path_from(start);
        if let Some(q) = r.query() {
            out.query(q);
        }
        if let Some(f) = r.fragment() {
            out.fragment(f);
        }
        out.finish()
    }

    /// The byte offset where the next component starts.
    pub(crate) fn len(&self) -> usize {
        self.out.len()
    }

    /// The text written so far, for writing a path in place.
    pub(crate) fn text_mut(&mut self) -> &mut String {
        &mut self.out
    }

    /// Marks `start..` (to the current end) as the path.
    ///
    /// A path that starts with "//" where there is no authority would read
    /// as an authority: it is written "/.//..." instead, which
    /// remove_dot_segments turns back into the same path (the choice of
    /// iri-string and of the WHATWG URL standard; RFC 3986 §5.2.4 leaves the
    /// case open).
    pub(crate) fn path_from(&mut self, start: usize) {
        if self.meta.authority.is_none() && self.out[start..].starts_with("//") {
            self.out.insert_str(start, "/.");
        }
        self.meta.path = Slot::new((start, self.out.len()));
    }

    /// `"?" query`.
    pub(crate) fn query(&mut self, query: &str) {
        self.out.push('?');
        self.meta.query = Slot::new(self.push(query));
    }

    /// `"#" fragment`.
    pub(crate) fn fragment(&mut self, fragment: &str) {
        self.out.push('#');
        self.meta.fragment = Slot::new(self.push(fragment));
    }

    /// `"?" query`, the query written in place by `write`.
    pub(crate) fn query_with(&mut self, write: impl FnOnce(&mut String)) {
        self.out.push('?');
        let at = self.out.len();
        write(&mut self.out);
        self.meta.query = Slot::new((at, self.out.len()));
    }

    /// `"#" fragment`, the fragment written in place by `write`.
    pub(crate) fn fragment_with(&mut self, write: impl FnOnce(&mut String)) {
        self.out.push('#');
        let at = self.out.len();
        write(&mut self.out);
        self.meta.fragment = Slot::new((at, self.out.len()));
    }

    /// The text written, for a caller that parses it again.
    pub(crate) fn into_text(self) -> String {
        self.out
    }

    pub(crate) fn finish(self) -> IriRef<String> {
        debug_assert!(self.meta.path.is_some(), "every reference has a path");
        IriRef::from_parts(self.out, self.meta)
    }
}

/// The components of a reference to write, each without its delimiters;
/// `None` is an absent component, `Some("")` an empty one.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Parts<'a> {
    pub(crate) scheme: Option<&'a str>,
    pub(crate) authority: Option<Authority<'a>>,
    pub(crate) path: &'a str,
    pub(crate) query: Option<&'a str>,
    pub(crate) fragment: Option<&'a str>,
}

/// An authority to write: whole, or by its parts.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Authority<'a> {
    /// `iauthority`, as one string.
    Whole(&'a str),
    /// `[ iuserinfo "@" ] ihost [ ":" port ]`.
    Split {
        userinfo: Option<&'a str>,
        host: &'a str,
        port: Option<&'a str>,
    },
}

impl<'a> Parts<'a> {
    /// The components of `r`.
    pub(crate) fn of<T: Storage>(r: &'a IriRef<T>) -> Self {
        Parts {
            scheme: r.scheme(),
            authority: r.authority().map(|_| Authority::Split {
                userinfo: r.userinfo(),
                host: r.host_str().unwrap_or(""),
                port: r.port(),
            }),
            path: r.path(),
            query: r.query(),
            fragment: r.fragment(),
        }
    }
}

/// A rule by its names in the IRI grammars and in RFC 3986's.
fn rule(profile: Profile, iri: Sym, uri: Sym) -> GrammarRule {
    GrammarRule(if profile == Profile::Rfc3986 {
        uri
    } else {
        iri
    })
}

/// Parses one component's text at its own rule: the error names the
/// component and the position within it.
fn component(text: &str, rule: GrammarRule, profile: Profile) -> Result<Meta, ParseError> {
    syntax::parse(profile, rule, text, Lower)
}

/// Checks a path where it will stand (3987bis §2.2, `ihier-part` and
/// `irelative-part`): first as any path (`ipath`), then by its place:
/// after an authority it must match `ipath-abempty`; without one it may
/// not start with "//" (it would read as an authority), and in a relative
/// reference its first segment may not contain ":" (it would read as a
/// scheme: checked at `irelative-ref`, whose error says so).
fn check_path(parts: &Parts<'_>, profile: Profile) -> Result<(), ParseError> {
    let path = parts.path;
    if path.is_empty() {
        return Ok(());
    }
    component(path, rule(profile, Sym::ipath, Sym::path), profile)?;
    let in_place = if parts.authority.is_some() {
        rule(profile, Sym::ipath_abempty, Sym::path_abempty)
    } else if path.starts_with('/') {
        rule(profile, Sym::ipath_absolute, Sym::path_absolute)
    } else if parts.scheme.is_some() {
        return Ok(());
    } else {
        GrammarRule::IRELATIVE_REF.for_profile(profile)
    };
    component(path, in_place, profile).map(drop)
}

/// Validates each component at its own rule under `profile`, writes them
/// with their delimiters (RFC 3986 §5.3), and validates the whole at `rule`
/// (`IRI-reference`, `IRI`, `absolute-IRI` or `irelative-ref`).
///
/// Each component is checked where it will stand, so no component can
/// spill into another: a host cannot contain ":" or "/", a query cannot
/// contain "#", a path after an authority must start with "/" or be
/// empty. A userinfo or port without a host gets an empty host
/// (`ireg-name` may be empty, and RFC 3986 §3.2.2 gives an empty host the
/// scheme's default).
pub(crate) fn recompose(
    parts: &Parts<'_>,
    rule_: GrammarRule,
    profile: Profile,
) -> Result<IriRef<String>, ParseError> {
    if let Some(s) = parts.scheme {
        component(s, GrammarRule(Sym::scheme), profile)?;
    }
    // The authority's userinfo, host and port, and the host's kind and
    // span within the string it was parsed from.
    let mut authority = None;
    match parts.authority {
        None => {}
        Some(Authority::Whole(a)) => {
            let meta = component(a, rule(profile, Sym::iauthority, Sym::authority), profile)?;
            let (span, kind) = meta.host().unwrap_or(((0, 0), HostMeta::RegName));
            let host = slice(a, Some(span)).unwrap_or("");
            let userinfo = slice(a, meta.userinfo.get());
            let port = slice(a, meta.port.get());
            authority = Some((userinfo, host, port, kind, span));
        }
        Some(Authority::Split {
            userinfo,
            host,
            port,
        }) => {
            if let Some(u) = userinfo {
                component(u, rule(profile, Sym::iuserinfo, Sym::userinfo), profile)?;
            }
            let meta = component(host, rule(profile, Sym::ihost, Sym::host), profile)?;
            let kind = meta.host().map_or(HostMeta::RegName, |(_, kind)| kind);
            if let Some(p) = port {
                component(p, GrammarRule(Sym::port), profile)?;
            }
            authority = Some((userinfo, host, port, kind, (0, host.len())));
        }
    }
    check_path(parts, profile)?;
    if let Some(q) = parts.query {
        component(q, rule(profile, Sym::iquery, Sym::query), profile)?;
    }
    if let Some(f) = parts.fragment {
        component(f, rule(profile, Sym::ifragment, Sym::fragment), profile)?;
    }

    let len = parts.scheme.map_or(0, |s| s.len() + 1)
        + authority.map_or(0, |(u, h, p, _, _)| {
            2 + u.map_or(0, |u| u.len() + 1) + h.len() + p.map_or(0, |p| p.len() + 1)
        })
        + parts.path.len()
        + parts.query.map_or(0, |q| q.len() + 1)
        + parts.fragment.map_or(0, |f| f.len() + 1);
    let mut out = Builder::with_capacity(len);
    if let Some(s) = parts.scheme {
        out.scheme(s);
    }
    if let Some((userinfo, host, port, kind, span)) = authority {
        out.authority(userinfo, host, kind, span, port);
    }
    let start = out.len();
    out.text_mut().push_str(parts.path);
    out.path_from(start);
    if let Some(q) = parts.query {
        out.query(q);
    }
    if let Some(f) = parts.fragment {
        out.fragment(f);
    }
    let written = out.finish();
    // The whole decides (a fragment on an absolute IRI, a scheme on a
    // relative reference, none on an IRI); the components were checked
    // where they stand, so the parse finds them where they were written.
    let expected = *written.meta();
    let parsed = parse_owned(written.into_text(), rule_, profile)?;
    debug_assert_eq!(parsed.meta(), &expected, "{:?}", parsed.as_str());
    Ok(parsed)
}
