package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// Command is one subcommand of the CLI.
type Command struct {
	Name     string
	Synopsis string // usage line after "tracetui "
	Summary  string // one line for `tracetui help`
	Run      RunFunc
}

// RunFunc runs a command on its arguments (those after its name).
type RunFunc func(e *Env, args []string) error

// Env carries the process's output streams to the commands.
type Env struct {
	Stdout, Stderr io.Writer
	frames         FrameBench // bench frames: the browser's, given to [Run]
	gc             *gcTuner
}

// Browsing switches the process to the browser's GC regime (browseGC):
// the browser calls it once its trace is open.
func (e *Env) Browsing() {
	if e.gc != nil {
		e.gc.use(&browseGC)
	}
}

// ExitCancelled is the exit status of a run cancelled by Ctrl-C, SIGTERM
// or the indexing screen's q (128 + SIGINT, as shells report it).
const ExitCancelled = 130

// usageError is a bad command line: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// Usagef returns a usage error (exit status 2, with a pointer to the
// command's help).
func Usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// Run runs the command named by args[0], or browse when args[0] names none
// (or is a flag), and returns the process's exit status. frames runs the
// browser's frames benchmark (`bench frames`): the browser is the main
// package's, as browse is, since this package does not import it.
func Run(args []string, stdout, stderr io.Writer, browse RunFunc, frames FrameBench) int {
	gc := startGCTuner()
	defer gc.stop()
	e := &Env{Stdout: stdout, Stderr: stderr, frames: frames, gc: gc}
	name, runCmd, rest := "browse", browse, args // no subcommand: the browser
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		if cmd := lookup(args[0]); cmd != nil {
			name, runCmd, rest = cmd.Name, cmd.Run, args[1:]
		} else if unknownCommand(args) {
			runCmd = func(*Env, []string) error {
				return Usagef("unknown command %q (run 'tracetui help' for the commands; a trace to browse comes alone)", args[0])
			}
		}
	}
	err := runCmd(e, rest)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, context.Canceled):
		// Ctrl-C, SIGTERM or q while indexing: the shell's status for an
		// interrupted command, and a word instead of "context canceled".
		fmt.Fprintf(stderr, "tracetui: %s: cancelled\n", name)
		return ExitCancelled
	case errors.As(err, new(usageError)):
		fmt.Fprintf(stderr, "tracetui: %s: %v\n", name, err)
		fmt.Fprintf(stderr, "run '%s' for usage\n", strings.TrimSpace("tracetui help "+strings.TrimPrefix(name, "browse")))
		return 2
	default:
		fmt.Fprintf(stderr, "tracetui: %s: %v\n", name, err)
		return 1
	}
}

// unknownCommand reports a first argument that reads as a mistyped
// command rather than a trace: more arguments follow it (the browser
// takes one trace) and no file of that name exists.
func unknownCommand(args []string) bool {
	if len(args) < 2 {
		return false
	}
	_, err := os.Stat(args[0])
	return errors.Is(err, fs.ErrNotExist)
}

func lookup(name string) *Command {
	for _, cmd := range commands() {
		if cmd.Name == name {
			return &cmd
		}
	}
	return nil
}
