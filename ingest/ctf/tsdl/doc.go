// Package tsdl reads CTF 1.8 trace metadata: the Trace Stream Description
// Language (TSDL) of the CTF 1.8.3 specification, as plain text or as a
// packetized metadata stream, into a [Trace] model (clocks, environment,
// stream and event classes, field types).
//
// It is layered as lexer -> parser (syntax tree) -> builder (scopes,
// typedefs and typealiases, byte orders, clocks, validation). Invalid
// metadata is refused with an [*Error] that names the line and the reason.
// Untrusted input cannot make it allocate from a length it has not checked,
// recurse without bound or loop forever: nesting depth, token count and
// type expansion are bounded.
//
// The model is declarative: sequence lengths and variant tags are kept as
// the paths written in the metadata. The decoder (package ctf) resolves
// them against the dynamic scopes when it compiles its decoding plan.
//
// The model also holds CTF 2 metadata, which package ctf2 parses into it
// (model2.go: Major 2, roles, field locations, option ranges, the kinds
// and flavors TSDL lacks, user attributes); its binary form keeps them
// (binary2.go) and is unchanged for CTF 1.8 models.
package tsdl
