// Package frametest holds the browser's test fixtures: the demo trace (a
// tiny deterministic kernel-like trace with its event table, which the
// golden screens draw) and an indexed in-memory history that answers 2D
// queries as the index does. Tests of tui and of its packages share them.
//
// It imports core and tui/frame only.
package frametest
