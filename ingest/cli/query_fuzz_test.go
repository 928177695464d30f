package cli

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/trace"
)

// FuzzQueryPath fuzzes what a user types into `query`: the attribute glob,
// --from, --to and --samples, through the command's own flag parsing,
// range resolution and query, on a small history of three threads over
// [fuzzStart, fuzzEnd]. A typed value is refused with an error or
// answered with a range inside the trace and intervals that meet it;
// never a panic, a hang, or an allocation from an unchecked count.
func FuzzQueryPath(f *testing.F) {
	h := fuzzHistory(f)
	for _, seed := range []struct {
		glob, from, to string
		samples        int
	}{
		{"Threads/*", "", "", 0},
		{"Threads/101", "+20ns", "+50ns", 4},
		{"Threads/*/Exec_name", "1.000001", "1000ns", 0},
		{"Threads/[", "", "", 0},
		{"*", "+9223372036854775807", "", 0},
		{"Threads/1*", "1200", "1100", 1},
		{"Threads/100", "", "+1us", 100000},
	} {
		f.Add(seed.glob, seed.from, seed.to, seed.samples)
	}
	f.Fuzz(func(t *testing.T, glob, from, to string, samples int) {
		var fromFlag, toFlag timeFlag
		if from != "" && fromFlag.Set(from) != nil {
			return // refused while parsing the flags
		}
		if to != "" && toFlag.Set(to) != nil {
			return
		}
		if checkSamples(samples) != nil {
			return // refused with a usage error
		}
		start, end := h.Bounds()
		lo, hi, err := resolveRange(&fromFlag, &toFlag, start, end, end)
		if err != nil {
			var u usageError
			if !errors.As(err, &u) {
				t.Fatalf("range %q..%q: %v, want a usage error", from, to, err)
			}
			return
		}
		if lo < start || hi > end+1 || hi <= lo {
			t.Fatalf("range %q..%q resolved to [%d, %d) outside the trace [%d, %d]", from, to, lo, hi, start, end)
		}
		res, err := trace.Query(context.Background(), h, trace.QueryRequest{Globs: []string{glob}, From: lo, To: hi, Samples: samples})
		if err != nil {
			return // a malformed glob or one matching nothing, said so
		}
		for _, a := range res.Attributes {
			if samples > 0 && len(a.Intervals) > samples {
				t.Fatalf("%s: %d intervals from %d samples", a.Path, len(a.Intervals), samples)
			}
			for i, iv := range a.Intervals {
				if iv.End < lo || iv.Start > hi {
					t.Fatalf("%s: interval [%d, %d] misses the range [%d, %d]", a.Path, iv.Start, iv.End, lo, hi)
				}
				if i > 0 && iv.Start <= a.Intervals[i-1].End {
					t.Fatalf("%s: intervals %v out of order", a.Path, a.Intervals)
				}
			}
		}
	})
}

const fuzzStart, fuzzEnd = core.Time(1000), core.Time(2000)

// fuzzHistory returns three threads over [fuzzStart, fuzzEnd], each with a
// status changing every 10 ns and an exec name set once.
func fuzzHistory(tb testing.TB) *core.MemHistory {
	h := core.NewMemHistory(fuzzStart)
	tree := h.Attributes()
	var status [3]core.Key
	for i := range status {
		id := fmt.Sprint(100 + i)
		status[i] = tree.AddPath("Threads", id)
		if err := h.Modify(tree.AddPath("Threads", id, "Exec_name"), fuzzStart, core.String("t"+id)); err != nil {
			tb.Fatal(err)
		}
	}
	for ts := fuzzStart; ts < fuzzEnd; ts += 10 { // changes in time order, as a history takes them
		for i, k := range status {
			if err := h.Modify(k, ts, core.Int32(int32((int(ts/10)+i)%3))); err != nil {
				tb.Fatal(err)
			}
		}
	}
	if err := h.Close(fuzzEnd); err != nil {
		tb.Fatal(err)
	}
	return h
}
