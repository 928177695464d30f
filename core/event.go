package core

import "strconv"

// FieldKind tells which member of a [Field] holds its value.
type FieldKind uint8

// Field kinds.
const (
	FieldNone   FieldKind = iota // absent (e.g. an untaken variant branch)
	FieldInt                     // signed integer, in Int
	FieldUint                    // unsigned integer, bits in Int (read as uint64(Int))
	FieldFloat                   // in Float
	FieldString                  // in Bytes
	FieldEnum                    // integer in Int, first label in Bytes
)

// Field is one scalar field of a decoded event. Bytes aliases the
// decoder's buffers: it is valid only until the source decodes the next
// event, so copy it (string(f.Bytes)) to keep it.
type Field struct {
	Kind  FieldKind
	Int   int64
	Float float64
	Bytes []byte
}

// Uint returns the field as an unsigned integer.
func (f Field) Uint() uint64 { return uint64(f.Int) }

// AsInt returns the field as a signed integer and whether it is one
// (integers, unsigned integers and enums).
func (f Field) AsInt() (int64, bool) {
	switch f.Kind {
	case FieldInt, FieldUint, FieldEnum:
		return f.Int, true
	}
	return 0, false
}

// AppendText appends the field as text: the number, or the string unquoted
// (the enum label for enums).
func (f Field) AppendText(dst []byte) []byte {
	switch f.Kind {
	case FieldInt:
		return strconv.AppendInt(dst, f.Int, 10)
	case FieldUint:
		return strconv.AppendUint(dst, uint64(f.Int), 10)
	case FieldFloat:
		return strconv.AppendFloat(dst, f.Float, 'g', -1, 64)
	case FieldString, FieldEnum:
		return append(dst, f.Bytes...)
	}
	return dst
}

// EventClass describes one kind of event of a source. Classes are created
// by the source (from CTF metadata, from the names seen in a JSON trace...)
// and live as long as it. Analyses resolve field names to indexes once per
// class ([EventClass.FieldIndex]), keyed by ID, never per event.
type EventClass struct {
	// ID is dense per source (0, 1, 2...), usable as a slice index.
	ID int
	// Name is the event name as the trace's own tools print it
	// ("sched_switch", "syscall_entry_openat", "sched:sched_switch",
	// "lttng_ust_cyg_profile:func_entry").
	Name string
	// Fields names the scalar fields exposed in [Event.Fields], in order.
	// Payload fields use their printed name ("prev_tid"); stream and event
	// context fields are prefixed "context." ("context.vtid",
	// "context.procname"); packet context fields "packet." ("packet.cpu_id").
	// Compound fields (arrays, sequences, structs) are not exposed here,
	// except char arrays and sequences that print as strings; the full
	// record is still printed by [Source.AppendContents].
	Fields []string
}

// FieldIndex returns the index of the named field in [Event.Fields], or -1.
func (c *EventClass) FieldIndex(name string) int {
	for i, f := range c.Fields {
		if f == name {
			return i
		}
	}
	return -1
}

// Event is one decoded event. The source owns it and reuses it, and its
// Fields, on the next call to Next: an analysis reads what it needs and
// keeps nothing.
type Event struct {
	Time   Time
	CPU    int32 // -1 when the trace does not say
	Stream int32 // index of the stream in the source (merge tie-break)
	Class  *EventClass
	Fields []Field // parallel to Class.Fields
}

// Field returns the i-th field, or a FieldNone field when i is out of
// range (so a -1 from FieldIndex reads as absent).
func (e *Event) Field(i int) Field {
	if i < 0 || i >= len(e.Fields) {
		return Field{}
	}
	return e.Fields[i]
}
