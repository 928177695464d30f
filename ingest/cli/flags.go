package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/states/kernel/sysnames"
	"github.com/tracetui/tracetui/ingest/trace"
)

// FlagSet is a command's flags. Parse errors are returned, not printed,
// so every error reaches stderr once, in the "tracetui: <what>: <why>"
// form; -h prints the usage.
type FlagSet struct {
	*flag.FlagSet
	synopsis string
	stderr   io.Writer
}

// NewFlags returns the flags of the command name, whose usage line (after
// "tracetui ") is synopsis.
func (e *Env) NewFlags(name, synopsis string) *FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &FlagSet{FlagSet: fs, synopsis: synopsis, stderr: e.Stderr}
}

// Parse parses args, mapping flag errors to usage errors, and checks the
// number of positional arguments is within [min, max] (max < 0: no limit).
// Flags may come after positional arguments (`query TRACE 'CPUs/*' --to
// 1ms`); "--" ends the flags.
func Parse(fs *FlagSet, args []string, min, max int) error {
	var positional []string
	for {
		if err := fs.FlagSet.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprintf(fs.stderr, "usage: tracetui %s\n", fs.synopsis)
				fs.SetOutput(fs.stderr)
				fs.PrintDefaults()
				return err
			}
			return usageError{err.Error()}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			positional = append(positional, rest...)
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	// Re-parse the positional arguments alone so fs.Arg and fs.NArg see them.
	if err := fs.FlagSet.Parse(append([]string{"--"}, positional...)); err != nil {
		return usageError{err.Error()}
	}
	n := fs.NArg()
	switch {
	case n < min:
		return Usagef("missing argument (want %d, got %d)", min, n)
	case max >= 0 && n > max:
		return Usagef("unexpected argument %q", fs.Arg(max))
	}
	return nil
}

// FormatFlag adds --format, which names the trace's format instead of
// detecting it from the content.
func FormatFlag(fs *FlagSet) *string {
	return fs.String("format", "", "read the trace as `FORMAT` ("+formatList()+") instead of detecting it")
}

// ArchFlag adds --arch: the architecture whose system call table names
// raw system call numbers when the index is built (default: the trace's,
// else the machine's). An architecture without a table is a usage error.
func ArchFlag(fs *FlagSet) *string {
	a := &archFlag{}
	fs.Var(a, "arch", "name raw system calls with `ARCH`'s table ("+strings.Join(sysnames.Arches(), ", ")+"; default: the trace's, else the machine's)")
	return &a.name
}

type archFlag struct{ name string }

func (f *archFlag) String() string { return f.name }

func (f *archFlag) Set(s string) error {
	if _, err := sysnames.For(s); err != nil {
		return err
	}
	f.name = s
	return nil
}

// timeFlag is a --from/--to value: checked for syntax when parsed, resolved
// against the trace start once the trace is open (for "+200us").
type timeFlag struct {
	text string
	set  bool
}

func (f *timeFlag) String() string { return f.text }

func (f *timeFlag) Set(s string) error {
	if _, err := core.ParseTime(s, 0); err != nil {
		return err
	}
	f.text, f.set = s, true
	return nil
}

// resolve returns the time, or def when the flag was not given.
func (f *timeFlag) resolve(start, def core.Time) core.Time {
	if !f.set {
		return def
	}
	t, _ := core.ParseTime(f.text, start) // syntax checked by Set
	return t
}

// resolveRange resolves --from and --to against a trace that spans [start,
// end]: [from, to), the whole trace by default (to exclusive: end+1, or
// end where the range's end is inclusive). A time outside the trace, or an
// empty range, is a usage error that shows the trace's span and how to
// give a time, never a range silently clamped to nothing (a bare 170.5 is
// absolute seconds, which for an LTTng trace is decades before its
// start).
func resolveRange(from, to *timeFlag, start, end, defTo core.Time) (core.Time, core.Time, error) {
	f, l := from.resolve(start, start), to.resolve(start, defTo)
	span := fmt.Sprintf("the trace spans %s to %s; give absolute seconds as the trace prints them, or +OFFSET from its start (+1.5s)",
		core.FormatTimestamp(start), core.FormatTimestamp(end))
	switch {
	case from.set && (f > end || f < start):
		return 0, 0, Usagef("--from %s is outside the trace: %s", from.text, span)
	case to.set && (l <= start || l > end+1):
		return 0, 0, Usagef("--to %s is outside the trace: %s", to.text, span)
	case l <= f:
		return 0, 0, Usagef("--from %s is not before --to %s", core.FormatTimestamp(f), core.FormatTimestamp(l))
	}
	return f, l, nil
}

// addRangeFlags adds --from and --to, a time range of the trace.
func addRangeFlags(fs *FlagSet) (from, to *timeFlag) {
	from, to = new(timeFlag), new(timeFlag)
	fs.Var(from, "from", "start `T` (ns, 12.5ms, or +200us from the trace start; default: trace start)")
	fs.Var(to, "to", "end `T` (default: trace end)")
	return from, to
}

// open opens the trace named by the command's first argument with the
// index flags.
func (fl indexFlags) open(e *Env, fs *FlagSet) (*trace.Trace, error) {
	return e.openTrace(fs.Arg(0), fl.options())
}

// options returns the index options the flags give.
func (fl indexFlags) options() index.Options {
	return index.Options{IndexPath: *fl.index, Format: *fl.format, Arch: *fl.arch}
}

// indexFlags are the flags of the commands that read a trace's index.
type indexFlags struct {
	index  *string // --index FILE
	asJSON *bool   // --json
	format *string // --format F
	arch   *string // --arch ARCH
}

// addIndexFlags adds --index (indexUsage says what the command does with
// the file), --json, --format and --arch.
func addIndexFlags(fs *FlagSet, indexUsage string) indexFlags {
	return indexFlags{
		index:  fs.String("index", "", indexUsage),
		asJSON: fs.Bool("json", false, "print the result as JSON"),
		format: FormatFlag(fs),
		arch:   ArchFlag(fs),
	}
}
