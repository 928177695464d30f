package stats

import (
	"io"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/states/kernel/kstats"
)

// sectioned is a history with named sections: an index
// (ingest/index's history, history.Tree).
type sectioned interface {
	Section(name string) (*io.SectionReader, error)
}

// stored returns the whole trace's report the index build stored
// (package kstats), with top occurrences per list, or nil when the
// history has none, it is damaged or it holds fewer than top: Compute
// then reads the history.
func stored(h core.History, top int) *Report {
	s, ok := h.(sectioned)
	if !ok {
		return nil
	}
	sec, err := s.Section(kstats.SectionName)
	if err != nil {
		return nil
	}
	rep, n, err := kstats.Decode(sec, sec.Size())
	if err != nil || n < top {
		return nil
	}
	cut := func(l []Occurrence) []Occurrence { return l[:min(len(l), top)] }
	rep.Slowest.Syscalls, rep.Slowest.SchedLatency = cut(rep.Slowest.Syscalls), cut(rep.Slowest.SchedLatency)
	rep.Slowest.IRQs, rep.Slowest.SoftRaise = cut(rep.Slowest.IRQs), cut(rep.Slowest.SoftRaise)
	return rep
}

// onlyParts empties the tables of rep that parts do not ask for, as a
// scan of those parts leaves them.
func onlyParts(rep *Report, parts Part) *Report {
	if parts&PartCPU == 0 {
		rep.CPUUsage = CPUUsage{}
	}
	if parts&PartSyscalls == 0 {
		rep.Syscalls, rep.ThreadSyscalls, rep.Slowest.Syscalls = nil, nil, nil
	}
	if parts&PartSched == 0 {
		rep.SchedLatency, rep.ProcessLatency, rep.Slowest.SchedLatency = nil, nil, nil
	}
	if parts&PartIRQs == 0 {
		rep.IRQs, rep.SoftRaise, rep.Slowest.IRQs, rep.Slowest.SoftRaise = nil, nil, nil, nil
	}
	return rep
}
