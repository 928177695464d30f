package pstree

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
)

// ControlFlow arranges the process tree t of the attribute tree at into
// the browser's Control Flow rows ([Arrange]). Threads with a
// PID other than their own tid sit under the process row (the leader
// thread, or a row of the process name alone when the trace has no leader
// thread); threads without PID are at the top level. Under a thread:
// its samples row ("samples": Threads/<tid>/Samples, a thread with one
// is expanded), call stack depths (collapsed, by depth), then tracks;
// siblings by id.
func ControlFlow(at *core.AttributeTree, t *Table) *Encoded {
	a := arranger{at: at, procRow: map[int64]int32{}, procNames: t.Processes}
	info := t.Threads
	// A row per thread and a few more.
	a.rows = make([]Row, 0, len(info)+len(info)/8+len(t.Processes))
	threadRow := make([]int32, len(info))
	// Leaders first, so threads can find their process row.
	for i, th := range info {
		threadRow[i] = -1
		tid := at.Name(th.Key)
		n, err := strconv.ParseInt(tid, 10, 64)
		if th.HasPID && err == nil && n == th.PID {
			threadRow[i] = a.add(Row{Label: label(th.Name, tid), TIDLen: len(tid), Kind: KindProcess, Key: int32(th.Key), Thread: int32(th.Key), Parent: -1, Expanded: true})
			a.procRow[n] = threadRow[i]
		}
	}
	for i, th := range info {
		if threadRow[i] >= 0 {
			continue
		}
		parent := int32(-1)
		if th.HasPID {
			parent = a.process(th.PID, th.Name)
		}
		tid := at.Name(th.Key)
		threadRow[i] = a.add(Row{Label: label(th.Name, tid), TIDLen: len(tid), Kind: KindThread, Key: int32(th.Key), Thread: int32(th.Key), Parent: parent})
	}
	// Call stacks as collapsed children of their thread.
	for i, th := range info {
		if cs, ok := at.Child(th.Key, core.AttrCallStack); ok {
			at.EachChild(cs, func(d core.Key) {
				a.add(Row{Label: "depth " + at.Name(d), Kind: KindCallStack, Key: int32(d), Thread: int32(th.Key), Parent: threadRow[i]})
			})
		}
	}
	// The sample-density row, first under its thread, which opens on it.
	for i, th := range info {
		if k, ok := at.Child(th.Key, core.AttrSamples); ok {
			a.add(Row{Label: "samples", Kind: KindSamples, Key: int32(k), Thread: int32(th.Key), Parent: threadRow[i]})
			a.rows[threadRow[i]].Expanded = true
		}
	}
	a.addTracks(info, threadRow)
	for i := range a.rows {
		r := &a.rows[i]
		r.Rank, r.ByID = rowRank(r.Kind), r.Kind != KindAsync && r.Kind != KindCounter
	}
	return Arrange(a.rows, at.Len())
}

// arranger collects the rows of [ControlFlow].
type arranger struct {
	at        *core.AttributeTree
	rows      []Row
	procRow   map[int64]int32
	procNames map[int64]string
}

func (a *arranger) add(r Row) int32 {
	a.rows = append(a.rows, r)
	return int32(len(a.rows) - 1)
}

// process returns the row of process pid, adding a row of its name alone
// (else fallback) when it has none.
func (a *arranger) process(pid int64, fallback string) int32 {
	p, ok := a.procRow[pid]
	if !ok {
		pidText := strconv.FormatInt(pid, 10)
		p = a.add(Row{Label: label(cmp.Or(a.procNames[pid], fallback), pidText), Kind: KindProcess, Key: -1, Thread: -1, Parent: -1, Expanded: true})
		a.procRow[pid] = p
	}
	return p
}

// label is a thread's row text, "name tid" (the tid alone without name).
func label(name, tid string) string {
	if name == "" {
		return tid
	}
	return name + " " + tid
}

// rowRank orders the kinds of rows under one parent: samples, call
// stack depths, then tracks, then threads.
func rowRank(k Kind) uint8 {
	switch k {
	case KindSamples:
		return 0
	case KindCallStack:
		return 1
	case KindAsync, KindCounter:
		return 2
	}
	return 3
}

