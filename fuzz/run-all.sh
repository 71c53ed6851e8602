#!/bin/bash
# Runs every fuzz target for SECONDS seconds (default 600, the length of the
# sessions recorded in docs/performance.md), one after the other, on the
# corpora in fuzz/corpus/ (created if missing), and stops at the first
# finding (libFuzzer saves the input under fuzz/artifacts/). Needs
# cargo-fuzz (`cargo install cargo-fuzz`); RUSTC_BOOTSTRAP lets it use the
# nightly flags it needs on a stable toolchain.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
for target in fast_vs_pest parse_any roundtrip to_uri resolve ipv6 differential lab_grammar lab_from_abnf lab_check; do
    mkdir -p "corpus/$target"
    # The grammar lab's targets: longer texts, and a memory budget (the
    # lab's limits must hold the memory down whatever the grammar).
    extra=
    case $target in lab_*) extra="-max_len=4096 -rss_limit_mb=512" ;; esac
    echo "== $target: $seconds s"
    RUSTC_BOOTSTRAP=1 cargo fuzz run -O "$target" -- \
        -max_total_time="$seconds" -max_len=512 $extra 2>&1 | tail -n 20
done
