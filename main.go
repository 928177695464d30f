// Command tracetui is a terminal trace browser: it opens LTTng/CTF, Chrome
// JSON, Pajé and ftrace traces, indexes their states into an on-disk R-SHT,
// and lets you triage them with the keyboard over SSH.
//
// Run `tracetui help` for the subcommands. Exit status: 0 success, 1
// runtime error, 2 usage error. Errors go to stderr as
// "tracetui: <what>: <why>".
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest"
	"github.com/tracetui/tracetui/ingest/gen"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// command is one subcommand of the CLI.
type command struct {
	name     string
	synopsis string // usage line after "tracetui "
	summary  string // one line for `tracetui help`
	run      func(c *cli, args []string) error
}

// commands lists the subcommands in the order `tracetui help` shows them.
// The browser (no subcommand) is handled by runBrowse. A function, not a
// variable, because the subcommands look themselves up in it.
func commands() []command {
	return []command{
		{"index", "index [--layout rsht|esht|sht] [--index FILE] [--json] TRACE", "build (or rebuild) the trace's state index", runIndex},
		{"info", "info [--index FILE] [--json] TRACE", "describe an existing index without rebuilding it", runInfo},
		{"dump", "dump [--limit N] TRACE", "print every event, one line each, as babeltrace2 does", runDump},
		{"query", "query [--index FILE] [--json] [--from T] [--to T] [--samples N] TRACE ATTRIBUTE_GLOB...", "print the states of attributes over a time range", runQuery},
		{"bench", "bench paper [--index FILE] [--json] TRACE", "run the R-SHT article's Control Flow workload on a trace", runBench},
		{"gen", "gen --threads N [--cpus C] [--seed S] -o DIR", "write a synthetic LTTng-kernel-style CTF trace", runGen},
		{"help", "help [COMMAND]", "show this help, or a command's flags", runHelp},
	}
}

// cli carries the process's streams to the subcommands, so tests can run
// them in-process.
type cli struct {
	stdout, stderr io.Writer
}

// usageError is a bad command line: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// errNotYet marks a subcommand whose issue has not landed.
func errNotYet(what string) error {
	return fmt.Errorf("%s is not available yet in this build", what)
}

func run(args []string, stdout, stderr io.Writer) int {
	c := &cli{stdout: stdout, stderr: stderr}
	name, rest := "", args
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		if cmd := lookup(args[0]); cmd != nil {
			name, rest = cmd.name, args[1:]
		}
	}
	var err error
	if name == "" {
		name = "browse"
		err = runBrowse(c, rest)
	} else {
		err = lookup(name).run(c, rest)
	}
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

func lookup(name string) *command {
	for _, cmd := range commands() {
		if cmd.name == name {
			return &cmd
		}
	}
	return nil
}

// flagSet is a subcommand's flags. Parse errors are returned, not printed,
// so every error reaches stderr once, in the "tracetui: <what>: <why>" form;
// -h prints the usage.
type flagSet struct {
	*flag.FlagSet
	synopsis string
	stderr   io.Writer
}

func (c *cli) newFlags(name, synopsis string) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &flagSet{FlagSet: fs, synopsis: synopsis, stderr: c.stderr}
}

// parse parses args, mapping flag errors to usage errors, and checks the
// number of positional arguments is within [min, max] (max < 0: no limit).
func parse(fs *flagSet, args []string, min, max int) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(fs.stderr, "usage: tracetui %s\n", fs.synopsis)
			fs.SetOutput(fs.stderr)
			fs.PrintDefaults()
			return err
		}
		return usageError{err.Error()}
	}
	n := fs.NArg()
	switch {
	case n < min:
		return usagef("missing argument (want %d, got %d)", min, n)
	case max >= 0 && n > max:
		return usagef("unexpected argument %q", fs.Arg(max))
	}
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

func runBrowse(c *cli, args []string) error {
	fs := c.newFlags("tracetui", "[--index FILE] [--ascii] [TRACE]")
	fs.StringVar(new(string), "index", "", "use (or build) the index at `FILE` instead of the cache")
	fs.BoolVar(new(bool), "ascii", false, "tell states apart by characters only (as with NO_COLOR)")
	if err := parse(fs, args, 0, 1); err != nil {
		return err
	}
	return errNotYet("the browser")
}

func runIndex(c *cli, args []string) error {
	cmd := lookup("index")
	fs := c.newFlags(cmd.name, cmd.synopsis)
	layout := fs.String("layout", "rsht", "tree layout: `rsht`, esht or sht")
	fs.String("index", "", "write the index to `FILE` instead of the cache")
	fs.Bool("json", false, "print the result as JSON")
	if err := parse(fs, args, 1, 1); err != nil {
		return err
	}
	switch *layout {
	case "rsht", "esht", "sht":
	default:
		return usagef("--layout %q: want rsht, esht or sht", *layout)
	}
	return errNotYet("indexing")
}

