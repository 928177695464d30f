// Package ctf2 reads CTF 2 trace metadata (CTF2-SPEC-2.0): a JSON text
// sequence (RFC 7464) of fragments, into the same [tsdl.Trace] model the
// TSDL reader produces, so that package ctf compiles one decoding plan for
// both formats.
//
// The metadata stream is a series of elements, each the byte 0x1E (RS)
// followed by one JSON object (a fragment) and usually a line feed. Runs
// of RS are allowed. Fragments, in order: one preamble (version 2, the
// metadata stream's UUID as 16 integers, declared extensions), field-class
// aliases, at most one trace class (environment, packet header), clock
// classes, data stream classes (packet context, event record header,
// common context, each naming its default clock class) and event record
// classes (specific context, payload) after their data stream class.
//
// Mapping to the model: fixed-length integers become tsdl integers (with
// mappings: enumerations), with their roles in [tsdl.Type.Roles];
// floating point numbers of 32 and 64 bits become tsdl floats; strings
// become tsdl strings, or arrays and sequences of UTF-8 bytes for the
// static- and dynamic-length ones; structures, arrays and variants map
// one to one, with [tsdl.Location]s for lengths and selectors and option
// ranges on each variant option. A field class holding the
// default-clock-timestamp role maps to its data stream class's default
// clock, so an alias is expanded afresh at each use.
//
// Errors are [*Error]s naming the byte offset of the value at fault.
// Untrusted input is bounded: fragment size, JSON nesting depth and the
// number of field classes expanded from aliases.
//
// Imports: the standard library and package tsdl only.
package ctf2
