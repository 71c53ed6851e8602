#!/usr/bin/env bash
# Builds the WebAssembly artifacts once, for CI and scripts/release:
#   target/wasm/npm/       the npm package `iribis` (wasm-bindgen --target nodejs,
#                          wasm/npm/'s files, the licences) and its tarball
#                          target/wasm/iribis-VERSION.tgz (npm pack)
#   target/wasm/site/      the grammar playground as a static page: wasm/site/'s
#                          files and the WebAssembly backend they run in a Web
#                          Worker (wasm-bindgen --target web); any static file
#                          server serves it
# Installs what it needs: the wasm32-unknown-unknown target (rustup) and
# wasm-bindgen-cli at the exact version of the wasm-bindgen crate in
# wasm/Cargo.lock (cargo install, from crates.io), when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=target/wasm
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}

rustup target add wasm32-unknown-unknown >/dev/null 2>&1 \
    || rustup target list --installed | grep -qx wasm32-unknown-unknown

# wasm-bindgen-cli must match the crate's version exactly.
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' wasm/Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
    echo "wasm/build.sh: installing wasm-bindgen-cli $version (crates.io)" >&2
    cargo install --quiet wasm-bindgen-cli --version "=$version"
fi

wasm=wasm/target/wasm32-unknown-unknown/release/iribis_wasm.wasm
rm -rf "$out/npm" "$out/site" "$out"/iribis-*.tgz
mkdir -p "$out"

# The npm package: the library alone.
(cd wasm && cargo build --locked --release --target wasm32-unknown-unknown)
wasm-bindgen --target nodejs --out-dir "$out/npm" --out-name iribis "$wasm"
cp wasm/npm/package.json wasm/npm/README.md wasm/npm/index.js wasm/npm/ajv.js wasm/npm/ajv.d.ts \
    wasm/npm/fast.js wasm/npm/dfa-tables.js \
    LICENSE-MIT LICENSE-APACHE "$out/npm/"
# The package's version is the crate's.
crate_version=$(awk -F'"' '/^version = / { print $2; exit }' Cargo.toml)
npm_version=$(node -p 'require(process.argv[1]).version' "$root/wasm/npm/package.json")
if [ "$crate_version" != "$npm_version" ]; then
    echo "wasm/build.sh: wasm/npm/package.json has version $npm_version, Cargo.toml $crate_version" >&2
    exit 1
fi
(cd "$out" && npm pack ./npm --silent >/dev/null)

# The static playground: the lab too (pest_meta, pest_vm, the ABNF reader).
(cd wasm && cargo build --locked --release --target wasm32-unknown-unknown --features playground)
mkdir -p "$out/site"
wasm-bindgen --target web --no-typescript --out-dir "$out/site" --out-name playground "$wasm"
cp wasm/site/index.html wasm/site/app.js wasm/site/style.css wasm/site/worker.js "$out/site/"

gz() { gzip -9 -c "$1" | wc -c; }
printf 'wasm/build.sh: %s (%s bytes, %s gzipped), %s\n' "$out/npm/iribis_bg.wasm" \
    "$(wc -c < "$out/npm/iribis_bg.wasm")" "$(gz "$out/npm/iribis_bg.wasm")" "$(ls "$out"/iribis-*.tgz)"
printf 'wasm/build.sh: %s (%s bytes, %s gzipped)\n' "$out/site/playground_bg.wasm" \
    "$(wc -c < "$out/site/playground_bg.wasm")" "$(gz "$out/site/playground_bg.wasm")"