func runInfo(c *cli, args []string) error {
	cmd := lookup("info")
	fs := c.newFlags(cmd.name, cmd.synopsis)
	fs.String("index", "", "read the index at `FILE` instead of the cache")
	fs.Bool("json", false, "print the result as JSON")
	if err := parse(fs, args, 1, 1); err != nil {
		return err
	}
	return errNotYet("info")
}

func runDump(c *cli, args []string) error {
	cmd := lookup("dump")
	fs := c.newFlags(cmd.name, cmd.synopsis)
	limit := fs.Int64("limit", 0, "stop after `N` events (0: all)")
	if err := parse(fs, args, 1, 1); err != nil {
		return err
	}
	if *limit < 0 {
		return usagef("--limit %d: want 0 or more", *limit)
	}
	src, err := ingest.OpenSource(fs.Arg(0), "")
	if err != nil {
		return err
	}
	defer src.Close()
	if err := ingest.Dump(c.stdout, src, *limit); err != nil {
		return err
	}
	// The tracer's reports of lost events go to stderr, as babeltrace2
	// prints them.
	for _, w := range src.Warnings() {
		fmt.Fprintln(c.stderr, w.Message)
	}
	return nil
}

func runQuery(c *cli, args []string) error {
	cmd := lookup("query")
	fs := c.newFlags(cmd.name, cmd.synopsis)
	fs.String("index", "", "read (or build) the index at `FILE` instead of the cache")
	fs.Bool("json", false, "print the result as JSON")
	var from, to timeFlag
	fs.Var(&from, "from", "start `T` (ns, 12.5ms, or +200us from the trace start; default: trace start)")
	fs.Var(&to, "to", "end `T` (default: trace end)")
	samples := fs.Int("samples", 0, "query `N` evenly spaced timestamps instead of the whole range")
	if err := parse(fs, args, 2, -1); err != nil {
		return err
	}
	if *samples < 0 {
		return usagef("--samples %d: want 0 or more", *samples)
	}
	return errNotYet("query")
}

func runBench(c *cli, args []string) error {
	cmd := lookup("bench")
	if len(args) == 0 || args[0] != "paper" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			fmt.Fprintf(c.stderr, "usage: tracetui %s\n", cmd.synopsis)
			return flag.ErrHelp
		}
		return usagef("want the benchmark name: paper")
	}
	fs := c.newFlags("bench paper", cmd.synopsis)
	fs.String("index", "", "read (or build) the index at `FILE` instead of the cache")
	fs.Bool("json", false, "print the result as JSON")
	if err := parse(fs, args[1:], 1, 1); err != nil {
		return err
	}
	return errNotYet("bench paper")
}

func runGen(c *cli, args []string) error {
	cmd := lookup("gen")
	fs := c.newFlags(cmd.name, cmd.synopsis)
	threads := fs.Int("threads", 0, "number of threads the workload forks (`N` >= 1)")
	cpus := fs.Int("cpus", 4, "number of CPUs, one stream each")
	seed := fs.Uint64("seed", 1, "random seed; the same seed writes the same trace")
	out := fs.String("o", "", "output `DIR` (created; must not exist or be empty)")
	if err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if *threads < 1 || *cpus < 1 || *out == "" {
		return usagef("want --threads N >= 1, --cpus C >= 1 and -o DIR")
	}
	if *cpus > gen.MaxCPUs {
		return usagef("--cpus %d: want at most %d", *cpus, gen.MaxCPUs)
	}
	st, err := gen.Write(*out, gen.Config{Threads: *threads, CPUs: *cpus, Seed: *seed})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "%s: %d threads, %d events, %d bytes\n", *out, st.Threads, st.Events, st.Bytes)
	return nil
}

func runHelp(c *cli, args []string) error {
	if len(args) > 0 {
		cmd := lookup(args[0])
		if cmd == nil || cmd.name == "help" {
			return usagef("no command %q", args[0])
		}
		return cmd.run(c, []string{"-h"})
	}
	w := c.stdout
	fmt.Fprintln(w, "tracetui: a terminal trace browser (LTTng/CTF, Chrome JSON, Pajé, ftrace)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "usage:")
	fmt.Fprintln(w, "  tracetui [--index FILE] [--ascii] [TRACE]   open the browser (no TRACE: a built-in demo trace)")
	for _, cmd := range commands() {
		fmt.Fprintf(w, "  tracetui %s\n      %s\n", cmd.synopsis, cmd.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Times (T) are nanoseconds, a number with a unit (12.5ms, 3s), or +OFFSET from the trace start.")
	fmt.Fprintln(w, "Exit status: 0 ok, 1 runtime error, 2 usage error.")
	return nil
}
