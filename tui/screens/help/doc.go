// Package help is the full help screen (?): the keys of every focus, then
// what the screen's glyphs and words mean, scrolling.
//
// It imports ui, frame and keymap; never package tui, gantt nor another
// screen.
package help
