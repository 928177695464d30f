package frame

import (
	"hash/fnv"
	"strings"
	"unicode/utf8"

	"github.com/tracetui/tracetui/core"
)

// Paint is a state's look: an index into the colour palette and the
// character that stands for it without colour. Every state value maps to
// one paint everywhere (Gantt, legend, details).
type Paint struct {
	Colour uint8 // palette index, see the pal* constants
	Glyph  rune  // ASCII-mode character
}

// Palette indexes. The kernel statuses have fixed entries close to Trace
// Compass's colours; string values (user-space and Chrome states) hash into
// the last numStringColours entries.
const (
	PalNone uint8 = iota // null: nothing known, drawn blank
	palUnknown
	palWaitBlocked
	PalRunUser
	palRunSyscall
	palInterrupted
	palWaitCPU
	palWaitUnknown
	palIdle
	palIRQ
	palSoftIRQ
	palSoftIRQRaised
	PalOther // an integer outside the known statuses
	PalStrings
	numStringColours = 12
	NumPalette       = int(PalStrings) + numStringColours
)

// PaletteHex gives each palette entry its colour (truecolor; lipgloss
// degrades it to the terminal's profile).
func PaletteHex(i uint8) string {
	switch i {
	case palUnknown:
		return "#4e4e4e"
	case palWaitBlocked:
		return "#c8c800"
	case PalRunUser:
		return "#00b000"
	case palRunSyscall:
		return "#2060e0"
	case palInterrupted:
		return "#d00040"
	case palWaitCPU:
		return "#e07000"
	case palWaitUnknown:
		return "#a0a0a0"
	case palIdle:
		return "#606060"
	case palIRQ:
		return "#c000c0"
	case palSoftIRQ:
		return "#d09060"
	case palSoftIRQRaised:
		return "#e0d080"
	case PalOther:
		return "#8080ff"
	}
	if i >= PalStrings {
		j := int(i-PalStrings) % numStringColours * 6
		return "#" + stringColours[j:j+6]
	}
	return ""
}

// stringColours are numStringColours well separated hues (6 hex digits
// each) for hashed string states.
const stringColours = "e6194b3cb44b4363d8f58231911eb442d4f4f032e6bfef454699909a6324800000808000"

// ValueDomain tells how a row's integer values are read.
type ValueDomain uint8

const (
	DomainThread  ValueDomain = iota // core.ThreadStatus
	DomainCPU                        // core.CPUStatus
	domainOther                      // no known meaning
	DomainFrame                      // call-stack frames: names or addresses (see framenames.go)
	domainCounter                    // a counter: drawn by level (see counterLevels)
	DomainSamples                    // a running sample count: drawn as samples per column (framesamples.go)
)

// PaintOf returns the paint of a state value in a domain.
func PaintOf(d ValueDomain, v core.Value) Paint {
	switch v.Kind() {
	case core.KindNull:
		return Paint{PalNone, ' '}
	case core.KindString:
		return stringPaint(v.Str())
	case core.KindInt32, core.KindInt64:
		n := v.Int()
		switch d {
		case domainOther: // a stable colour per value
			return stringPaint(v.String())
		case DomainFrame: // addresses: as the details line prints them
			return stringPaint(core.FrameText(v))
		case domainCounter:
			return Paint{PalOther, 'o'}
		case DomainThread:
			switch core.ThreadStatus(n) {
			case core.ThreadUnknown:
				return Paint{palUnknown, '?'}
			case core.ThreadWaitBlocked:
				return Paint{palWaitBlocked, '.'}
			case core.ThreadRunUser:
				return Paint{PalRunUser, '#'}
			case core.ThreadRunSyscall:
				return Paint{palRunSyscall, 'S'}
			case core.ThreadInterrupted:
				return Paint{palInterrupted, '!'}
			case core.ThreadWaitCPU:
				return Paint{palWaitCPU, '~'}
			case core.ThreadWaitUnknown:
				return Paint{palWaitUnknown, ','}
			}
		case DomainCPU:
			switch core.CPUStatus(n) {
			case core.CPUIdle:
				return Paint{palIdle, '_'}
			case core.CPURunUser:
				return Paint{PalRunUser, '#'}
			case core.CPURunSyscall:
				return Paint{palRunSyscall, 'S'}
			case core.CPUStatusIRQ:
				return Paint{palIRQ, 'I'}
			case core.CPUStatusSoftIRQ:
				return Paint{palSoftIRQ, 's'}
			case core.CPUStatusSoftIRQRaised:
				return Paint{palSoftIRQRaised, '^'}
			}
		}
	}
	if d == domainOther {
		return stringPaint(v.String())
	}
	return Paint{PalOther, 'o'} // counters (floats too) are drawn by level
}

// stringPaint gives a string state a stable colour from a hash of it, and
// its first character as glyph (so "read" and "write" differ without
// colour; '*' when that character is not one terminal cell wide or is one
// of the marks ASCII mode draws over states: the cursor '|', the Gantt's
// multi-state '%', the overview's hatch '/' and intensity fills '=' '-').
func stringPaint(s string) Paint {
	h := fnv.New32a()
	h.Write([]byte(s))
	g, _ := utf8.DecodeRuneInString(s)
	if g == utf8.RuneError || RuneCells(g) != 1 || strings.ContainsRune(" |%/=-", g) {
		g = '*'
	}
	return Paint{PalStrings + uint8(h.Sum32()%numStringColours), g}
}

// legendEntry is one line of the colour legend.
type legendEntry struct {
	Paint Paint
	Name  string
}

// KernelLegend lists the thread and CPU statuses in legend order.
func KernelLegend(d ValueDomain) []legendEntry {
	var out []legendEntry
	if d == DomainThread {
		for s := core.ThreadWaitBlocked; s <= core.ThreadWaitUnknown; s++ {
			out = append(out, legendEntry{PaintOf(d, core.Int32(int32(s))), s.String()})
		}
		return append(out, legendEntry{PaintOf(d, core.Int32(int32(core.ThreadUnknown))), core.ThreadUnknown.String()})
	}
	for s := core.CPUIdle; s <= core.CPUStatusSoftIRQRaised; s++ {
		out = append(out, legendEntry{PaintOf(d, core.Int32(int32(s))), s.String()})
	}
	return out
}

// DescribeValue names a value for the details line and the legend.
func DescribeValue(d ValueDomain, v core.Value) string {
	if v.Kind() == core.KindInt32 || v.Kind() == core.KindInt64 {
		switch d {
		case DomainThread:
			if s := core.ThreadStatus(v.Int()); s.String() != "status?" {
				return s.String()
			}
		case DomainCPU:
			if s := core.CPUStatus(v.Int()); s.String() != "status?" {
				return s.String()
			}
		}
	}
	if v.IsNull() {
		return "no state"
	}
	if d == DomainFrame {
		return core.FrameText(v)
	}
	return v.String()
}
