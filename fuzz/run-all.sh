#!/bin/bash
# Runs fuzz targets for SECONDS seconds each (default 600; docs/fuzzing.md),
# one after the other, on the
# corpora in fuzz/corpus/ (created if missing), and stops at the first
# finding (libFuzzer saves the input under fuzz/artifacts/). Every run has a
# memory limit (-rss_limit_mb=512) and a time limit per input (-timeout);
# long_inputs repeats a fragment to 100 KB or more and takes inputs of up to
# 1 MB; the documents_* targets documents of up
# to 64 KB (tokens and byte order marks across the readers' chunks). Needs
# cargo-fuzz (`cargo install cargo-fuzz`); RUSTC_BOOTSTRAP lets
# it use the nightly flags it needs on a stable toolchain.
#
#   fuzz/run-all.sh [SECONDS [TARGET...]]
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(fast_vs_pest parse_any roundtrip to_uri resolve ipv6 differential
             long_inputs check to_iri compare lab_grammar lab_from_abnf lab_check
             lab_trace cli documents_rdf documents_markup documents_bom)
fi
# The cli target runs the iri binary as a child process.
if printf '%s\n' "${targets[@]}" | grep -qx cli; then
    cargo build --release -p iribis-cli --bin iri --manifest-path ../Cargo.toml
fi
for target in "${targets[@]}"; do
    case "$target" in
        long_inputs) max_len=1048576 timeout=60 ;;
        # The grammar lab's targets: longer texts (the lab's limits must
        # hold memory and time down whatever the grammar).
        lab_*) max_len=4096 timeout=20 ;;
        # The document readers: documents of up to 64 KB, so that tokens
        # and byte order marks cross the readers' chunks.
        documents_*) max_len=65536 timeout=30 ;;
        *) max_len=512 timeout=10 ;;
    esac
    mkdir -p "corpus/$target"
    # A target's dictionary, when it has one.
    dict=()
    if [ -f "$target.dict" ]; then dict=(-dict="$target.dict"); fi
    echo "== $target: $seconds s"
    RUSTC_BOOTSTRAP=1 cargo fuzz run -O "$target" -- "${dict[@]}" \
        -max_total_time="$seconds" -max_len="$max_len" \
        -rss_limit_mb=512 -timeout="$timeout" -print_final_stats=1 2>&1 | tail -n 40
done
