package cli

import (
	"bufio"
	"context"
	"fmt"
	"path"
	"strconv"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/trace"
)

// maxSamples bounds --samples: each sample can yield one interval per
// attribute matched, all held in memory (issue 18: 1e8 took 1.6 GB).
const maxSamples = 100_000

// runQuery prints the states of attributes over a time range.
func runQuery(e *Env, args []string) error {
	cmd := lookup("query")
	fs := e.NewFlags(cmd.Name, cmd.Synopsis)
	fl := addIndexFlags(fs, "read (or build) the index at `FILE` instead of the cache")
	from, to := addRangeFlags(fs)
	samples := fs.Int("samples", 0, "query `N` evenly spaced timestamps instead of the whole range")
	if err := Parse(fs, args, 2, -1); err != nil {
		return err
	}
	if err := checkSamples(*samples); err != nil {
		return err
	}
	t, err := fl.open(e, fs)
	if err != nil {
		return err
	}
	defer t.Close()
	start, end := t.History().Bounds()
	f, l, err := resolveRange(from, to, start, end, end)
	if err != nil && !(from.set || to.set) {
		err = nil // a one-instant trace: [start, start] is its whole range
	}
	if err != nil {
		return err
	}
	req := trace.QueryRequest{Globs: fs.Args()[1:], From: f, To: l, Samples: *samples}
	res, err := t.Query(context.Background(), req)
	if err != nil {
		return err
	}
	if *fl.asJSON {
		return writeJSON(e.Stdout, queryJSON(res))
	}
	w := bufio.NewWriter(e.Stdout)
	for _, a := range res.Attributes {
		fmt.Fprintf(w, "%s\n", a.Path)
		frames := path.Base(path.Dir(a.Path)) == core.AttrCallStack
		for _, iv := range a.Intervals {
			fmt.Fprintf(w, "  [%s, %s] %s\n", core.FormatTimestamp(iv.Start), core.FormatTimestamp(iv.End), valueText(iv.Value, frames))
		}
	}
	fmt.Fprintf(w, "# %d attributes, %d intervals, %d nodes read\n", len(res.Attributes), res.Stats.Intervals, res.Stats.NodesRead)
	return w.Flush()
}

// checkSamples refuses a --samples count outside [0, maxSamples].
func checkSamples(n int) error {
	if n < 0 || n > maxSamples {
		return Usagef("--samples %d: want 0 to %d (a screen is a few hundred columns)", n, maxSamples)
	}
	return nil
}

// valueText prints a state value for `query`: strings quoted (so an empty
// name is visible), numbers as they are, null as null; the addresses of
// call-stack frames (frames) as the browser prints them.
func valueText(v core.Value, frames bool) string {
	switch {
	case v.Kind() == core.KindString:
		return strconv.Quote(v.Str())
	case frames && !v.IsNull():
		return core.FrameText(v)
	}
	return v.String()
}

// queryJSON shapes a query result for --json.
func queryJSON(res trace.QueryResult) any {
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
