package cli

import (
	"context"
	"fmt"
	"path/filepath"

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
	calls := fs.Bool("calltree", false, "compare the call trees too (self time per call path; self samples for perf.data profiles)")
	if err := Parse(fs, args, 2, 2); err != nil {
		return err
	}
	if *top < 1 || *top > diff.MaxTop {
		return Usagef("--top %d: want 1 to %d", *top, diff.MaxTop)
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
	side := func(t *trace.Trace, name string, from, to *timeFlag) (diff.Side, error) {
		h := t.History()
		start, end := h.Bounds()
		f, l, err := resolveRange(from, to, start, end, end+1)
		if err != nil {
			return diff.Side{}, fmt.Errorf("%s: %w", name, err)
		}
		s := diff.Side{Name: name, History: h, From: f, To: l}
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
		if from.set || to.set {
			s.Name += " [" + core.FormatTimestamp(s.From) + ", " + core.FormatTimestamp(s.To) + ")"
		}
		return s, nil
	}
	base, err := side(traces[0], fs.Arg(0), baseFrom, baseTo)
	if err != nil {
		return err
	}
	next, err := side(traces[1], fs.Arg(1), newFrom, newTo)
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
