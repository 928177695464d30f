// Package gantt is the browser's main screen as a view: the bottom of the
// stack of views (ui.Stack), which draws the chrome every screen shares
// (density strip, ruler, status and help lines) around the top view's
// body. Its own body is the Gantt of the pane (Control Flow: threads;
// Resources: CPUs) over the window, the details line and the event table.
//
// It holds the navigation (cursor, selection, zoom and pan, state
// changes), the named marks (a modal view for the letter), row finds,
// waker jumps, flows, the ruler and the density strip, the event table
// with its filters and its search (tablesearch.go), the prompt (a modal
// ui.PromptView over it), the rows' toggles (expand/collapse all, idle
// rows hidden: idle.go, the process tree: proctree.go), going to an
// event by number (eventnumber.go), the view that lasts from one session
// to the next (session.go), and opening the screens: it copies what a screen needs (open_screens.go,
// compare.go) into that screen's New and returns it in its Step. Given a
// second trace (SetCompare), it is BASE, compared with that NEW trace;
// the compare key with nothing to compare asks for one's path and opens
// it in the background through the root's OpenPath (opennew.go).
//
// Every query runs in a tea.Cmd over copied values through a ui.Job; at
// most one frame query runs at a time (a change during a query marks the
// window dirty; the newest one is asked when the query ends).
//
// It imports ui, frame, the screens (tui/screens/...), core, keymap,
// ingest/trace (profiles of samples) and ingest/query/critpath, calltree
// and diff; never package tui (the root, which imports it).
package gantt
