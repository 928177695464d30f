// Package headless runs a Bubble Tea model without a terminal, for the
// tests and the frames benchmark: [Driver] runs every command a message
// leads to, in order on the caller's goroutine or each on its own
// goroutine as Bubble Tea does, and [Key] names keys as the tests type
// them.
//
// It imports Bubble Tea only.
package headless
