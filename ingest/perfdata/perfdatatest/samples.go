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
	// State is a sched_switch's prev_state as the kernel's letters
	// ("S", "R+"...; "" for other events).
	State string
	// Task is the thread a sched_waking, sched_wakeup, sched_wakeup_new
	// or sched_stat_runtime is about (its pid field), or the new thread
	// of a sched_process_fork (child_pid) or a FORK record (perf_fork's
	// tid); 0 for other events. The scheduling tests follow a task
	// through them.
	Task int64
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
		switch ev.Class.Name {
		case "sched_switch":
			smp.Prev, _ = ev.Field(ev.Class.FieldIndex("prev_pid")).AsInt()
			smp.Next, _ = ev.Field(ev.Class.FieldIndex("next_pid")).AsInt()
			smp.State = string(ev.Field(ev.Class.FieldIndex("prev_state")).Bytes)
		case "sched_waking", "sched_wakeup", "sched_wakeup_new", "sched_stat_runtime":
			smp.Task, _ = ev.Field(ev.Class.FieldIndex("pid")).AsInt()
		case "sched_process_fork":
			smp.Task, _ = ev.Field(ev.Class.FieldIndex("child_pid")).AsInt()
		case "perf_fork":
			smp.Task, _ = ev.Field(ev.Class.FieldIndex("tid")).AsInt()
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
