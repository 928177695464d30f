// Command tracetui is a terminal trace browser: it opens LTTng/CTF, Chrome
// JSON, Pajé and ftrace traces, indexes their states into an on-disk R-SHT,
// and lets you triage them with the keyboard over SSH.
//
// Run `tracetui help` for the subcommands, which live in package
// ingest/cli; this file dispatches to them and runs the browser, the only
// part that needs the terminal UI. Exit status: 0 success, 1 runtime
// error, 2 usage error, 130 cancelled. Errors go to stderr as "tracetui: <what>: <why>".
package main

import (
	"context"
	"os"
	"path/filepath"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/cli"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/trace"
	"github.com/tracetui/tracetui/tui"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr, runBrowse, benchFrames))
}

// runBrowse opens the browser on a trace (no trace: the demo trace), or
// on two: BASE in the Gantt, compared with NEW (issue 34).
func runBrowse(e *cli.Env, args []string) error {
	fs := e.NewFlags("tracetui", "[--index FILE] [--ascii] [--format F] [--arch A] [--symbols FILE] [--focus TID] [TRACE | BASE NEW]")
	indexFile := fs.String("index", "", "use (or build) the index at `FILE` instead of the cache")
	ascii := fs.Bool("ascii", false, "tell states apart by characters only (as with NO_COLOR)")
	format := cli.FormatFlag(fs)
	arch := cli.ArchFlag(fs)
	symbols := fs.String("symbols", "", "name call-stack addresses from the nm listing `FILE`")
	focus := fs.Int("focus", 0, "select the Control Flow row of thread or process `TID` at open, first on screen")
	if err := cli.Parse(fs, args, 0, 2); err != nil {
		return err
	}
	if fs.NArg() == 2 && *indexFile != "" {
		return cli.Usagef("--index names one index: with BASE and NEW, leave it out (both use the cache)")
	}
	path := fs.Arg(0)
	if path == "" {
		demo, err := index.DemoTrace()
		if err != nil {
			return err
		}
		path = demo
	}
	opts := index.Options{IndexPath: *indexFile, Format: *format, Arch: *arch, Reclaim: cli.Reclaim}
	_, ready, err := index.Locate(path, opts)
	if err != nil {
		return err
	}
	ctx := e.Context()
	open := func(path string, opts index.Options) func(context.Context, func(done, total int64)) (tui.Trace, error) {
		return func(ctx context.Context, progress func(done, total int64)) (tui.Trace, error) {
			o := opts
			o.Progress = progress
			t, err := trace.Open(ctx, path, o)
			if err != nil {
				return nil, err
			}
			label, _, err := t.FrameLabels(ctx, *symbols) // binaries absent here: addresses stay hex
			if err != nil {
				t.Close()
				return nil, err
			}
			e.Browsing()
			return browserTrace{t, label}, nil
		}
	}
	opener := tui.Opener{Name: filepath.Base(filepath.Clean(path)), Indexed: ready, Open: open(path, opts)}
	newOpts := opts
	newOpts.IndexPath = "" // --index is BASE's: another trace's index goes to the cache
	opener.OpenPath = func(ctx context.Context, path string, progress func(done, total int64)) (tui.Trace, error) {
		return open(path, newOpts)(ctx, progress)
	}
	if fs.NArg() == 2 {
		next := fs.Arg(1)
		_, nextReady, err := index.Locate(next, opts)
		if err != nil {
			return err
		}
		opener.Name += " and " + filepath.Base(filepath.Clean(next))
		opener.Indexed = ready && nextReady
		opener.OpenNew = open(next, opts)
	}
	return tui.Run(ctx, opener, tui.Options{ASCII: *ascii, FocusTID: *focus}) // cancelled indexing: exit 130
}

// benchFrames replays the browser's navigation script on t (`tracetui
// bench frames`).
func benchFrames(ctx context.Context, t *trace.Trace) ([]cli.FrameStep, error) {
	label, _, err := t.FrameLabels(ctx, "")
	if err != nil {
		t.Close()
		return nil, err
	}
	steps, err := tui.BenchFrames(ctx, browserTrace{t, label}, tui.BenchOptions{})
	out := make([]cli.FrameStep, len(steps))
	for i, s := range steps {
		out[i] = cli.FrameStep(s)
	}
	return out, err
}

// browserTrace shows an opened trace to the browser, with the names of
// its call-stack frames.
type browserTrace struct {
	*trace.Trace
	label core.FrameLabeler
}

// FrameLabel names a call-stack frame of a thread (the browser's call tree).
func (b browserTrace) FrameLabel(thread core.Key, v core.Value) string { return b.label(thread, v) }

func (b browserTrace) Name() string { return filepath.Base(b.Trace.Info().Trace) }

func (b browserTrace) Info() tui.TraceInfo {
	in := b.Trace.Info()
	return tui.TraceInfo{Format: in.Format, Start: in.StartNS, End: in.EndNS, Events: in.Events,
		Intervals: in.Intervals, Discarded: in.LostEvents, Warnings: in.Warnings, Index: in.Index, Streams: in.Streams}
}

func (b browserTrace) Events() tui.EventTable { return b.Trace.Events() }
