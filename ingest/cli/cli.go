package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
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
	ctx            context.Context // cancelled by SIGINT or SIGTERM
}

// Context is cancelled by SIGINT or SIGTERM, from the start of [Run]: a
// command's every phase honours it, and a run cancelled so exits 130
// saying "cancelled".
func (e *Env) Context() context.Context {
	if e.ctx == nil { // an Env made by a test, outside Run
		return context.Background()
	}
	return e.ctx
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
	// Signals are caught from the first line, before any command: a
	// Ctrl-C in the first milliseconds exits 130 with "cancelled" too.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	e := &Env{Stdout: stdout, Stderr: stderr, frames: frames, gc: gc, ctx: ctx}
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
	returned := make(chan struct{})
	defer close(returned) // before stop, which cancels ctx
	go forceExit(ctx, returned, stderr, name)
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

// cancelGrace is how long a command has, once cancelled, to return by
// itself (every phase of the index build, the analyses and the browser
// do within milliseconds) before forceExit ends the process.
const cancelGrace = time.Second

// forceExit ends the process with ExitCancelled when ctx is cancelled and
// the command has not returned cancelGrace later: the safety net under a
// phase that does not check the context (info --check's walk of every
// node, say), now that signals are caught from the start.
func forceExit(ctx context.Context, returned <-chan struct{}, stderr io.Writer, name string) {
	select {
	case <-ctx.Done():
	case <-returned:
		return
	}
	select {
	case <-time.After(cancelGrace):
		fmt.Fprintf(stderr, "tracetui: %s: cancelled\n", name)
		os.Exit(ExitCancelled)
	case <-returned:
	}
}
