// Package cli is tracetui's non-interactive commands: index, info, dump,
// query, bench, gen and help. The browser (tracetui with no command) lives
// in package main, the only part that needs the terminal UI; [Run] calls it
// when the first argument names no command.
//
// The contract, which the tests check on the built binary: errors go to
// stderr once, as "tracetui: <command>: <why>"; exit status 0 on success
// (and on -h), 1 on a runtime error, 2 on a usage error (a [Usagef] error
// or a flag that does not parse), then followed by "run 'tracetui help
// <command>' for usage".
//
// Adding a command is one file and one table entry:
//
//  1. write NAME.go with a function func(e *Env, args []string) error that
//     builds its flags with e.NewFlags(cmd.Name, cmd.Synopsis) (cmd from
//     lookup(NAME)), parses them with [Parse], opens a trace with
//     e.openTrace when it needs the index, and writes to e.Stdout;
//  2. add a [Command] to the table in commands.go (its place there is its
//     place in `tracetui help`).
//
// Imports: every ingest package; never tui (the browser is given to Run by main).
package cli
