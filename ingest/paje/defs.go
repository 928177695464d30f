package paje

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// EventKind is one of the Pajé event definitions this reader knows.
type EventKind uint8

const (
	EvUnknown EventKind = iota
	EvDefineContainerType
	EvDefineVariableType
	EvDefineStateType
	EvDefineEventType
	EvDefineLinkType
	EvDefineEntityValue
	EvCreateContainer
	EvDestroyContainer
	EvSetVariable
	EvAddVariable
	EvSubVariable
	EvSetState
	EvPushState
	EvPopState
	EvResetState
	EvStartLink
	EvEndLink
	EvNewEvent
)

var kindByName = map[string]EventKind{
	"PajeDefineContainerType": EvDefineContainerType,
	"PajeDefineVariableType":  EvDefineVariableType,
	"PajeDefineStateType":     EvDefineStateType,
	"PajeDefineEventType":     EvDefineEventType,
	"PajeDefineLinkType":      EvDefineLinkType,
	"PajeDefineEntityValue":   EvDefineEntityValue,
	"PajeCreateContainer":     EvCreateContainer,
	"PajeDestroyContainer":    EvDestroyContainer,
	"PajeSetVariable":         EvSetVariable,
	"PajeAddVariable":         EvAddVariable,
	"PajeSubVariable":         EvSubVariable,
	"PajeSetState":            EvSetState,
	"PajePushState":           EvPushState,
	"PajePopState":            EvPopState,
	"PajeResetState":          EvResetState,
	"PajeStartLink":           EvStartLink,
	"PajeEndLink":             EvEndLink,
	"PajeNewEvent":            EvNewEvent,
}

// KindOf returns the kind of the event definition called name (one of
// Pajé's 18 standard event names), EvUnknown for any other.
func KindOf(name string) EventKind { return kindByName[name] }

// fieldType is the declared type of a definition's field.
type fieldType uint8

const (
	typeString fieldType = iota // string, color
	typeDate                    // the event time, seconds
	typeInt
	typeDouble
	typeHex
)

var typeByName = map[string]fieldType{
	"string": typeString, "color": typeString, "date": typeDate,
	"int": typeInt, "double": typeDouble, "hex": typeHex,
}

// canonical maps the field names of the original Pajé format to
// PajeNG's, so analyses look up one name.
var canonical = map[string]string{
	"ContainerType":       "Type",
	"EntityType":          "Type",
	"SourceContainerType": "StartContainerType",
	"DestContainerType":   "EndContainerType",
	"SourceContainer":     "StartContainer",
	"DestContainer":       "EndContainer",
}

// eventDef is one %EventDef block.
type eventDef struct {
	id      string
	name    string
	kind    EventKind
	fields  []string // canonical names, in line order
	types   []fieldType
	timeAt  int // index of the Time field, -1 if none
	class   int // class ID, -1 for unknown definitions (skipped)
	line    int64
	skipped int64 // events skipped because the definition is unknown
}

// field returns the index of the canonical field name, or -1.
func (d *eventDef) field(name string) int {
	for i, f := range d.fields {
		if f == name {
			return i
		}
	}
	return -1
}

// maxDefFields bounds one definition.
const maxDefFields = 64

// parseDefHeader reads "%EventDef <Name> <id>" (tabs or spaces).
func parseDefHeader(b []byte) (*eventDef, error) {
	f := bytes.Fields(b[1:])
	if len(f) < 3 || string(f[0]) != "EventDef" {
		return nil, fmt.Errorf("want %%EventDef <name> <id>, found %q", b)
	}
	d := &eventDef{name: string(f[1]), id: string(f[2]), timeAt: -1, class: -1}
	d.kind = kindByName[d.name]
	return d, nil
}

