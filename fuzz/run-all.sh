#!/bin/bash
# Runs fuzz targets for SECONDS seconds each (default 600; docs/fuzzing.md),
# one after the other, and stops at the first finding. CI runs every target
# for a few seconds (.ci/run); a person runs them for longer.
#
#   fuzz/run-all.sh [SECONDS [TARGET...]]      # every target by default
#
# The targets are built once, with cargo-fuzz (`cargo install cargo-fuzz
# --locked`) on the nightly toolchain when rustup has one, else on the
# stable one with RUSTC_BOOTSTRAP=1 (for the nightly flags cargo-fuzz
# needs). Each target starts from its seeds, fuzz/corpus/TARGET/ (checked
# in, read only: fuzz/seeds.py writes them), and from what earlier runs
# found, fuzz/runs/TARGET/ (not checked in), where libFuzzer adds the inputs
# it finds new. Every run has a memory limit (-rss_limit_mb=512) and a time
# limit per input (-timeout); long_inputs repeats a fragment to 100 KB or
# more and takes inputs of up to 1 MB; the documents_* targets documents of
# up to 64 KB (tokens and byte order marks across the readers' chunks).
#
# A finding (a panic, a timeout, the memory limit) ends the script with
# status 1 after libFuzzer's report and the reproducer: the input libFuzzer
# saved under fuzz/artifacts/TARGET/, its path and its bytes in base64
# (`base64 -d > crash; cargo fuzz run TARGET crash` replays it).
#
# The cli target runs the iri binary as a child process: IRI_BIN, else
# target/release/iri, which the script builds when IRI_BIN is not set.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
shift || true
targets=("$@")

if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    fuzz=(cargo +nightly fuzz)
else
    export RUSTC_BOOTSTRAP=1
    fuzz=(cargo fuzz)
fi
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <("${fuzz[@]}" list)
fi

# The cli target runs the iri binary as a child process.
if printf '%s\n' "${targets[@]}" | grep -qx cli && [ -z "${IRI_BIN:-}" ]; then
    cargo build --release -p iribis-cli --bin iri --manifest-path ../Cargo.toml
    export IRI_BIN="$PWD/../target/release/iri"
fi

echo "== building ${#targets[@]} targets"
"${fuzz[@]}" build -O

stamp=$(mktemp)
trap 'rm -f "$stamp"' EXIT
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
    mkdir -p "runs/$target" "corpus/$target" "artifacts/$target"
    # A target's dictionary, when it has one.
    dict=()
    if [ -f "$target.dict" ]; then dict=(-dict="$target.dict"); fi
    touch "$stamp"
    log="runs/$target.log"
    if "${fuzz[@]}" run -O "$target" "runs/$target" "corpus/$target" -- "${dict[@]}" \
        -max_total_time="$seconds" -max_len="$max_len" \
        -rss_limit_mb=512 -timeout="$timeout" -print_final_stats=1 >"$log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        echo "== $target: ${runs:-?} runs in $seconds s, no finding"
    else
        echo "== $target: FINDING"
        tail -n 60 "$log"
        found=0
        while IFS= read -r -d '' artifact; do
            found=1
            echo "reproducer: fuzz/$artifact ($(wc -c <"$artifact") bytes), base64:"
            base64 -w 76 "$artifact"
        done < <(find "artifacts/$target" -type f -newer "$stamp" -print0)
        [ "$found" = 1 ] || echo "(no artifact saved: see the log above)"
        exit 1
    fi
done
