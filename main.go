// Command tracetui is a terminal trace browser: it opens LTTng/CTF, Chrome
// JSON, Pajé and ftrace traces, indexes their states into an on-disk R-SHT,
// and lets you triage them with the keyboard over SSH.
//
// Run `tracetui help` for the subcommands. Exit status: 0 success, 1
// runtime error, 2 usage error. Errors go to stderr as
// "tracetui: <what>: <why>".
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest"
	"github.com/tracetui/tracetui/ingest/gen"
	"github.com/tracetui/tracetui/tui"
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
		{"index", "index [--layout rsht|esht|sht] [--index FILE] [--format F] [--json] TRACE", "build (or rebuild) the trace's state index", runIndex},
		{"info", "info [--index FILE] [--format F] [--json] TRACE", "describe an existing index without rebuilding it", runInfo},
		{"dump", "dump [--limit N] [--format F] TRACE", "print every event, one line each, as babeltrace2 does", runDump},
		{"query", "query [--index FILE] [--format F] [--json] [--from T] [--to T] [--samples N] TRACE ATTRIBUTE_GLOB...", "print the states of attributes over a time range", runQuery},
		{"bench", "bench paper [--index FILE] [--format F] [--json] TRACE", "run the R-SHT article's Control Flow workload on a trace", runBench},
		{"gen", "gen --threads N [--cpus C] [--seed S] -o DIR", "write a synthetic LTTng-kernel-style CTF trace", runGen},
		{"help", "help [COMMAND]", "show this help, or a command's flags", runHelp},
	}
}

// cli carries the process's output streams to the subcommands.
type cli struct {
	stdout, stderr io.Writer
}

// usageError is a bad command line: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

