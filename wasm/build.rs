//! The playground build's stack: WebAssembly has no threads, so the grammar
//! lab's recursion (pest_meta, the ABNF reader, the check's walks), which
//! natively runs on a thread with a 2 GiB stack, runs on the module's own
//! stack in linear memory. 16 MiB instead of Rust's default 1 MiB, so that
//! what bounds a deep grammar is the lab's wasm limits (MAX_NESTING,
//! MAX_REPETITION, MAX_EXPRESSIONS) or, past them, the engine's own call
//! stack (a RangeError the page's worker answers as a limit reached).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "wasm32");
    if wasm && std::env::var_os("CARGO_FEATURE_PLAYGROUND").is_some() {
        println!("cargo:rustc-link-arg=-zstack-size={}", 16 << 20);
    }
}
