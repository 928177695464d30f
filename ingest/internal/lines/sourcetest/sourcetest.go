// Package sourcetest has the test helpers the chrome, paje and ftrace
// readers share: printing a source for golden files, running a state
// analysis into the reference history, checking states, the checkpoint
// property and the body of the fuzz targets.
package sourcetest

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// Analysis is the method set of ingest.Analysis plus the warnings the
// format analyses report.
type Analysis interface {
	Handle(*core.Event) error
	Finish(core.Time) error
	Warnings() []core.Warning
}

// Dump prints every event of src, then its warnings: per event the time,
// CPU, class and contents, then each present field as name=kind:value
// (s string, i integer, f float).
func Dump(t testing.TB, src core.Source) string {
	t.Helper()
	var out []byte
	for {
		ev, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		out = fmt.Appendf(out, "[%s] cpu %d %s: ", core.FormatTimestamp(ev.Time), ev.CPU, ev.Class.Name)
		out = src.AppendContents(out, ev)
		out = append(out, "\n   "...)
		for i, f := range ev.Fields {
			if f.Kind == core.FieldNone {
				continue
			}
			out = fmt.Appendf(out, " %s=%c:", ev.Class.Fields[i], "?iufse"[f.Kind])
			out = f.AppendText(out)
		}
		out = append(out, '\n')
	}
	for _, w := range src.Warnings() {
		out = fmt.Appendf(out, "warning %s (count %d): %s\n", w.Kind, w.Count, w.Message)
	}
	return string(out)
}

