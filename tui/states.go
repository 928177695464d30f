package tui

import (
	"hash/fnv"
	"strings"
	"unicode/utf8"

	"github.com/tracetui/tracetui/core"
)

// paint is a state's look: an index into the colour palette and the
// character that stands for it without colour. Every state value maps to
// one paint everywhere (Gantt, legend, details).
type paint struct {
	colour uint8 // palette index, see the pal* constants
	glyph  rune  // ASCII-mode character
}

// Palette indexes. The kernel statuses have fixed entries close to Trace
// Compass's colours; string values (user-space and Chrome states) hash into
// the last numStringColours entries.
const (
	palNone uint8 = iota // null: nothing known, drawn blank
	palUnknown
	palWaitBlocked
	palRunUser
	palRunSyscall
	palInterrupted
	palWaitCPU
	palWaitUnknown
	palIdle
	palIRQ
	palSoftIRQ
	palSoftIRQRaised
	palOther // an integer outside the known statuses
	palStrings
	numStringColours = 12
	numPalette       = int(palStrings) + numStringColours
)

// paletteHex gives each palette entry its colour (truecolor; lipgloss
// degrades it to the terminal's profile).
func paletteHex(i uint8) string {
	switch i {
	case palUnknown:
		return "#4e4e4e"
	case palWaitBlocked:
		return "#c8c800"
	case palRunUser:
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
	case palOther:
		return "#8080ff"
	}
	if i >= palStrings {
		j := int(i-palStrings) % numStringColours * 6
		return "#" + stringColours[j:j+6]
	}
	return ""
}

// stringColours are numStringColours well separated hues (6 hex digits
// each) for hashed string states.
const stringColours = "e6194b3cb44b4363d8f58231911eb442d4f4f032e6bfef454699909a6324800000808000"

// valueDomain tells how a row's integer values are read.
type valueDomain uint8

const (
	domainThread  valueDomain = iota // core.ThreadStatus
	domainCPU                        // core.CPUStatus
	domainOther                      // no known meaning
	domainFrame                      // call-stack frames: names or addresses (see framenames.go)
	domainCounter                    // a counter: drawn by level (see counterLevels)
)

// paintOf returns the paint of a state value in a domain.
func paintOf(d valueDomain, v core.Value) paint {
	switch v.Kind() {
	case core.KindNull:
		return paint{palNone, ' '}
	case core.KindString:
		return stringPaint(v.Str())
	case core.KindInt32, core.KindInt64:
		n := v.Int()
		switch d {
		case domainOther: // a stable colour per value
			return stringPaint(v.String())
		case domainFrame: // addresses: as the details line prints them
			return stringPaint(core.FrameText(v))
		case domainCounter:
			return paint{palOther, 'o'}
		case domainThread:
			switch core.ThreadStatus(n) {
			case core.ThreadUnknown:
				return paint{palUnknown, '?'}
			case core.ThreadWaitBlocked:
				return paint{palWaitBlocked, '.'}
			case core.ThreadRunUser:
				return paint{palRunUser, '#'}
			case core.ThreadRunSyscall:
				return paint{palRunSyscall, 'S'}
			case core.ThreadInterrupted:
				return paint{palInterrupted, '!'}
			case core.ThreadWaitCPU:
				return paint{palWaitCPU, '~'}
			case core.ThreadWaitUnknown:
				return paint{palWaitUnknown, ','}
			}
		case domainCPU:
			switch core.CPUStatus(n) {
			case core.CPUIdle:
				return paint{palIdle, '_'}
			case core.CPURunUser:
				return paint{palRunUser, '#'}
			case core.CPURunSyscall:
				return paint{palRunSyscall, 'S'}
			case core.CPUStatusIRQ:
				return paint{palIRQ, 'I'}
			case core.CPUStatusSoftIRQ:
				return paint{palSoftIRQ, 's'}
			case core.CPUStatusSoftIRQRaised:
				return paint{palSoftIRQRaised, '^'}
			}
		}
	}
	if d == domainOther {
		return stringPaint(v.String())
	}
	return paint{palOther, 'o'} // counters (floats too) are drawn by level
}

// stringPaint gives a string state a stable colour from a hash of it, and
// its first character as glyph (so "read" and "write" differ without
// colour; '*' when that character is not one terminal cell wide or is one
// of the marks ASCII mode draws over states: the cursor '|', the Gantt's
// multi-state '%', the overview's hatch '/' and intensity fills '=' '-').
func stringPaint(s string) paint {
	h := fnv.New32a()
	h.Write([]byte(s))
	g, _ := utf8.DecodeRuneInString(s)
	if g == utf8.RuneError || runeCells(g) != 1 || strings.ContainsRune(" |%/=-", g) {
		g = '*'
	}
	return paint{palStrings + uint8(h.Sum32()%numStringColours), g}
}

// legendEntry is one line of the colour legend.
type legendEntry struct {
	paint paint
	name  string
}

// kernelLegend lists the thread and CPU statuses in legend order.
func kernelLegend(d valueDomain) []legendEntry {
	var out []legendEntry
	if d == domainThread {
		for s := core.ThreadWaitBlocked; s <= core.ThreadWaitUnknown; s++ {
			out = append(out, legendEntry{paintOf(d, core.Int32(int32(s))), s.String()})
		}
		return append(out, legendEntry{paintOf(d, core.Int32(int32(core.ThreadUnknown))), core.ThreadUnknown.String()})
	}
	for s := core.CPUIdle; s <= core.CPUStatusSoftIRQRaised; s++ {
		out = append(out, legendEntry{paintOf(d, core.Int32(int32(s))), s.String()})
	}
	return out
}

// describeValue names a value for the details line and the legend.
func describeValue(d valueDomain, v core.Value) string {
	if v.Kind() == core.KindInt32 || v.Kind() == core.KindInt64 {
		switch d {
		case domainThread:
			if s := core.ThreadStatus(v.Int()); s.String() != "status?" {
				return s.String()
			}
		case domainCPU:
			if s := core.CPUStatus(v.Int()); s.String() != "status?" {
				return s.String()
			}
		}
	}
	if v.IsNull() {
		return "no state"
	}
	if d == domainFrame {
		return core.FrameText(v)
	}
	return v.String()
}