func run(args []string, stdout, stderr io.Writer) int {
	c := &cli{stdout: stdout, stderr: stderr}
	name, runCmd, rest := "browse", runBrowse, args // no subcommand: the browser
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		if cmd := lookup(args[0]); cmd != nil {
			name, runCmd, rest = cmd.name, cmd.run, args[1:]
		}
	}
	err := runCmd(c, rest)
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
// Flags may come after positional arguments (`query TRACE 'CPUs/*' --to
// 1ms`); "--" ends the flags.
func parse(fs *flagSet, args []string, min, max int) error {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
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
	if err := fs.Parse(append([]string{"--"}, positional...)); err != nil {
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

// formatFlag adds --format, which names the trace's format instead of
// detecting it from the content.
func formatFlag(fs *flagSet) *string {
	return fs.String("format", "", "read the trace as `FORMAT` (ctf, chrome, paje, ftrace) instead of detecting it")
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
	fs := c.newFlags("tracetui", "[--index FILE] [--ascii] [--format F] [TRACE]")
	index := fs.String("index", "", "use (or build) the index at `FILE` instead of the cache")
	ascii := fs.Bool("ascii", false, "tell states apart by characters only (as with NO_COLOR)")
	format := formatFlag(fs)
	if err := parse(fs, args, 0, 1); err != nil {
		return err
	}
	path := fs.Arg(0)
	if path == "" {
		demo, err := ingest.DemoTrace()
		if err != nil {
			return err
		}
		path = demo
	}
	opts := ingest.Options{IndexPath: *index, Format: *format}
	_, ready, err := ingest.Locate(path, opts)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opener := tui.Opener{
		Name:    filepath.Base(filepath.Clean(path)),
		Indexed: ready,
		Open: func(ctx context.Context, progress func(done, total int64)) (tui.Trace, error) {
			o := opts
			o.Progress = progress
			t, err := ingest.Open(ctx, path, o)
			if err != nil {
				return nil, err
			}
			return browserTrace{t}, nil
		},
	}
	err = tui.Run(ctx, opener, tui.Options{ASCII: *ascii})
	if errors.Is(err, context.Canceled) {
		return nil // the user cancelled the indexing: not a failure
	}
	return err
}

// browserTrace shows an indexed trace to the browser.
type browserTrace struct{ *ingest.Trace }

func (b browserTrace) Name() string { return filepath.Base(b.Trace.Info().Trace) }

func (b browserTrace) Info() tui.TraceInfo {
	in := b.Trace.Info()
	return tui.TraceInfo{Format: in.Format, Start: in.StartNS, End: in.EndNS, Events: in.Events,
		Discarded: in.LostEvents, Warnings: in.Warnings}
}

func (b browserTrace) Events() tui.EventTable { return b.Trace.Events() }

func runIndex(c *cli, args []string) error {
	cmd := lookup("index")
	fs := c.newFlags(cmd.name, cmd.synopsis)
	layout := fs.String("layout", "rsht", "tree layout: `rsht`, esht or sht")
	index := fs.String("index", "", "write the index to `FILE` instead of the cache")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	format := formatFlag(fs)
	if err := parse(fs, args, 1, 1); err != nil {
		return err
	}
	l, err := history.ParseLayout(*layout)
	if err != nil {
		return usagef("--layout %q: want rsht, esht or sht", *layout)
	}
	t, err := c.openTrace(fs.Arg(0), ingest.Options{IndexPath: *index, Layout: l, Rebuild: true, Format: *format})
	if err != nil {
		return err
	}
	defer t.Close()
	return c.printInfo(t.Info(), *asJSON)
}

func runInfo(c *cli, args []string) error {
	cmd := lookup("info")
	fs := c.newFlags(cmd.name, cmd.synopsis)
	index := fs.String("index", "", "read the index at `FILE` instead of the cache")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	format := formatFlag(fs)
	if err := parse(fs, args, 1, 1); err != nil {
		return err
	}
	path, ready, err := ingest.Locate(fs.Arg(0), ingest.Options{IndexPath: *index, Format: *format})
	if err != nil {
		return err
	}
	if !ready {
		return fmt.Errorf("%s has no up-to-date index (looked for %s): run 'tracetui index %s'", fs.Arg(0), path, fs.Arg(0))
	}
	t, err := ingest.OpenIndexFile(path, ingest.Options{})
	if err != nil {
		return err
	}
	defer t.Close()
	return c.printInfo(t.Info(), *asJSON)
}

func runDump(c *cli, args []string) error {
	cmd := lookup("dump")
	fs := c.newFlags(cmd.name, cmd.synopsis)
	limit := fs.Int64("limit", 0, "stop after `N` events (0: all)")
	format := formatFlag(fs)
	if err := parse(fs, args, 1, 1); err != nil {
		return err
	}
	if *limit < 0 {
		return usagef("--limit %d: want 0 or more", *limit)
	}
	src, err := ingest.OpenSource(fs.Arg(0), *format, ingest.OpenEnv{})
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
	index := fs.String("index", "", "read (or build) the index at `FILE` instead of the cache")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	format := formatFlag(fs)
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
	t, err := c.openTrace(fs.Arg(0), ingest.Options{IndexPath: *index, Format: *format})
	if err != nil {
		return err
	}
	defer t.Close()
	start, end := t.History().Bounds()
	req := ingest.QueryRequest{Globs: fs.Args()[1:], From: from.resolve(start, start), To: to.resolve(start, end), Samples: *samples}
	res, err := ingest.Query(context.Background(), t.History(), req)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(c.stdout, queryJSON(res))
	}
	w := bufio.NewWriter(c.stdout)
	for _, a := range res.Attributes {
		fmt.Fprintf(w, "%s\n", a.Path)
		for _, iv := range a.Intervals {
			fmt.Fprintf(w, "  [%s, %s] %s\n", core.FormatTimestamp(iv.Start), core.FormatTimestamp(iv.End), valueText(iv.Value))
		}
	}
	fmt.Fprintf(w, "# %d attributes, %d intervals, %d nodes read\n", len(res.Attributes), res.Stats.Intervals, res.Stats.NodesRead)
	return w.Flush()
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
	index := fs.String("index", "", "read (or build) the index at `FILE` instead of the cache")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	format := formatFlag(fs)
	if err := parse(fs, args[1:], 1, 1); err != nil {
		return err
	}
	t, err := c.openTrace(fs.Arg(0), ingest.Options{IndexPath: *index, Format: *format})
	if err != nil {
		return err
	}
	defer t.Close()
	res, err := ingest.PaperBench(context.Background(), t.History())
	if err != nil {
		return err
	}
	res.Layout = t.Info().Layout
	if *asJSON {
		return writeJSON(c.stdout, res)
	}
	fmt.Fprintf(c.stdout, "trace     %s (%d threads, %s layout)\n", t.Info().Trace, res.Threads, res.Layout)
	fmt.Fprintf(c.stdout, "pstree    %8.2f ms  %6d nodes read\n", res.PsTreeMS, res.PsTreeNodes)
	fmt.Fprintf(c.stdout, "zoom      %8.2f ms  %6d nodes read  %d frames\n", res.ZoomMS, res.ZoomNodes, res.ZoomFrames)
	return nil
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
	fmt.Fprintln(w, "  tracetui [--index FILE] [--ascii] [--format F] [TRACE]\n      open the browser (no TRACE: a built-in demo trace)")
	for _, cmd := range commands() {
		fmt.Fprintf(w, "  tracetui %s\n      %s\n", cmd.synopsis, cmd.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Times (T) are nanoseconds, a number with a unit (12.5ms, 3s), or +OFFSET from the trace start.")
	fmt.Fprintln(w, "Formats (F): ctf, chrome, paje, ftrace; detected from the content when not given.")
	fmt.Fprintln(w, "Exit status: 0 ok, 1 runtime error, 2 usage error.")
	return nil
}

// openTrace opens a trace with its index, building it when needed with a
// progress line on stderr; Ctrl-C cancels the build and leaves no index.
func (c *cli) openTrace(path string, opts ingest.Options) (*ingest.Trace, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	p := newProgressLine(c.stderr)
	opts.Progress = p.update
	opts.Waiting = func() { fmt.Fprintln(c.stderr, "tracetui: another tracetui is indexing this trace; waiting for it") }
	t, err := ingest.Open(ctx, path, opts)
	p.done()
	return t, err
}

// printInfo prints what an index holds, as text or JSON.
func (c *cli) printInfo(in ingest.IndexInfo, asJSON bool) error {
	if asJSON {
		return writeJSON(c.stdout, in.IndexSummary)
	}
	w := bufio.NewWriter(c.stdout)
	fmt.Fprintf(w, "trace        %s\n", in.Trace)
	fmt.Fprintf(w, "index        %s\n", in.Index)
	fmt.Fprintf(w, "format       %s, %d streams\n", in.Format, in.Streams)
	fmt.Fprintf(w, "events       %d (%d lost)\n", in.Events, in.LostEvents)
	fmt.Fprintf(w, "time         %s .. %s (%s)\n", core.FormatTimestamp(in.StartNS), core.FormatTimestamp(in.EndNS), core.FormatDuration(in.EndNS-in.StartNS))
	fmt.Fprintf(w, "attributes   %d\n", in.Attributes)
	fmt.Fprintf(w, "intervals    %d", in.Intervals)
	if in.Intervals > 0 {
		fmt.Fprintf(w, " (%.1f bytes each)", float64(in.IndexBytes)/float64(in.Intervals))
	}
	fmt.Fprintf(w, "\nindex bytes  %d\n", in.IndexBytes)
	fmt.Fprintf(w, "tree         %s, depth %d, %d nodes\n", in.Layout, in.Depth, in.Nodes)
	fmt.Fprintf(w, "build        %.0f ms\n", in.BuildMS)
	if n := len(in.Warnings); n > 0 {
		fmt.Fprintf(w, "warnings     %d (first: %s)\n", n, in.Warnings[0].Message)
	}
	return w.Flush()
}

// valueText prints a state value for `query`: strings quoted (so an empty
// name is visible), numbers as they are, null as null.
func valueText(v core.Value) string {
	if v.Kind() == core.KindString {
		return strconv.Quote(v.Str())
	}
	return v.String()
}

// queryJSON shapes a query result for --json.
func queryJSON(res ingest.QueryResult) any {
	type interval struct {
		Start core.Time `json:"start_ns"`
		End   core.Time `json:"end_ns"`
		Kind  string    `json:"kind"`
		Value any       `json:"value"`
	}
	type attribute struct {
		Path      string     `json:"path"`
		Key       core.Key   `json:"key"`
		Intervals []interval `json:"intervals"`
	}
	out := struct {
		Attributes []attribute `json:"attributes"`
		NodesRead  int         `json:"nodes_read"`
	}{Attributes: []attribute{}, NodesRead: res.Stats.NodesRead}
	for _, a := range res.Attributes {
		at := attribute{Path: a.Path, Key: a.Key, Intervals: []interval{}}
		for _, iv := range a.Intervals {
			var v any
			switch iv.Value.Kind() {
			case core.KindInt32, core.KindInt64:
				v = iv.Value.Int()
			case core.KindFloat64:
				v = iv.Value.Float()
			case core.KindString:
				v = iv.Value.Str()
			}
			at.Intervals = append(at.Intervals, interval{iv.Start, iv.End, iv.Value.Kind().String(), v})
		}
		out.Attributes = append(out.Attributes, at)
	}
	return out
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// progressLine prints the build's progress on one terminal line, at most
// ten times a second, and only when stderr is a terminal.
type progressLine struct {
	w     io.Writer
	tty   bool
	last  time.Time
	shown bool
}

func newProgressLine(w io.Writer) *progressLine {
	f, ok := w.(*os.File)
	tty := false
	if ok {
		st, err := f.Stat()
		tty = err == nil && st.Mode()&os.ModeCharDevice != 0
	}
	return &progressLine{w: w, tty: tty}
}

func (p *progressLine) update(done, total int64) {
	if !p.tty || time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last, p.shown = time.Now(), true
	pct := 100.0
	if total > 0 {
		pct = 100 * float64(done) / float64(total)
	}
	fmt.Fprintf(p.w, "\rindexing: %5.1f%% of %d MB", pct, total>>20)
}

func (p *progressLine) done() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
