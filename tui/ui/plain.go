package ui

import (
	"strings"
	"unicode/utf8"

	"github.com/tracetui/tracetui/tui/frame"
)

// Plain text (--ascii, NO_COLOR). The views draw their own marks in
// ASCII when Styles.ASCII is set, but many shared strings (help keys
// "k/↑", separators "·", the ruler's "×", ellipses, dashes in ranges)
// are written once for both modes: the root passes the whole screen
// through [Styles.Plain], which maps every such mark to an ASCII one of
// the same width, and with --ascii (Styles.SevenBit) any other
// character of the trace's own text (a thread's name in Japanese) to '?'
// per cell, so the output is 7-bit only.

// plainRunes maps the browser's own non-ASCII marks to ASCII.
var plainRunes = map[rune]rune{
	'·': '.', '×': 'x', '–': '-', '—': '-', '•': '*', '…': '~', '→': '>', '←': '<', '↑': '^', '↓': 'v',
	'«': '<', '»': '>', '▾': 'v', '▸': '>', '▼': 'v', '▶': '>', '│': '|', '─': '-', '┬': '+', '┼': '+', '┴': '+',
	'┌': '+', '┐': '+', '└': '+', '┘': '+', '├': '+', '┤': '+', '▒': '%', '░': '.', '█': '#', '▁': '.', '▂': ':',
	'▃': '-', '▄': '=', '▅': '+', '▆': '*', '▇': '#', '≤': '<', '≥': '>', 'µ': 'u', '±': '~', '⏎': '|', '↵': '|',
	'\uFFFD': '?',
}

// Plain returns the screen s in plain text: unchanged unless the styles
// are ASCII (see above).
func (st *Styles) Plain(s string) string {
	if !st.ASCII {
		return s
	}
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		switch a, ok := plainRunes[r]; {
		case r < utf8.RuneSelf:
			b.WriteByte(byte(r))
		case ok:
			b.WriteRune(a)
		case st.SevenBit:
			b.WriteString(strings.Repeat("?", frame.RuneCells(r)))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
