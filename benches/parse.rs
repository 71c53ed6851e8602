//! Parse to components: iribis beside oxiri, iri-string, fluent-uri and url,
//! in the same run, on the two corpora of `benches/data/` and on the
//! one-character reference "a" (the fixed cost of a parse).
//!
//! Each library parses every line and reads every component it offers
//! (scheme, authority or userinfo/host/port, path, query, fragment); the
//! lengths are summed into a black box so nothing is optimised away. `url`
//! parses URLs, not references, so it runs on the URL corpus only.
//!
//! Run: `cargo bench --bench parse`, then `python3 benches/summarize.py`
//! for the table of ns per reference, MB/s and ratios.
//!
//! With `PARSE_ONCE=LIBRARY:FILE:PASSES` in the environment the binary does
//! not time anything: it parses every line of `benches/data/FILE` with
//! LIBRARY (a name of [`libraries`]) PASSES times and exits. Under
//! `valgrind --tool=callgrind` that counts instructions, which are
//! repeatable on a noisy machine where times are not;
//! `python3 benches/instructions.py` runs it for every library and corpus.
//!
//! With `PARSE_PAIRED=FILE:ROUNDS[:LIBRARY,LIBRARY,...]` it times the
//! libraries (iribis and oxiri unless named) in alternating rounds instead,
//! one pass over the corpus each per round, the order reversed from one
//! round to the next, and prints each library's time and the median and quartiles of
//! the ratio of the first library's time to each other's *in the same
//! round*. On a machine whose speed drifts by tens of percent within
//! seconds (criterion times one library for seconds, then the next), those
//! paired ratios move far less than the ratios of criterion's times
//! (docs/performance.md). Pin it to one core: `taskset -c 1`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use iribis::{GrammarRule, Host, IriRef, Profile};

fn corpus(name: &str) -> Vec<String> {
    let path = format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    text.lines().map(str::to_owned).collect()
}

fn len(s: Option<&str>) -> usize {
    s.map_or(0, str::len)
}

fn iribis_fast(line: &str) -> usize {
    match IriRef::parse(line) {
        Ok(r) => {
            let host = match r.host() {
                Some(Host::RegName(h)) => h.len(),
                Some(Host::Ipv4(a)) => a.octets()[0] as usize,
                Some(Host::Ipv6(a)) => a.segments()[0] as usize,
                Some(Host::IpvFuture(f)) => f.address().len(),
                Some(_) | None => 0,
            };
            len(r.scheme())
                + len(r.userinfo())
                + host
                + len(r.port())
                + r.path().len()
                + len(r.query())
                + len(r.fragment())
        }
        Err(_) => 1,
    }
}

/// Validation alone (what `iri check` and Python's `is_valid` ask first).
fn iribis_valid(line: &str) -> usize {
    usize::from(GrammarRule::IRI_REFERENCE.matches(line, Profile::Rfc3987bis))
}

fn iribis_pest(line: &str) -> usize {
    match iribis::Components::parse(line, GrammarRule::IRI_REFERENCE, Profile::Rfc3987bis) {
        Ok(r) => {
            let host = match r.host() {
                Some(Host::RegName(h)) => h.len(),
                Some(Host::Ipv4(a)) => a.octets()[0] as usize,
                Some(Host::Ipv6(a)) => a.segments()[0] as usize,
                Some(Host::IpvFuture(f)) => f.address().len(),
                Some(_) | None => 0,
            };
            len(r.scheme())
                + len(r.userinfo())
                + host
                + len(r.port())
                + len(r.path())
                + len(r.query())
                + len(r.fragment())
        }
        Err(_) => 1,
    }
}

fn oxiri(line: &str) -> usize {
    match oxiri::IriRef::parse(line) {
        Ok(r) => {
            len(r.scheme())
                + len(r.authority())
                + r.path().len()
                + len(r.query())
                + len(r.fragment())
        }
        Err(_) => 1,
    }
}

