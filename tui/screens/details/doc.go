// Package details is the details pane (i): the selected event's columns
// and fields, untruncated and wrapped, then every attribute under the
// selected row at the Gantt cursor, read with one 2D query in the
// background.
//
// It imports ui, frame, core and keymap; never package tui, gantt nor
// another screen.
package details
