package ui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/tracetui/tracetui/tui/frame"
)

// Text helpers shared by the views.

// Fit truncates s (plain text) to w cells with an ellipsis and pads it
// with spaces to exactly w cells, control characters replaced. Wide
// characters in names count for two (cells.go).
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	s = Printable(s)
	if frame.Cells(s) > w {
		s = frame.TruncCells(s, w, "…")
	}
	return frame.PadCells(s, w)
}

// Trunc is fit without the padding.
func Trunc(s string, w int) string {
	s = Printable(s)
	if frame.Cells(s) > w {
		s = frame.TruncCells(s, max(w, 0), "…")
	}
	return s
}

// Printable replaces control characters (names and event contents come
// from untrusted traces: an escape sequence in a thread name must not
// reach the terminal) with U+FFFD.
func Printable(s string) string {
	for _, r := range s {
		if isControl(r) {
			return strings.Map(func(r rune) rune {
				if isControl(r) {
					return '\uFFFD'
				}
				return r
			}, s)
		}
	}
	return s
}

func isControl(r rune) bool { return r < 0x20 || (r >= 0x7f && r < 0xa0) }

// PadStyled pads a styled string to w cells (truncating when wider).
func PadStyled(s string, w int) string {
	n := lipgloss.Width(s)
	if n > w {
		return FitANSI(s, w)
	}
	return s + strings.Repeat(" ", w-n)
}

// FitANSI truncates a styled string to w cells.
func FitANSI(s string, w int) string {
	return lipgloss.NewStyle().MaxWidth(w).Render(s)
}

// FillLines pads lines with empty ones, or cuts them, to exactly n.
func FillLines(lines []string, n int) []string {
	for len(lines) < n {
		lines = append(lines, "")
	}
	return lines[:n]
}

// K is a binding's key as the help shows it.
func K(b key.Binding) string { return b.Help().Key }

// joinHelp joins the items of a view's help line.
func joinHelp(st *Styles, items ...string) string {
	sep := " · "
	if st.ASCII {
		sep = " | "
	}
	return strings.Join(items, sep)
}

// WrapText cuts s into lines of at most w cells, at spaces when it can.
func WrapText(s string, w int) []string {
	var out []string
	for frame.Cells(s) > w {
		cut, width := 0, 0
		lastSpace := -1
		for i, r := range s {
			rw := frame.RuneCells(r)
			if width+rw > w {
				break
			}
			width += rw
			cut = i + len(string(r))
			if r == ' ' {
				lastSpace = i
			}
		}
		if lastSpace > 0 {
			cut = lastSpace + 1
		}
		if cut == 0 { // a rune wider than w
			_, cut = utf8.DecodeRuneInString(s)
		}
		out = append(out, strings.TrimRight(s[:cut], " "))
		s = s[cut:]
	}
	return append(out, s)
}

// PadLeft right-aligns s in w cells (truncating when longer).
func PadLeft(s string, w int) string {
	n := frame.Cells(s)
	if n >= w {
		return Trunc(s, w)
	}
	return strings.Repeat(" ", w-n) + s
}
