package ui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
)

// View is one screen or overlay of the browser.
type View interface {
	// Update handles a key or a message.
	Update(msg tea.Msg) Step
	// View draws the view into a, exactly a.Height lines of a.Width cells.
	View(a Area) []string
	// Help is the short help line ("" leaves the one of the view below).
	Help() string
	// Close cancels the view's background work; it is called once, when
	// the view leaves the stack.
	Close()
}

// Area is where a view draws.
type Area struct{ Width, Height int }

// Step is what a view's Update asks of the stack.
type Step struct {
	Cmd  tea.Cmd
	Pass bool   // the key is not this view's: offer it to the view below
	Done bool   // the view is finished: close and pop it (and what is above)
	Open View   // push this view on top
	Note string // one-line message for the help line
	Warn bool   // the note is an error
}

// RulerMarker is a view that puts its own cursor and range on the ruler
// (the overview's cursor is a column, not a time of the Gantt).
type RulerMarker interface{ RulerMarks() (RulerMarks, bool) }

// RulerMarks are the columns the ruler marks: the cursor, the mark and
// the selection (on the overview: its cursor and the part under it).
type RulerMarks struct {
	CursorTime     core.Time
	CursorCol      int
	MarkCol        int
	Named          map[int]rune // column → mark letter (the browser's named marks)
	SelFrom, SelTo int          // -1, -2 when none
}

// Modal is a view that takes every key while it is open and draws no
// body of its own (the body shows the view below it): the prompt, a
// pending mark. The root offers it the help key too; the view that
// opened it may close it (Closed), and the stack then drops it.
type Modal interface {
	View
	// Typing reports whether the quit key is text to it (Ctrl-C still
	// quits).
	Typing() bool
	// Closed reports that it is done.
	Closed() bool
	// Line is what it shows on the help line ("": the usual line).
	Line() string
}

// ZoomMsg asks the Gantt to show a time range and select a row of a pane.
type ZoomMsg struct {
	Pane   int
	Node   int32 // the row to select (-1: none)
	T0, T1 core.Time
	What   string // what is shown, for the note ("the part")
	// Select: [T0, T1] is one thing (a system call, a wake-up latency,
	// a call): select it, frame it with some context on both sides, the
	// cursor at its start.
	Select bool
}
