package tsdl

// What CTF 2 metadata (package ctf2) adds to the model. A CTF 2 trace is
// a Trace with Major 2: its special fields are found by their roles, not
// by reserved names, its names are printed as written (no leading
// underscore stripped), sequence lengths and variant selectors are
// [Location]s, and variant options are selected by integer ranges rather
// than by the labels of an enumeration.

// Role is a set of CTF 2 roles carried by an unsigned integer field (or,
// for RoleMetadataUUID, by the 16-byte array that replaces a BLOB).
type Role uint16

// CTF 2 roles (CTF2-SPEC-2.0 section "Roles").
const (
	RolePacketMagic         Role = 1 << iota // packet-magic-number
	RoleMetadataUUID                         // metadata-stream-uuid
	RoleStreamClassID                        // data-stream-class-id
	RoleStreamID                             // data-stream-id
	RolePacketTotalLength                    // packet-total-length
	RolePacketContentLength                  // packet-content-length
	RoleClockTimestamp                       // default-clock-timestamp
	RolePacketEndTimestamp                   // packet-end-default-clock-timestamp
	RoleDiscardedCounter                     // discarded-event-record-counter-snapshot
	RolePacketSeqNum                         // packet-sequence-number
	RoleEventClassID                         // event-record-class-id
)

// RoleNames are the roles' names in CTF 2 metadata, by bit index.
var RoleNames = [...]string{
	"packet-magic-number", "metadata-stream-uuid", "data-stream-class-id", "data-stream-id",
	"packet-total-length", "packet-content-length", "default-clock-timestamp",
	"packet-end-default-clock-timestamp", "discarded-event-record-counter-snapshot",
	"packet-sequence-number", "event-record-class-id",
}

// The user attributes of a CTF 2 trace class (Trace.Attributes) and
// event record class (EventClass.Attributes) are kept as their JSON text
// ("" when none), for display: they never change decoding.

// IsCTF2 reports whether the model was read from CTF 2 metadata.
func (t *Trace) IsCTF2() bool { return t.Major == 2 }

// Location is a CTF 2 field location: where a sequence's length, a
// variant's selector or an optional's selector is read.
type Location struct {
	// Origin is the scope the path starts from, in decoding order (0
	// packet header, 1 packet context, 2 event record header, 3 common
	// context, 4 specific context, 5 payload), or -1: the structure that
	// directly contains the dependent field.
	Origin int8
	// Path are member names; "" steps up to the enclosing structure
	// (CTF 2's null), which is why CTF 2 member names may not be empty.
	Path []string
}

// Flavor says how CTF 2 field classes that decode like integers or byte
// arrays are shown.
type Flavor uint8

// Flavors.
const (
	FlavorNone     Flavor = iota
	FlavorBool            // fixed-length boolean (KindInt): true when any bit is set
	FlavorBitArray        // fixed-length bit array (KindInt): hexadecimal
	FlavorBitMap          // fixed-length bit map (KindInt): hexadecimal and active flags (Mappings: bit index ranges)
	FlavorBlob            // BLOB (KindArray, KindSequence of bytes): hexadecimal bytes
)
