//! Resolution, normalization and the IRI ↔ URI conversions, iribis beside
//! the peers that have them, in the same run, on the references of
//! `benches/data/mixed-iris-20k.txt`.
//!
//! Parsing is done before the timed loop: each library resolves its own
//! parsed references against its own parsed base (RFC 3986 §5.4's
//! `http://a/b/c/d;p?q`) and produces an owned result; for normalization,
//! each normalizes the IRIs (references with a scheme) it parsed. Only the
//! inputs every library accepts are used, so all do the same work. oxiri
//! has no normalization.
//!
//! The conversions start from the text, parsing included, as a caller with
//! a string would: IRI → URI (3987bis §3.3) beside iri-string's
//! `encode_to_uri`, the one peer that has it; URI → IRI (§4.2, on the URIs
//! that conversion gives) has no peer, and is timed alone.
//!
//! Run: `cargo bench --bench ops`, then `python3 benches/summarize.py`.

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};

const BASE: &str = "http://a/b/c/d;p?q";

fn corpus() -> Vec<String> {
    let path = format!("{}/data/mixed-iris-20k.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    text.lines().map(str::to_owned).collect()
}

/// The lines every library parses as a reference.
fn common(lines: Vec<String>) -> Vec<String> {
    lines
        .into_iter()
        .filter(|l| {
            iribis::IriRef::parse(l).is_ok()
                && oxiri::IriRef::parse(l.as_str()).is_ok()
                && iri_string::types::IriReferenceStr::new(l).is_ok()
                && fluent_uri::IriRef::parse(l.as_str()).is_ok()
        })
        .collect()
}

/// A group of `elements` references: 20 samples of 4 s each.
fn new_group<'a>(
    c: &'a mut Criterion,
    name: &str,
    elements: usize,
) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(elements as u64));
    group.sample_size(20);
    group.warm_up_time(std::time::Duration::from_secs(1));
    group.measurement_time(std::time::Duration::from_secs(4));
    group
}

fn resolve(c: &mut Criterion) {
    let lines = common(corpus());
    let mut group = new_group(c, "resolve-mixed", lines.len());

    let base = iribis::Iri::parse(BASE).unwrap();
    let refs: Vec<_> = lines
        .iter()
        .map(|l| iribis::IriRef::parse(l).unwrap())
        .collect();
    group.bench_function("iribis", |b| {
        b.iter(|| {
            refs.iter()
                .map(|r| base.resolve(black_box(r)).as_str().len())
                .sum::<usize>()
        })
    });

    let base = oxiri::Iri::parse(BASE).unwrap();
    let refs: Vec<_> = lines
        .iter()
        .map(|l| oxiri::IriRef::parse(l.as_str()).unwrap())
        .collect();
    group.bench_function("oxiri", |b| {
        b.iter(|| {
            refs.iter()
                .map(|r| base.resolve(black_box(r)).map_or(1, |x| x.as_str().len()))
                .sum::<usize>()
        })
    });

    let base = iri_string::types::IriAbsoluteStr::new(BASE).unwrap();
    let refs: Vec<_> = lines
        .iter()
        .map(|l| iri_string::types::IriReferenceStr::new(l).unwrap())
        .collect();
    group.bench_function("iri-string", |b| {
        b.iter(|| {
            refs.iter()
                .map(|r| black_box(*r).resolve_against(base).to_string().len())
                .sum::<usize>()
        })
    });

    let base = fluent_uri::Iri::parse(BASE).unwrap();
    let refs: Vec<_> = lines
        .iter()
        .map(|l| fluent_uri::IriRef::parse(l.as_str()).unwrap())
        .collect();
    group.bench_function("fluent-uri", |b| {
        b.iter(|| {
            refs.iter()
                .map(|r| {
                    black_box(r)
                        .resolve_against(&base)
                        .map_or(1, |x| x.as_str().len())
                })
                .sum::<usize>()
        })
    });
    group.finish();
}

fn normalize(c: &mut Criterion) {
    let lines: Vec<String> = common(corpus())
        .into_iter()
        .filter(|l| {
            iribis::Iri::parse(l).is_ok()
                && iri_string::types::IriStr::new(l).is_ok()
                && fluent_uri::Iri::parse(l.as_str()).is_ok()
        })
        .collect();
    let mut group = new_group(c, "normalize-mixed", lines.len());

    let iris: Vec<_> = lines
        .iter()
        .map(|l| iribis::Iri::parse(l).unwrap())
        .collect();
    group.bench_function("iribis", |b| {
        b.iter(|| {
            iris.iter()
                .map(|r| black_box(r).normalize().as_str().len())
                .sum::<usize>()
        })
    });

    let iris: Vec<_> = lines
        .iter()
        .map(|l| iri_string::types::IriStr::new(l).unwrap())
        .collect();
    group.bench_function("iri-string", |b| {
        b.iter(|| {
            iris.iter()
                .map(|r| black_box(*r).normalize().to_string().len())
                .sum::<usize>()
        })
    });

    let iris: Vec<_> = lines
        .iter()
        .map(|l| fluent_uri::Iri::parse(l.as_str()).unwrap())
        .collect();
    group.bench_function("fluent-uri", |b| {
        b.iter(|| {
            iris.iter()
                .map(|r| black_box(r).normalize().as_str().len())
                .sum::<usize>()
        })
    });
    group.finish();
}

fn convert(c: &mut Criterion) {
    let lines = common(corpus());
    let mut group = new_group(c, "to-uri-mixed", lines.len());
    let options = iribis::convert::ToUriOptions::new();
    group.bench_function("iribis", |b| {
        b.iter(|| {
            lines
                .iter()
                .map(|l| iribis::to_uri(black_box(l), &options).map_or(1, |u| u.len()))
                .sum::<usize>()
        })
    });
    group.bench_function("iri-string", |b| {
        b.iter(|| {
            lines
                .iter()
                .map(|l| {
                    iri_string::types::IriReferenceStr::new(black_box(l))
                        .map_or(1, |r| r.encode_to_uri().to_string().len())
                })
                .sum::<usize>()
        })
    });
    group.finish();

    let uris: Vec<String> = lines
        .iter()
        .filter_map(|l| iribis::to_uri(l, &options).ok())
        .collect();
    let mut group = new_group(c, "to-iri-mixed", uris.len());
    let options = iribis::convert::ToIriOptions::new();
    group.bench_function("iribis", |b| {
        b.iter(|| {
            uris.iter()
                .map(|u| iribis::to_iri(black_box(u), &options).map_or(1, |i| i.len()))
                .sum::<usize>()
        })
    });
    group.finish();
}

// criterion_group! defines a public function without documentation.
#[allow(missing_docs)]
mod group {
    use super::*;
    criterion_group!(benches, resolve, normalize, convert);
}
criterion_main!(group::benches);
