//! The `iri` command, run as a user runs it: every subcommand's output, JSON shapes against docs/schema, SARIF, documents, streaming, exit statuses, memory budgets and hostile inputs.

mod common;

mod check;
mod cli;
mod cli_check_output;
mod cli_convert;
mod cli_documents;
mod cli_fixes;
mod cli_newcomer;
mod cli_resolve;
mod cli_schema;
mod cli_stream;
mod cli_suite;
mod completions;
mod convert;
mod documents_as_read;
mod documents_encodings;
mod generated_files;
mod grammar_lab;
mod grammar_trace;
mod hostile;
mod hostile_cli;
mod hostile_documents;
mod hostile_lab;
mod readings;
mod spoof;
mod to_uri_idna;