// addField reads "% <name> <type>".
func (d *eventDef) addField(b []byte) error {
	f := bytes.Fields(b[1:])
	if len(f) < 2 {
		return fmt.Errorf("want %% <field> <type>, found %q", b)
	}
	if len(d.fields) >= maxDefFields {
		return fmt.Errorf("more than %d fields", maxDefFields)
	}
	name := string(f[0])
	if c, ok := canonical[name]; ok {
		name = c
	}
	typ, ok := typeByName[string(f[1])]
	if !ok {
		return fmt.Errorf("field %s: unknown type %q", name, f[1])
	}
	if name == "Time" || typ == typeDate {
		if d.timeAt < 0 {
			d.timeAt = len(d.fields)
		}
	}
	d.fields = append(d.fields, name)
	d.types = append(d.types, typ)
	return nil
}

// required lists, per kind, the fields PajeNG requires.
var required = map[EventKind][]string{
	EvDefineContainerType: {"Type", "Name"},
	EvDefineVariableType:  {"Type", "Name"},
	EvDefineStateType:     {"Type", "Name"},
	EvDefineEventType:     {"Type", "Name"},
	EvDefineLinkType:      {"Type", "StartContainerType", "EndContainerType", "Name"},
	EvDefineEntityValue:   {"Type", "Name"},
	EvCreateContainer:     {"Time", "Type", "Container", "Name"},
	EvDestroyContainer:    {"Time", "Type", "Name"},
	EvSetVariable:         {"Time", "Type", "Container", "Value"},
	EvAddVariable:         {"Time", "Type", "Container", "Value"},
	EvSubVariable:         {"Time", "Type", "Container", "Value"},
	EvSetState:            {"Time", "Type", "Container", "Value"},
	EvPushState:           {"Time", "Type", "Container", "Value"},
	EvPopState:            {"Time", "Type", "Container"},
	EvResetState:          {"Time", "Type", "Container"},
	EvStartLink:           {"Time", "Type", "Container", "StartContainer", "Value", "Key"},
	EvEndLink:             {"Time", "Type", "Container", "EndContainer", "Value", "Key"},
	EvNewEvent:            {"Time", "Type", "Container", "Value"},
}

// check reports a known definition missing a required field.
func (d *eventDef) check() error {
	for _, r := range required[d.kind] {
		if d.field(r) < 0 {
			return fmt.Errorf("%s lacks the field %s", d.name, r)
		}
	}
	return nil
}

// splitFields splits an event line into its values: whitespace
// separated, double-quoted values may hold spaces (Pajé has no escapes).
// It returns false on an unterminated quote.
func splitFields(dst [][]byte, b []byte) ([][]byte, bool) {
	i := 0
	for {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r') {
			i++
		}
		if i >= len(b) {
			return dst, true
		}
		if b[i] == '"' {
			j := bytes.IndexByte(b[i+1:], '"')
			if j < 0 {
				return dst, false
			}
			dst = append(dst, b[i+1:i+1+j])
			i += j + 2
			continue
		}
		j := i
		for j < len(b) && b[j] != ' ' && b[j] != '\t' && b[j] != '\r' {
			j++
		}
		dst = append(dst, b[i:j])
		i = j
	}
}

// parseSeconds converts a Pajé date (seconds, decimal) to nanoseconds:
// exactly for up to nine decimals, through float64 otherwise.
func parseSeconds(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	d := b
	if neg {
		d = d[1:]
	}
	dot := bytes.IndexByte(d, '.')
	intPart, frac := d, []byte(nil)
	if dot >= 0 {
		intPart, frac = d[:dot], d[dot+1:]
	}
	plain := len(intPart) > 0 && len(intPart) <= 10 && len(frac) <= 9
	for _, c := range intPart {
		plain = plain && c >= '0' && c <= '9'
	}
	for _, c := range frac {
		plain = plain && c >= '0' && c <= '9'
	}
	if plain {
		var sec, ns int64
		for _, c := range intPart {
			sec = sec*10 + int64(c-'0')
		}
		for i := 0; i < 9; i++ {
			ns *= 10
			if i < len(frac) {
				ns += int64(frac[i] - '0')
			}
		}
		v := sec*1_000_000_000 + ns
		if neg {
			v = -v
		}
		return v, true
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || f != f || f > 9e9 || f < -9e9 {
		return 0, false
	}
	return int64(math.Round(f * 1e9)), true
}
