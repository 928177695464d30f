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
	"strconv"
	"strings"
	"sync/atomic"
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
	browse         RunFunc         // the browser, given to [Run]
	ctx            context.Context // cancelled by SIGINT or SIGTERM; nil: none yet
	stops          []func()        // of the signal contexts made
	selfStop       atomic.Bool     // the command handles the signals itself
}

// Context is cancelled by SIGINT or SIGTERM, from the start of [Run]: a
// command's every phase honours it, and a run cancelled so exits 130
// saying "cancelled".
func (e *Env) Context() context.Context {
	if e.ctx == nil {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		e.ctx, e.stops = ctx, append(e.stops, stop)
	}
	return e.ctx
}

// HandlesSignals says the command catches SIGINT and SIGTERM itself from
// now on (record: a Ctrl-C stops the recording, then the trace is written
// and CMD waited for, however long that takes): the run is no longer
// cancelled nor ended by them, and a later Context is a new one, that
// the next signal cancels (the browser opened on the recording).
func (e *Env) HandlesSignals() {
	e.selfStop.Store(true)
	for _, stop := range e.stops {
		stop()
	}
	e.ctx, e.stops = nil, nil
}

// Browse runs the browser on args, as the command line without a
// subcommand does.
func (e *Env) Browse(args []string) error { return e.browse(e, args) }

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
	e := &Env{Stdout: stdout, Stderr: stderr, frames: frames, gc: gc, browse: browse}
	ctx := e.Context()
	defer func() {
		for _, stop := range e.stops {
			stop()
		}
	}()
	name, runCmd, rest := "browse", browse, args // no subcommand: the browser
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		if cmd := lookup(args[0]); cmd != nil {
			name, runCmd, rest = cmd.Name, cmd.Run, args[1:]
		} else if unknownCommand(args) {
			runCmd = func(*Env, []string) error {
				return Usagef("unknown command %q (run 'tracetui help' for the commands; the browser takes one trace, or two: BASE NEW)", args[0])
			}
		}
	}
	returned := make(chan struct{})
	defer close(returned) // before the contexts' stop, which cancels them
	go forceExit(ctx, &e.selfStop, returned, stderr, name)
	err := runCmd(e, rest)
	var status ExitStatus
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &status):
		return int(status)
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
func forceExit(ctx context.Context, selfStop *atomic.Bool, returned <-chan struct{}, stderr io.Writer, name string) {
	select {
	case <-ctx.Done():
	case <-returned:
		return
	}
	if selfStop.Load() {
		return
	}
	select {
	case <-time.After(cancelGrace):
		fmt.Fprintf(stderr, "tracetui: %s: cancelled\n", name)
		os.Exit(ExitCancelled)
	case <-returned:
	}
}

// ExitStatus is an error that makes Run exit with that status and say
// nothing: a command that runs another passes its status on (record
// exits as CMD did).
type ExitStatus int

func (s ExitStatus) Error() string { return "exit status " + strconv.Itoa(int(s)) }
