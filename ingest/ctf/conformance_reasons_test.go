package ctf_test

// refusals pins why each invalid conformance case of testdata/ctf is
// refused: a substring of the error (the file that failed, then the
// reason, with its metadata line or packet and byte), so that a case
// refused for another reason than the one it was written for fails
// (issue 35 item 7). A check removed from the reader makes its case fail
// later for another reason, or pass: both fail TestConformance. An
// invalid case added to the MANIFEST needs its line here.
var refusals = map[string]string{
	"bad-syntax":                  `metadata: metadata line 49: expected ';', found '}'`,
	"unknown-type":                `metadata: metadata line 49: unknown type "uint33_t"`,
	"int-size-zero":               `metadata: metadata line 49: integer size 0 out of range (1 to 65536 bits)`,
	"bad-align":                   `metadata: metadata line 49: alignment 3 is not a power of two up to 65536`,
	"variant-tag-not-enum":        `metadata: metadata line 49: variant tag "t" is a integer, not an enumeration`,
	"seq-length-signed":           `metadata: metadata line 49: sequence length "n" is not an unsigned integer`,
	"seq-length-unknown":          `metadata: metadata line 49: "nope": no such field before it in its scope (use an absolute path such as stream.event.header.nope for other scopes)`,
	"seq-length-after":            `metadata: metadata line 49: "n": no such field before it in its scope (use an absolute path such as stream.event.header.n for other scopes)`,
	"duplicate-field":             `metadata: metadata line 49: duplicate field "n" in structure`,
	"float-unsupported":           `metadata: metadata line 49: floating_point with exp_dig = 5 and mant_dig = 11 is not supported (only 8/24 and 11/53)`,
	"event-unknown-stream":        `metadata: metadata line 49: event "e" refers to stream 5, which is not declared`,
	"duplicate-event-id":          `metadata: metadata line 49: duplicate event id 0 in stream 0 (event "f")`,
	"map-unknown-clock":           `metadata: metadata line 49: map refers to undeclared clock "nope"`,
	"enum-no-labels":              `metadata: metadata line 49: enumeration without labels`,
	"bad-version":                 `metadata: metadata line 9: unsupported CTF version 2.8 (want 1.8)`,
	"text-no-signature":           `metadata: metadata line 1: plain-text metadata must start with "/* CTF 1.8"`,
	"no-byte-order":               `metadata: metadata: no trace block with a byte_order`,
	"metadata-packet-truncated":   `metadata: metadata: packet 1 at offset 672: packet size 672 bytes goes past the end of the file (632 bytes left)`,
	"truncated-packet":            `stream_0: packet 0 at offset 0: packet size 112 bytes goes past the end of the file (92 bytes left)`,
	"packet-size-past-eof":        `stream_0: packet 0 at offset 0: packet size 240 bytes goes past the end of the file (112 bytes left)`,
	"content-larger-than-packet":  `stream_0: packet 0 at offset 0: content size 904 bits is larger than the packet size 896 bits`,
	"content-smaller-than-header": `stream_0: packet 0 at offset 0: content size 64 bits is smaller than the packet header and context (544 bits)`,
	"packet-size-not-bytes":       `stream_0: packet 0 at offset 0: packet size 893 bits is not a whole number of bytes`,
	"event-past-content":          `stream_0: packet 0 at offset 0, byte 98: a 64-bit field at bit 784 goes past the end of the packet content (816 bits)`,
	"unknown-stream-id":           `stream_0: packet 0 at offset 0: unknown stream id 9`,
	"bad-magic":                   `stream_0: packet 0 at offset 0: bad magic number 0xC1FC1F00 (want 0xC1FC1FC1)`,
	"unknown-event-id":            `stream_0: packet 0 at offset 0, byte 81: unknown event id 77 in stream class 0`,
	"sequence-past-end":           `stream_0: packet 0 at offset 0, byte 97: a sequence of 1000000000 elements of 8 bits at bit 776 goes past the end of the packet content (784 bits)`,
	"string-unterminated":         `stream_0: packet 0 at offset 0, byte 93: string at bit 744 is not terminated before the end of the packet content`,
	"time-backwards":              `stream_0: packet 0 at offset 0, byte 81: event time 1600000000.000001005 is before the previous event's (1600000000.000001010)`,
	"variant-no-option":           `stream_0: packet 0 at offset 0, byte 94: variant tag value 7 at bit 752 selects no option`,
	"array-size-ident":            `metadata: metadata line 49: type "A": array size "x" is not an integer constant (a sequence length needs a field, which a type declaration does not have)`,
	"array-size-keyword":          `metadata: metadata line 49: array length "typedef" is a keyword or a type name, not an integer constant or a field`,
	"array-size-type":             `metadata: metadata line 49: array length "uint32_t" is a keyword or a type name, not an integer constant or a field`,
	"enum-value-out-of-range":     `metadata: metadata line 49: enumeration label "B": value out of the range of its 8-bit container`,
	"enum-negative-unsigned":      `metadata: metadata line 49: negative value in an unsigned enumeration`,
	"enum-implicit-overflow":      `metadata: metadata line 49: enumeration label "C": implicit value past the 2-bit container's maximum`,
	"encoding-string":             `metadata: metadata line 49: encoding "ascii" is a string literal: write it as an identifier (none, UTF8 or ASCII)`,
	"variant-label-spaces":        `metadata: metadata line 50: variant option "sel1" matches no label of its tag's enumeration (labels must match option names exactly)`,
	"variant-tag-keyword":         `metadata: metadata line 50: two types in one declaration (variant after enum)`,
	"metadata-mixed-byte-order":   `metadata: metadata: packet 1 at offset 480: bad magic 0x571dd175`,
	"empty-event-past-content":    `stream_0: packet 0 at offset 0, byte 81: event "empty" ends at bit 768, past the end of the packet content (744 bits)`,
	"int-wide-seq-length":         `metadata: metadata line 50: "n" is a 128-bit integer: sequence lengths and variant tags must be 64 bits at most`,
	"int-wide-enum":               `metadata: metadata line 50: enumeration container of 128 bits: enumerations hold 64 bits at most`,
	"int-wide-clock":              `metadata: metadata line 50: a 128-bit integer cannot be mapped to a clock (clock values are 64 bits at most)`,
	"int-wide-timestamp":          `metadata: metadata line 38: stream.event.header.timestamp is a 128-bit integer: a timestamp must be 64 bits at most`,
	"int-wide-past-content":       `stream_0: packet 0 at offset 0, byte 80: a 128-bit field at bit 640 goes past the end of the packet content (760 bits)`,
}