// Tracks: rows that are not threads but belong to a process or a
// container. Each async name of a process (Processes/<PID>/Async/<cat>/
// <name>) has one row per lane (concurrent depth), named cat/name; each
// counter series (Counters/<PID>/<name>/<series>) and each Pajé variable
// (Threads/<id>/Variables/<type>) is a counter row, drawn with block
// characters scaled to the row's range on screen. A process with only
// tracks (no thread) gets a row of its own, so it appears; a container
// with variables is expanded.
func (a *arranger) addTracks(info []Thread, threadRow []int32) {
	at := a.at
	process := func(pidText string) int32 {
		pid, err := strconv.ParseInt(pidText, 10, 64)
		if err != nil {
			return -1
		}
		return a.process(pid, pidText)
	}
	for _, lane := range asyncLanes(at) {
		name := at.Parent(lane)
		cat := at.Parent(name)
		text := at.Name(cat) + "/" + at.Name(name)
		if at.Name(lane) != "1" {
			text += " " + at.Name(lane)
		}
		pid := at.Name(at.Parent(at.Parent(cat)))
		a.add(Row{Label: text, Kind: KindAsync, Key: int32(lane), Thread: -1, Parent: process(pid)})
	}
	for _, series := range at.Glob(core.AttrCounters + "/*/*/*") {
		name := at.Parent(series)
		pid := at.Name(at.Parent(name))
		a.add(Row{Label: at.Name(name) + "/" + at.Name(series), Kind: KindCounter, Key: int32(series), Thread: -1, Parent: process(pid)})
	}
	for i, th := range info {
		if vars, ok := at.Child(th.Key, core.AttrVariables); ok {
			at.EachChild(vars, func(v core.Key) {
				a.add(Row{Label: at.Name(v), Kind: KindCounter, Key: int32(v), Thread: int32(th.Key), Parent: threadRow[i]})
			})
			// Open, so that a trace of variables only (SimGrid's platform
			// traces) opens on them.
			a.rows[threadRow[i]].Expanded = true
		}
	}
}

// Resources arranges the CPUs of at (CPUs/*) with their IRQs/* and
// Soft_IRQs/* children (collapsed) into the browser's Resources rows
// ([Arrange]): "IRQ 32 virtio0-input" (irqName gives the handler's name
// of an IRQ number, "" when unknown; nil: none known), "SoftIRQ 9 RCU".
func Resources(at *core.AttributeTree, irqName func(irq string) string) *Encoded {
	var rows []Row
	if cpus, ok := at.Lookup(core.AttrCPUs); ok {
		for _, c := range at.Children(cpus) {
			row := int32(len(rows))
			rows = append(rows, Row{Label: "CPU " + at.Name(c), Kind: KindCPU, Key: int32(c), Thread: -1, Parent: -1, Rank: uint8(KindCPU), ByID: true})
			for _, sub := range []struct {
				attr, label string
				kind        Kind
			}{{core.AttrIRQs, "IRQ ", KindIRQ}, {core.AttrSoftIRQs, "SoftIRQ ", KindSoftIRQ}} {
				if g, ok := at.Child(c, sub.attr); ok {
					// By number, given in that order: the name after the
					// number is no id to sort by.
					kids := slices.Clone(at.Children(g))
					slices.SortStableFunc(kids, func(a, b core.Key) int {
						x, _ := strconv.ParseInt(at.Name(a), 10, 64)
						y, _ := strconv.ParseInt(at.Name(b), 10, 64)
						return cmp.Or(cmp.Compare(x, y), cmp.Compare(at.Name(a), at.Name(b)))
					})
					for _, k := range kids {
						rows = append(rows, Row{Label: sub.label + irqLabel(sub.kind, at.Name(k), irqName), Kind: sub.kind, Key: int32(k), Thread: -1,
							Parent: row, Rank: uint8(sub.kind)})
					}
				}
			}
		}
	}
	return Arrange(rows, at.Len())
}

// irqLabel is an IRQ row's number and name: a hard IRQ's handler, a soft
// IRQ's vector.
func irqLabel(kind Kind, n string, irqName func(string) string) string {
	name := ""
	switch {
	case kind == KindSoftIRQ:
		if v, err := strconv.ParseInt(n, 10, 32); err == nil && v >= 0 {
			name = core.SoftIRQName(int32(v))
		}
	case irqName != nil:
		name = irqName(n)
	}
	if name == "" || name == n || strings.HasPrefix(name, "vec ") {
		return n
	}
	return n + " " + name
}

// asyncLanes returns the keys of Processes/*/Async/*/*/*, in key order, as
// [core.AttributeTree.Glob] does, but finding the processes by one pass
// over the parents (see threadsAndProcesses): the glob would build the
// tree's child index, 100 MB at 1.6 M threads at the build's end, for
// kernel traces that have no async lane.
func asyncLanes(at *core.AttributeTree) []core.Key {
	_, pids := threadsAndProcesses(at)
	var lanes []core.Key
	for _, p := range pids {
		if async, ok := at.Child(p, core.AttrAsync); ok {
			for _, cat := range at.Children(async) {
				for _, name := range at.Children(cat) {
					lanes = append(lanes, at.Children(name)...)
				}
			}
		}
	}
	slices.Sort(lanes)
	return lanes
}
