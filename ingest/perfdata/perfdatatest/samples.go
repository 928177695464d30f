// Package perfdatatest reads perf.data files straight from the reader for
// tests that check a profile against a brute-force count of its samples.
//
// It may import core, ingest/perfdata and the standard library.
package perfdatatest

import (
	"io"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/perfdata"
)

// Sample is one event of a perf.data file as the reader gives it.
type Sample struct {
	Time  core.Time
	Class string // the event's name ("cpu-clock", "sched:sched_switch"...)
	TID   int64  // -1 when the event names no thread
	CPU   int32
	Stack []string // its call stack's names, leaf first (nil: none)
	// Prev and Next are a sched_switch's prev_pid and next_pid (0
	// for other events).
	Prev, Next int64
}

// Samples reads every event of the perf.data file at path, failing tb on
// an error.
func Samples(tb testing.TB, path string) []Sample {
	tb.Helper()
	src, err := perfdata.Open(path, perfdata.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer src.Close()
	var out []Sample
	for {
		ev, err := src.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			tb.Fatal(err)
		}
		tid, ok := ev.Field(ev.Class.FieldIndex(core.FieldTID)).AsInt()
		if !ok {
			tid = -1
		}
		smp := Sample{Time: ev.Time, Class: ev.Class.Name, TID: tid, CPU: ev.CPU, Stack: src.AppendStack(nil)}
		if ev.Class.Name == "sched_switch" {
			smp.Prev, _ = ev.Field(ev.Class.FieldIndex("prev_pid")).AsInt()
			smp.Next, _ = ev.Field(ev.Class.FieldIndex("next_pid")).AsInt()
		}
		out = append(out, smp)
	}
}

// Stacks is Samples, only the events that carry a call stack.
func Stacks(tb testing.TB, path string) []Sample {
	tb.Helper()
	all := Samples(tb, path)
	out := all[:0]
	for _, s := range all {
		if len(s.Stack) > 0 {
			out = append(out, s)
		}
	}
	return out
}
