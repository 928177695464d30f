// Package keymap holds tracetui's key bindings as one struct of
// key.Binding, from which the help screen and the README key table are
// generated, so keys and help never drift.
package keymap
