package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/query/diff"
	"github.com/tracetui/tracetui/ingest/trace"
)

// runDiff compares two traces, or two ranges of one, from their indexes
// (package ingest/query/diff).
func runDiff(e *Env, args []string) error {
	cmd := lookup("diff")
	fs := e.NewFlags(cmd.Name, cmd.Synopsis)
	asJSON := fs.Bool("json", false, "print the result as JSON")
	format, arch := FormatFlag(fs), ArchFlag(fs)
	baseFrom, baseTo, newFrom, newTo := new(timeFlag), new(timeFlag), new(timeFlag), new(timeFlag)
	fs.Var(baseFrom, "base-from", "start `T` of BASE's range (default: its start)")
	fs.Var(baseTo, "base-to", "end `T` of BASE's range (default: its end)")
	fs.Var(newFrom, "new-from", "start `T` of NEW's range (default: its start)")
	fs.Var(newTo, "new-to", "end `T` of NEW's range (default: its end)")
	top := fs.Int("top", diff.DefaultTop, "list the `N` largest changes of each table")
	baseTIDs, newTIDs := new(tidsFlag), new(tidsFlag)
	fs.Var(baseTIDs, "base-tids", "compare BASE's threads `TID,...` only (with --new-tids: thread against thread)")
	fs.Var(newTIDs, "new-tids", "compare NEW's threads `TID,...` only (with --base-tids)")
	calls := fs.Bool("calltree", false, "compare the call trees too (self time per call path; self samples for perf.data profiles)")
	if err := Parse(fs, args, 2, 2); err != nil {
		return err
	}
	if *top < 1 || *top > diff.MaxTop {
		return Usagef("--top %d: want 1 to %d", *top, diff.MaxTop)
	}
	if (baseTIDs.tids == nil) != (newTIDs.tids == nil) {
		return Usagef("--base-tids and --new-tids go together: the threads of one side are compared with the other's")
	}
	ctx := e.Context()
	opts := index.Options{Format: *format, Arch: *arch} // each trace's index in the cache
	var traces [2]*trace.Trace
	for i, path := range []string{fs.Arg(0), fs.Arg(1)} {
		if i == 1 && filepath.Clean(path) == filepath.Clean(fs.Arg(0)) {
			traces[1] = traces[0] // two ranges of one trace
			break
		}
		t, err := e.openTrace(path, opts)
		if err != nil {
			return err
		}
		defer t.Close()
		traces[i] = t
	}
	if e.gc != nil {
		e.gc.use(&queryGC) // the indexes are built: reading them is all garbage
	}
	side := func(t *trace.Trace, name string, from, to *timeFlag, tids *tidsFlag) (diff.Side, error) {
		h := t.History()
		start, end := h.Bounds()
		f, l, err := resolveRange(from, to, start, end, end+1)
		if err != nil {
			return diff.Side{}, fmt.Errorf("%s: %w", name, err)
		}
		s := diff.Side{Name: name, History: h, From: f, To: l, Threads: tids.tids}
		if *calls {
			label, _, err := t.FrameLabels(ctx, "")
			if err != nil {
				return s, err
			}
			s.Label = label
			s.Profile = func(ctx context.Context) (diff.Profile, error) { // perf.data: samples
				p, err := t.Profile(ctx)
				if err != nil {
					return nil, err
				}
				return p, nil
			}
		}
		if tids.tids != nil {
			s.Name += " threads " + tids.String()
		}
		if from.set || to.set {
			s.Name += " [" + core.FormatTimestamp(s.From) + ", " + core.FormatTimestamp(s.To) + ")"
		}
		return s, nil
	}
	base, err := side(traces[0], fs.Arg(0), baseFrom, baseTo, baseTIDs)
	if err != nil {
		return err
	}
	next, err := side(traces[1], fs.Arg(1), newFrom, newTo, newTIDs)
	if err != nil {
		return err
	}
	res, err := diff.Compute(ctx, base, next, diff.Options{Top: *top, CallTree: *calls})
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.Stdout, res)
	}
	return res.WriteText(e.Stdout)
}

// tidsFlag is a comma-separated list of thread IDs.
type tidsFlag struct{ tids []int32 }

func (f *tidsFlag) String() string {
	parts := make([]string, len(f.tids))
	for i, t := range f.tids {
		parts[i] = strconv.Itoa(int(t))
	}
	return strings.Join(parts, ",")
}

func (f *tidsFlag) Set(s string) error {
	f.tids = []int32{}
	for _, p := range strings.Split(s, ",") {
		tid, err := strconv.ParseInt(strings.TrimSpace(p), 10, 32)
		if err != nil || tid < 0 {
			return fmt.Errorf("%q: want thread IDs separated by commas (tracetui stats lists them)", s)
		}
		f.tids = append(f.tids, int32(tid))
	}
	return nil
}
