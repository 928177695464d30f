// Package ui is the kit every view of the browser imports: the [View]
// interface and the [Step] a view's Update returns, the [Area] it draws
// into, the [Shared] context (terminal size, [Styles], key bindings), the
// background [Job] helper, text fitting (fit, trunc, printable, help
// lines) and the one-line [Prompt].
//
// # Views
//
// A view is one screen or overlay of the browser (the main Gantt,
// statistics, overviews, help, legend...). Its Update returns a Step:
// a command, and what the stack should do (pass the key to the view
// below, close this view, open another on top, show a note). The root
// routes a key to the top view and any other message to every view; see
// package tui for the stack.
//
// # Background jobs
//
// Slow work (a filter scan, statistics, an overview, the index build, a
// frame query) runs in a tea.Cmd over copied values and reports through
// tagged messages. A [Job] is one kind of such work, of which at most one
// run is current: [Job.Start] cancels the previous run and returns the new
// run's context and sequence number; a report whose sequence number is
// not [Job.Current] is dropped. Every background query of the browser
// goes through a Job: there are no private sequence counters.
//
// # Imports
//
// ui imports Bubble Tea, bubbles/key, lipgloss, core, keymap and
// tui/frame (the states' paint the styles colour); never package tui nor
// any view (tui/gantt, tui/screens/...).
package ui
