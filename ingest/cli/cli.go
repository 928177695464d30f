package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
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
}

// usageError is a bad command line: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// Usagef returns a usage error (exit status 2, with a pointer to the
// command's help).
func Usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// Run runs the command named by args[0], or browse when args[0] names none
// (or is a flag), and returns the process's exit status.
func Run(args []string, stdout, stderr io.Writer, browse RunFunc) int {
	e := &Env{Stdout: stdout, Stderr: stderr}
	name, runCmd, rest := "browse", browse, args // no subcommand: the browser
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		if cmd := lookup(args[0]); cmd != nil {
			name, runCmd, rest = cmd.Name, cmd.Run, args[1:]
		}
	}
	err := runCmd(e, rest)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(usageError)):
		fmt.Fprintf(stderr, "tracetui: %s: %v\n", name, err)
		fmt.Fprintf(stderr, "run '%s' for usage\n", strings.TrimSpace("tracetui help "+strings.TrimPrefix(name, "browse")))
		return 2
	default:
		fmt.Fprintf(stderr, "tracetui: %s: %v\n", name, err)
		return 1
	}
}

func lookup(name string) *Command {
	for _, cmd := range commands() {
		if cmd.Name == name {
			return &cmd
		}
	}
	return nil
}