fn iri_string(line: &str) -> usize {
    match iri_string::types::IriReferenceStr::new(line) {
        Ok(r) => {
            let auth = r
                .authority_components()
                .map_or(0, |a| len(a.userinfo()) + a.host().len() + len(a.port()));
            len(r.scheme_str())
                + auth
                + r.path_str().len()
                + len(r.query_str())
                + len(r.fragment_str())
        }
        Err(_) => 1,
    }
}

fn fluent_uri(line: &str) -> usize {
    match fluent_uri::IriRef::parse(line) {
        Ok(r) => {
            let auth = r.authority().map_or(0, |a| {
                a.userinfo().map_or(0, |u| u.as_str().len())
                    + a.host().len()
                    + a.port().map_or(0, |p| p.as_str().len())
            });
            r.scheme().map_or(0, |s| s.as_str().len())
                + auth
                + r.path().as_str().len()
                + r.query().map_or(0, |q| q.as_str().len())
                + r.fragment().map_or(0, |f| f.as_str().len())
        }
        Err(_) => 1,
    }
}

fn url(line: &str) -> usize {
    match url::Url::parse(line) {
        Ok(u) => {
            u.scheme().len()
                + u.username().len()
                + len(u.host_str())
                + u.port().map_or(0, usize::from)
                + u.path().len()
                + len(u.query())
                + len(u.fragment())
        }
        Err(_) => 1,
    }
}

