package tsdl

// Trace is the description of a CTF trace read from its metadata.
type Trace struct {
	Major, Minor int
	UUID         [16]byte
	HasUUID      bool
	BigEndian    bool  // the trace's native byte order
	PacketHeader *Type // nil when absent
	Env          []EnvEntry
	Clocks       []*Clock
	Streams      []*StreamClass // in declaration order
	Attributes   string         // CTF 2 user attributes (JSON), see model2.go
	UID          string         // CTF 2 trace class uid (HasUID: given)
	HasUID       bool
}

// EnvEntry is one entry of the env block: a string or an integer.
type EnvEntry struct {
	Name  string
	IsStr bool
	Str   string
	Int   int64
}

// EnvString returns the string value of the named env entry.
func (t *Trace) EnvString(name string) (string, bool) {
	for _, e := range t.Env {
		if e.Name == name && e.IsStr {
			return e.Str, true
		}
	}
	return "", false
}

// Stream returns the stream class with the given id, or nil.
func (t *Trace) Stream(id uint64) *StreamClass {
	for _, s := range t.Streams {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// Clock describes a clock block.
type Clock struct {
	Name        string
	UUID        [16]byte
	HasUUID     bool
	Description string
	Freq        uint64 // Hz, 1e9 when absent
	Precision   uint64
	OffsetS     int64 // seconds
	Offset      int64 // cycles, may be negative
	Absolute    bool
	Line        int
}

// StreamClass describes a stream block and its events.
type StreamClass struct {
	ID            uint64
	PacketContext *Type
	EventHeader   *Type
	EventContext  *Type
	Events        []*EventClass // in declaration order
	Line          int
}

// Event returns the event class with the given id, or nil.
func (s *StreamClass) Event(id uint64) *EventClass {
	for _, e := range s.Events {
		if e.ID == id {
			return e
		}
	}
	return nil
}

// EventClass describes an event block.
type EventClass struct {
	Name        string
	ID          uint64
	StreamID    uint64
	LogLevel    int64
	HasLogLevel bool
	EMFURI      string
	Context     *Type
	Payload     *Type
	Line        int
	Attributes  string // CTF 2 user attributes (JSON), see model2.go
}

// Kind is the class of a [Type].
type Kind uint8

// Type kinds.
const (
	KindInt Kind = iota
	KindEnum
	KindFloat
	KindString
	KindStruct
	KindVariant
	KindArray
	KindSequence
	// KindWideInt is an integer wider than 64 bits: decoded as its bits,
	// printed in hexadecimal, never a length, tag, clock value or
	// enumeration container.
	KindWideInt
	// KindVarInt is a CTF 2 variable-length integer (LEB128), of 64 bits
	// at most once decoded.
	KindVarInt
	// KindOptional is a CTF 2 optional: Fields[0] when its selector
	// (Loc) is true or in Fields[0].Ranges, else nothing.
	KindOptional
)

// String names the kind ("integer", "structure"...).
func (k Kind) String() string {
	return [...]string{"integer", "enumeration", "floating point", "string", "structure", "variant", "array", "sequence", "wide integer", "variable-length integer", "optional"}[k]
}

// Encoding is the character encoding of an integer or a string.
type Encoding uint8

// Encodings.
const (
	EncodingNone Encoding = iota
	EncodingUTF8
	EncodingASCII
	// CTF 2 string encodings (code units of 2 or 4 bytes).
	EncodingUTF16BE
	EncodingUTF16LE
	EncodingUTF32BE
	EncodingUTF32LE
)

// Unit is the size in bytes of a code unit of the encoding: the step
// at which a string's NUL terminator is looked for.
func (e Encoding) Unit() int {
	switch e {
	case EncodingUTF16BE, EncodingUTF16LE:
		return 2
	case EncodingUTF32BE, EncodingUTF32LE:
		return 4
	}
	return 1
}

// Type is a field type. Types may be shared by several fields (typedefs),
// so they hold no position-dependent information: sequence lengths and
// variant tags stay as the written paths.
type Type struct {
	Kind Kind
	Line int // where it was declared

	// Integers and enumerations (the container's properties).
	Size      int // bits, 1..64 (KindWideInt: 65..MaxIntBits)
	Align     int // bits, a power of two
	Signed    bool
	BigEndian bool
	Base      int // 2, 8, 10 or 16
	Encoding  Encoding
	Clock     *Clock // map = clock.NAME.value

	// Enumerations.
	Mappings []Mapping

	// Floating point (Size is 32 or 64).
	ExpDig, MantDig int

	// Structures and variants.
	Fields []Field // struct members or variant options

	// Variants: the tag path; "" for an untagged variant declaration
	// (tagged where used).
	Tag string

	// Arrays and sequences.
	Elem       *Type
	Len        uint64 // arrays
	LengthPath string // sequences

	// CTF 2 (see model2.go): the roles of an integer; where a sequence's
	// length or a variant's selector is (LengthPath and Tag are then "").
	Roles  Role
	Flavor Flavor // how a CTF 2 bit array or byte array is shown
	// ReverseBits: a CTF 2 bit array whose bit order is not its byte
	// order's default: the value read CTF 1.8's way, bit-reversed.
	ReverseBits bool
	Loc         *Location
	Byte        int64 // CTF 2: 1 + the byte offset of its JSON, for errors
}

// Field is a named member of a structure or an option of a variant.
// Name is as written (with its leading underscore, if any).
type Field struct {
	Name string
	Type *Type
	// Ranges select a CTF 2 variant option: the selector values for which
	// it is decoded (TSDL variants select by label instead).
	Ranges []Range
}

// Mapping is one label of an enumeration with its inclusive ranges.
// Ranges of signed containers hold int64 bits.
type Mapping struct {
	Label  string
	Ranges []Range
}

// Range is an inclusive range of integer values.
type Range struct {
	Lo, Hi uint64
}

// Contains reports whether the range holds v, compared as signed
// integers when signed is true.
func (r Range) Contains(v uint64, signed bool) bool {
	if signed {
		return int64(r.Lo) <= int64(v) && int64(v) <= int64(r.Hi)
	}
	return r.Lo <= v && v <= r.Hi
}
