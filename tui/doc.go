// Package tui is tracetui's Bubble Tea trace browser: a Gantt of threads
// (Control Flow) and CPUs (Resources) answered by 2D history queries, an
// event table with regex column filters, and keyboard zoom and pan.
package tui
