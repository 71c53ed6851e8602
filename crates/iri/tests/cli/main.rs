//! The `iri` command, run as a user runs it: every subcommand's output, JSON shapes against docs/schema, SARIF, documents, streaming, exit statuses, memory budgets and hostile inputs.

mod common;

mod check_examples;
mod check_output;
mod command_line;
mod completions;
mod conversions;
mod documents;
mod documents_as_read;
mod documents_encodings;
mod flags;
mod generated_files;
mod grammar_lab;
mod grammar_trace;
mod hostile_documents;
mod hostile_input;
mod hostile_lab;
mod json_schemas;
mod large_inputs;
mod readings;
mod resolve;
mod spoof;
mod streaming;
mod suite;
mod to_uri_idna;
mod usability;
