package frametest

import (
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/trace"
	"github.com/tracetui/tracetui/tui/frame"
)

// IngestTrace shows a trace.Trace to the browser (main.go has the same
// adapter for the real program).
type IngestTrace struct{ *trace.Trace }

func (t IngestTrace) Name() string { return filepath.Base(t.Trace.Info().Trace) }

func (t IngestTrace) Info() frame.TraceInfo {
	in := t.Trace.Info()
	return frame.TraceInfo{Format: in.Format, Start: in.StartNS, End: in.EndNS, Events: in.Events, Intervals: in.Intervals, Discarded: in.LostEvents, Streams: in.Streams}
}

func (t IngestTrace) Events() frame.EventTable { return t.Trace.Events() }

// Close leaves the trace open: the tests and benchmarks share one across
// browsers and close it themselves.
func (t IngestTrace) Close() error { return nil }

// CygHistory is a user-space trace as the call stack analysis indexes
// cyg-profile: thread 42 of process 40 runs main (0x401136), which calls
// draw (0x4011a0) twice, then 0x4f0000 (no symbol).
func CygHistory(t *testing.T) *core.MemHistory {
	m := core.NewMemHistory(0)
	at := m.Attributes()
	set := Modifier(t, m)
	th := at.AddPath(core.AttrThreads, "42")
	set(at.AddPath(core.AttrThreads, "42", core.AttrPID), 0, core.Int32(40))
	set(at.AddPath(core.AttrThreads, "42", core.AttrExecName), 0, core.String("glxgears"))
	set(th, 0, core.String(core.FormatAddress(0x401136)))
	set(at.AddPath(core.AttrThreads, "42", core.AttrCallStack, "1"), 0, core.Int64(0x401136))
	d2 := at.AddPath(core.AttrThreads, "42", core.AttrCallStack, "2")
	for _, tm := range []core.Time{100, 400} {
		set(d2, tm, core.Int64(0x4011a0))
		set(d2, tm+200, core.Null())
	}
	set(d2, 700, core.Int64(0x4f0000))
	set(d2, 900, core.Null())
	if err := m.Close(1000); err != nil {
		t.Fatal(err)
	}
	return m
}

// Modifier returns a function setting states of m, failing the test on
// an error.
func Modifier(t *testing.T, m *core.MemHistory) func(k core.Key, tm core.Time, v core.Value) {
	return func(k core.Key, tm core.Time, v core.Value) {
		t.Helper()
		if err := m.Modify(k, tm, v); err != nil {
			t.Fatal(err)
		}
	}
}

// SymbolTrace is a memTrace that names frames as a symbol table would
// (what main.go's adapter does with the trace's resolver), counting the
// look-ups.
type SymbolTrace struct {
	*MemTrace
	Lookups atomic.Int64
}

func (s *SymbolTrace) FrameLabel(_ core.Key, v core.Value) string {
	s.Lookups.Add(1)
	switch {
	case v.Kind() != core.KindInt64:
		return v.String()
	case v.Int() == 0x401136:
		return "main"
	case v.Int() == 0x4011a0:
		return "draw"
	}
	return core.FrameText(v)
}

// TidRow returns the row of thread Threads/<tid>, failing without one.
func TidRow(tb testing.TB, tree *frame.RowTree, tid string) int32 {
	tb.Helper()
	n, ok := tree.ByTID(tid)
	if !ok {
		tb.Fatalf("no row of thread %q", tid)
	}
	return n
}