type Lib = (&'static str, fn(&str) -> usize);

fn libraries(with_url: bool) -> Vec<Lib> {
    let mut libs: Vec<Lib> = vec![
        ("iribis", iribis_fast),
        ("iribis-pest", iribis_pest),
        ("iribis-valid", iribis_valid),
        ("oxiri", oxiri),
        ("iri-string", iri_string),
        ("fluent-uri", fluent_uri),
    ];
    if with_url {
        libs.push(("url", url));
    }
    libs
}

/// The library of [`libraries`] named `name`.
fn library(name: &str) -> Lib {
    let all = libraries(true);
    all.iter()
        .copied()
        .find(|&(n, _)| n == name)
        .unwrap_or_else(|| {
            let names: Vec<&str> = all.iter().map(|&(n, _)| n).collect();
            panic!(
                "no library {name:?}; the libraries are {}",
                names.join(", ")
            )
        })
}

fn bench_corpus(c: &mut Criterion, file: &str, group_name: &str, with_url: bool) {
    bench_lines(c, corpus(file), group_name, with_url);
}

fn bench_lines(c: &mut Criterion, lines: Vec<String>, group_name: &str, with_url: bool) {
    let bytes: usize = lines.iter().map(String::len).sum();
    let mut group = c.benchmark_group(group_name);
    group.throughput(Throughput::Bytes(bytes as u64));
    group.sample_size(20);
    group.warm_up_time(std::time::Duration::from_secs(1));
    group.measurement_time(std::time::Duration::from_secs(4));
    for (name, f) in libraries(with_url) {
        group.bench_with_input(BenchmarkId::from_parameter(name), &lines, |b, lines| {
            b.iter(|| lines.iter().map(|l| f(black_box(l))).sum::<usize>())
        });
    }
    group.finish();
}

fn kasztp(c: &mut Criterion) {
    bench_corpus(c, "kasztp-urls.txt", "kasztp-urls", true);
}

/// The URL corpus without the 341 lines that are not IRI references: for
/// those, iribis builds its detailed error report with pest, which costs
/// tens of microseconds each; this group times the valid input alone.
fn kasztp_valid(c: &mut Criterion) {
    let lines = corpus("kasztp-urls.txt")
        .into_iter()
        .filter(|l| IriRef::parse(l).is_ok())
        .collect();
    bench_lines(c, lines, "kasztp-urls-valid", true);
}

fn mixed(c: &mut Criterion) {
    bench_corpus(c, "mixed-iris-20k.txt", "mixed-iris-20k", false);
}

fn tiny(c: &mut Criterion) {
    let mut group = c.benchmark_group("one-char");
    for (name, f) in libraries(false) {
        group.bench_function(name, |b| b.iter(|| f(black_box("a"))));
    }
    group.finish();
}

/// `PARSE_ONCE=LIBRARY:FILE:PASSES`: parse the corpus `FILE` with
/// `LIBRARY` `PASSES` times, untimed, for an instruction count. The
/// difference between the counts of two and one passes is one warm pass:
/// what a parse costs once the tables are built and the corpus is read.
fn parse_once(spec: &str) {
    let mut parts = spec.split(':');
    let (Some(lib), Some(file), Some(passes), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        panic!("PARSE_ONCE must be LIBRARY:FILE:PASSES, not {spec:?}");
    };
    let passes: usize = passes.parse().expect("PASSES is a number");
    let f = library(lib).1;
    let lines = corpus(file);
    let mut sum = 0;
    for _ in 0..passes {
        sum += lines.iter().map(|l| f(black_box(l))).sum::<usize>();
    }
    println!(
        "{lib} {file} {passes} pass(es): {} lines, {sum}",
        lines.len()
    );
}

/// The rounds of [`parse_paired`] before the counted ones, which warm the
/// caches.
const WARM_UP: usize = 3;

/// `PARSE_PAIRED=FILE:ROUNDS[:LIBRARY,LIBRARY,...]`: see the module's
/// documentation.
fn parse_paired(spec: &str) {
    let mut parts = spec.split(':');
    let (Some(file), Some(rounds), names, None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        panic!("PARSE_PAIRED must be FILE:ROUNDS[:LIBRARY,LIBRARY,...], not {spec:?}");
    };
    let rounds: usize = rounds.parse().expect("ROUNDS is a number");
    assert!(rounds > 0, "ROUNDS must be at least 1");
    let libs: Vec<Lib> = names
        .unwrap_or("iribis,oxiri")
        .split(',')
        .map(library)
        .collect();
    let lines = corpus(file);
    // Per library, the ns per line of each counted round.
    let mut times = vec![Vec::with_capacity(rounds); libs.len()];
    let mut sum = 0;
    for round in 0..WARM_UP + rounds {
        let mut order: Vec<usize> = (0..libs.len()).collect();
        if round % 2 == 1 {
            order.reverse();
        }
        for i in order {
            let start = std::time::Instant::now();
            sum += lines.iter().map(|l| libs[i].1(black_box(l))).sum::<usize>();
            let ns = start.elapsed().as_secs_f64() * 1e9 / lines.len() as f64;
            if round >= WARM_UP {
                times[i].push(ns);
            }
        }
    }
    black_box(sum);
    // The value at fraction `q` of the sorted values.
    let at = |v: &[f64], q: f64| {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        v[((v.len() - 1) as f64 * q).round() as usize]
    };
    println!("{file}: {} lines, {rounds} rounds", lines.len());
    for (i, (name, _)) in libs.iter().enumerate() {
        let t = &times[i];
        print!(
            "{name:>12}: best {:7.1} ns, median {:7.1} ns",
            at(t, 0.0),
            at(t, 0.5)
        );
        if i > 0 {
            let ratios: Vec<f64> = times[0].iter().zip(t).map(|(a, b)| a / b).collect();
            print!(
                "; {} ÷ {name}: median {:.3} (quartiles {:.3}–{:.3})",
                libs[0].0,
                at(&ratios, 0.5),
                at(&ratios, 0.25),
                at(&ratios, 0.75)
            );
        }
        println!();
    }
}

// criterion_group! defines a public function without documentation.
#[allow(missing_docs)]
mod group {
    use super::*;
    criterion_group!(benches, kasztp, kasztp_valid, mixed, tiny);
}

fn main() {
    if let Ok(spec) = std::env::var("PARSE_ONCE") {
        parse_once(&spec);
        return;
    }
    if let Ok(spec) = std::env::var("PARSE_PAIRED") {
        parse_paired(&spec);
        return;
    }
    group::benches();
    Criterion::default().configure_from_args().final_summary();
}