// Golden compares got with the golden file, or rewrites the file when the
// test runs with -update.
func Golden(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// Analyze runs the analysis made by newAnalysis over src (from its
// current position) into a MemHistory spanning src's time range, closes
// it, and checks that the sink refused no change and that every
// attribute's intervals tile the range.
func Analyze(t testing.TB, src core.Source, newAnalysis func(core.StateSink) Analysis) *core.MemHistory {
	t.Helper()
	info := src.Info()
	h := core.NewMemHistory(info.Start)
	a := newAnalysis(h)
	for {
		ev, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Handle(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Finish(info.End); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(info.End); err != nil {
		t.Fatal(err)
	}
	for _, w := range a.Warnings() {
		if w.Kind == "state" {
			t.Errorf("sink refused a change: %s", w.Message)
		}
	}
	coretest.CheckTiling(t, h.Intervals(), h.Attributes().Len(), info.Start, info.End)
	return h
}

// StateAt is an expected value of an attribute at a time.
type StateAt struct {
	Path string
	T    core.Time
	V    core.Value
}

// CheckStates checks each expected value against the history.
func CheckStates(t testing.TB, h core.History, want []StateAt) {
	t.Helper()
	for _, w := range want {
		k, ok := h.Attributes().Lookup(w.Path)
		if !ok {
			t.Errorf("%s: no such attribute", w.Path)
			continue
		}
		iv, _, err := h.Single(context.Background(), k, w.T)
		if err != nil || iv.Value != w.V {
			t.Errorf("%s at %d = %v (%v, %v), want %v", w.Path, w.T, iv.Value, iv, err, w.V)
		}
	}
}

// line identifies an event for comparisons: time, class, contents.
func line(src core.Source, ev *core.Event) string {
	return core.FormatTimestamp(ev.Time) + " " + ev.Class.Name + " " + string(src.AppendContents(nil, ev))
}

// SeekProperty reads a source to the end taking checkpoints at random
// events, then seeks a second source of the same trace to each (in random
// order) and checks that up to limit events after it are the same.
func SeekProperty(t testing.TB, rng *rand.Rand, open func() (core.Source, error), limit int) {
	t.Helper()
	SeekPropertyOther(t, rng, open, open, limit)
}

// SeekPropertyOther is SeekProperty with the second source opened by
// other (a reader opened for seeking only, such as one that skips its
// first pass).
func SeekPropertyOther(t testing.TB, rng *rand.Rand, open, other func() (core.Source, error), limit int) {
	t.Helper()
	src, err := open()
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var all []string
	var cps [][]byte
	var at []int
	for {
		if rng.IntN(3) == 0 {
			cps, at = append(cps, src.Checkpoint(nil)), append(at, len(all))
		}
		ev, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, line(src, ev))
	}
	seeker, err := other()
	if err != nil {
		t.Fatal(err)
	}
	defer seeker.Close()
	for _, k := range rng.Perm(len(cps)) {
		if err := seeker.Seek(cps[k]); err != nil {
			t.Fatalf("Seek: %v", err)
		}
		end := min(len(all), at[k]+limit)
		for j := at[k]; j < end; j++ {
			ev, err := seeker.Next()
			if err != nil {
				t.Fatalf("after Seek to event %d: event %d: %v", at[k], j, err)
			}
			if got := line(seeker, ev); got != all[j] {
				t.Fatalf("after Seek to event %d: event %d = %s, want %s", at[k], j, got, all[j])
			}
		}
		if end == len(all) {
			if _, err := seeker.Next(); err != io.EOF {
				t.Fatalf("after Seek to event %d: past the last event: %v", at[k], err)
			}
		}
	}
}

// Fuzz is the body of the readers' fuzz targets, run on a source opened
// from fuzzed bytes: at most max events are read, time never goes back,
// every event has one field per class field name, contents print, the
// analysis (if any) never makes a change the sink refuses, and Seek to a
// checkpoint taken after the third event replays the next events.
func Fuzz(t *testing.T, src core.Source, newAnalysis func(core.StateSink) Analysis, max int) {
	countExec()
	info := src.Info()
	var a Analysis
	if newAnalysis != nil {
		a = newAnalysis(core.NewMemHistory(info.Start))
	}
	var cp []byte
	var after []string
	last := core.MinTime
	for n := 0; n < max; n++ {
		if n == 3 {
			cp = src.Checkpoint(nil)
		}
		ev, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		if ev.Time < last {
			t.Fatalf("time goes back: %d after %d", ev.Time, last)
		}
		last = ev.Time
		if len(ev.Fields) != len(ev.Class.Fields) {
			t.Fatalf("%d fields for %d names", len(ev.Fields), len(ev.Class.Fields))
		}
		if l := line(src, ev); n >= 3 && len(after) < 5 {
			after = append(after, l)
		}
		if a != nil {
			if err := a.Handle(ev); err != nil {
				t.Fatalf("Handle: %v", err)
			}
		}
	}
	if a != nil {
		a.Finish(info.End)
		for _, w := range a.Warnings() {
			if w.Kind == "state" {
				t.Fatalf("sink refused a change: %s", w.Message)
			}
		}
	}
	if cp == nil {
		return
	}
	if err := src.Seek(cp); err != nil {
		t.Fatalf("Seek: %v", err)
	}
	for i, want := range after {
		ev, err := src.Next()
		if err != nil {
			t.Fatalf("after Seek: %v", err)
		}
		if got := line(src, ev); got != want {
			t.Fatalf("after Seek, event %d = %s, want %s", i, got, want)
		}
	}
}

// CountEnv names a file to which each fuzz execution that opened a
// source appends one byte, so long fuzzing runs can report how many
// inputs went through the whole reader (go test's own count lags).
const CountEnv = "TRACETUI_FUZZ_COUNT"

func countExec() {
	if p := os.Getenv(CountEnv); p != "" {
		if f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			f.Write([]byte{'.'})
			f.Close()
		}
	}
}

// At is shorthand for a StateAt.
func At(path string, t core.Time, v core.Value) StateAt { return StateAt{Path: path, T: t, V: v} }

// File writes data to a file called name in a fresh temporary directory
// of t and returns its path: the readers' fuzz targets open their input
// from there, as a user's trace.
func File(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
