// Package pstree is the process tree of a trace: each thread's name and
// process, as the browser's Control Flow view arranges its rows. It is
// computed once, either by one 2D query of the whole history (the R-SHT
// article's PsTree query, [Query]) or while the index is built, from the
// state changes the analyses write ([Recorder]). The index stores the
// latter arranged as the browser's rows ([ControlFlow], read back on
// demand by [OpenRows]) so that opening a trace needs no query and reads
// only the rows on screen.
//
// The rule, the same both ways: a thread's name is its latest non-null
// Threads/<tid>/Exec_name (the name it ends with, as after an exec); its
// process is its latest non-null PID; a process's name is its latest
// non-null Processes/<pid>/Exec_name. "Latest" is the interval that ends
// last in the history.
//
// Imports: core only.
package pstree

import (
	"context"
	"fmt"
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// Thread is what the process tree knows of one thread.
type Thread struct {
	Key    core.Key // Threads/<tid>
	Name   string   // latest non-null Exec_name ("" when none)
	PID    int64    // latest non-null PID, when HasPID
	HasPID bool
}

// Table is the process tree of a trace.
type Table struct {
	// Threads has one entry per child of Threads, in the attribute
	// tree's order.
	Threads []Thread
	// Processes maps a PID to its latest non-null Processes/<pid>/
	// Exec_name.
	Processes map[int64]string
}

// threadKeys returns the children of Threads.
func threadKeys(at *core.AttributeTree) []core.Key {
	if threads, ok := at.Lookup(core.AttrThreads); ok {
		return at.Children(threads)
	}
	return nil
}

// Query reads the process tree of h with one 2D query of every thread's
// Exec_name and PID and every process's Exec_name over the whole trace.
func Query(ctx context.Context, h core.History) (*Table, error) {
	at := h.Attributes()
	tids := threadKeys(at)
	// One map from key to slot, and the latest interval's end in the
	// slot: one lookup per interval. Three maps (field, latest end,
	// process) made map lookups a quarter of the CPU at 200 k threads.
	type field struct {
		thread int32 // index in tids; -1 for a process's Exec_name
		pid    bool  // the field is a thread's PID (else an Exec_name)
		proc   int64 // the process's PID, for thread -1
		latest core.Time
		seen   bool
	}
	keys := make([]core.Key, 0, 2*len(tids))
	fields := make([]field, 0, 2*len(tids))
	slotOf := make(map[core.Key]int32, 2*len(tids))
	addField := func(k core.Key, f field) {
		keys = append(keys, k)
		slotOf[k] = int32(len(fields))
		fields = append(fields, f)
	}
	t := &Table{Threads: make([]Thread, len(tids)), Processes: map[int64]string{}}
	for i, k := range tids {
		t.Threads[i].Key = k
		if n, ok := at.Child(k, core.AttrExecName); ok {
			addField(n, field{thread: int32(i)})
		}
		if n, ok := at.Child(k, core.AttrPID); ok {
			addField(n, field{thread: int32(i), pid: true})
		}
	}
	if procs, ok := at.Lookup(core.AttrProcesses); ok {
		for _, p := range at.Children(procs) {
			pid, err := strconv.ParseInt(at.Name(p), 10, 64)
			if k, ok := at.Child(p, core.AttrExecName); ok && err == nil {
				addField(k, field{thread: -1, proc: pid})
			}
		}
	}
	start, end := h.Bounds()
	_, err := h.Query2D(ctx, keys, start, end, func(iv core.Interval) bool {
		if iv.Value.IsNull() {
			return true
		}
		slot, ok := slotOf[iv.Key]
		if !ok {
			return true
		}
		f := &fields[slot]
		if f.seen && f.latest >= iv.End {
			return true
		}
		f.latest, f.seen = iv.End, true
		switch {
		case f.thread < 0:
			t.Processes[f.proc] = iv.Value.Str()
		case f.pid:
			t.Threads[f.thread].PID, t.Threads[f.thread].HasPID = iv.Value.Int(), true
		default:
			t.Threads[f.thread].Name = iv.Value.String()
		}
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("reading the process tree: %w", err)
	}
	return t, nil
}
