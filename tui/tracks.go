package tui

import (
	"cmp"
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// Tracks: rows that are not threads but belong to a process or a
// container. Each async name of a process (Processes/<PID>/Async/<cat>/
// <name>) has one row per lane (concurrent depth), named cat/name; each
// counter series (Counters/<PID>/<name>/<series>) and each Pajé variable
// (Threads/<id>/Variables/<type>) is a counter row, drawn with block
// characters scaled to the row's range on screen. A process with only
// tracks (no thread) gets a row of its own, so it appears; a container
// with variables is expanded.

// rowRank orders the kinds of rows under one parent.
func rowRank(k rowKind) int {
	switch k {
	case kindCallStack:
		return 0
	case kindAsync, kindCounter:
		return 1
	}
	return 2
}

// addTracks adds the track rows to nodes and returns them.
func addTracks(at *core.AttributeTree, nodes []node, procRow map[int64]int32, procNames map[int64]string, tids []core.Key, threadRow []int32) []node {
	add := func(n node) int32 {
		nodes = append(nodes, n)
		return int32(len(nodes) - 1)
	}
	process := func(pidText string) int32 {
		pid, err := strconv.ParseInt(pidText, 10, 64)
		if err != nil {
			return -1
		}
		p, ok := procRow[pid]
		if !ok {
			p = add(node{label: rowLabel(cmp.Or(procNames[pid], pidText), pidText), kind: kindProcess, key: -1, thread: -1, parent: -1, expanded: true})
			procRow[pid] = p
		}
		return p
	}
	for _, lane := range at.Glob(core.AttrProcesses + "/*/" + core.AttrAsync + "/*/*/*") {
		name := at.Parent(lane)
		cat := at.Parent(name)
		label := at.Name(cat) + "/" + at.Name(name)
		if at.Name(lane) != "1" {
			label += " " + at.Name(lane)
		}
		pid := at.Name(at.Parent(at.Parent(cat)))
		add(node{label: label, kind: kindAsync, key: lane, thread: -1, parent: process(pid)})
	}
	for _, series := range at.Glob(core.AttrCounters + "/*/*/*") {
		name := at.Parent(series)
		pid := at.Name(at.Parent(name))
		add(node{label: at.Name(name) + "/" + at.Name(series), kind: kindCounter, key: series, thread: -1, parent: process(pid)})
	}
	for i, t := range tids {
		if vars, ok := at.Child(t, core.AttrVariables); ok {
			for _, v := range at.Children(vars) {
				add(node{label: at.Name(v), kind: kindCounter, key: v, thread: t, parent: threadRow[i]})
			}
			// Open, so that a trace of variables only (SimGrid's platform
			// traces) opens on them.
			nodes[threadRow[i]].expanded = true
		}
	}
	return nodes
}
