package diff

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/stats"
)

// sideSums is one side's figures by key.
type sideSums struct {
	processes, threads, latency, irqs map[string]int64
	syscalls                          map[string]CallStats
	paths                             map[string]int64
	ids                               IDs
	labels                            map[string]string // a thread selection's names by key (threads.go)
}

// newSums returns empty figures.
func newSums() *sideSums {
	return &sideSums{processes: map[string]int64{}, threads: map[string]int64{}, latency: map[string]int64{},
		irqs: map[string]int64{}, syscalls: map[string]CallStats{},
		ids: IDs{Threads: map[string]int32{}, Processes: map[string]int32{}}}
}

// maxTreeDepth bounds the walk up a process tree (a damaged or crafted
// trace may make its parents a cycle).
const maxTreeDepth = 64

// tree is what names a thread by its place: each thread's parent process
// and name, from the history.
type tree struct {
	ppid   map[int32]int32
	comm   map[int32]string
	places map[int32]string // place of a pid the history names, once walked
}

// readTree reads every thread's PPID and Exec_name (their last values) in
// one query over the whole history: a process's ancestors may have
// started before the range.
func readTree(ctx context.Context, h core.History) (*tree, error) {
	at := h.Attributes()
	keys := append(at.Glob(core.AttrThreads+"/*/"+core.AttrPPID), at.Glob(core.AttrThreads+"/*/"+core.AttrExecName)...)
	t := &tree{ppid: map[int32]int32{}, comm: map[int32]string{}, places: map[int32]string{}}
	type last struct {
		start core.Time
		v     core.Value
		set   bool
	}
	latest := make([]last, at.Len()) // by key: a map was a tenth of a diff's time
	start, end := h.Bounds()
	if _, err := h.Query2D(ctx, keys, start, end, func(iv core.Interval) bool {
		if !iv.Value.IsNull() && iv.Key >= 0 && int(iv.Key) < len(latest) {
			if l := &latest[iv.Key]; !l.set || iv.Start >= l.start {
				*l = last{iv.Start, iv.Value, true}
			}
		}
		return true
	}); err != nil {
		return nil, err
	}
	for _, k := range keys {
		l := latest[k]
		if !l.set {
			continue
		}
		id, err := strconv.ParseInt(at.Name(at.Parent(k)), 10, 32)
		if err != nil {
			continue // Threads/<pid>:<tid> names (user-space traces): no tree
		}
		switch at.Name(k) {
		case core.AttrPPID:
			t.ppid[int32(id)] = int32(l.v.Int())
		case core.AttrExecName:
			t.comm[int32(id)] = l.v.String()
		}
	}
	return t, nil
}

// place names a process by the comms from its tree's root down to it
// ("bash > make > cc1"), comm naming it when the history does not.
func (t *tree) place(pid int32, comm string) string {
	names := []string{comm}
	c, named := t.comm[pid]
	if named {
		if p, ok := t.places[pid]; ok {
			return p
		}
		names[0] = c
	}
	seen := map[int32]bool{pid: true}
	for p, ok := t.ppid[pid]; ok && p > 0 && !seen[p] && len(names) < maxTreeDepth; p, ok = t.ppid[p] {
		seen[p] = true
		c, known := t.comm[p]
		if !known {
			c = strconv.Itoa(int(p))
		}
		names = append(names, c)
	}
	slices.Reverse(names)
	p := strings.Join(names, " > ")
	if named && t.places != nil {
		t.places[pid] = p
	}
	return p
}

// threadRef is a thread that appears in a side's tables.
type threadRef struct {
	tid, pid int32
	comm     string
}

// threadKeys names each thread by its process's place, its comm, and its
// rank by tid among the threads so named there: "bash > make > cc1 | cc1 #0".
// A process whose name the history lacks (none of its events was
// recorded, only its threads') is named by its thread's comm.
func (t *tree) threadKeys(threads []threadRef) map[int32]string {
	slices.SortFunc(threads, func(a, b threadRef) int { return int(a.tid) - int(b.tid) })
	rank := map[string]int{}
	keys := map[int32]string{}
	for _, th := range threads {
		if _, done := keys[th.tid]; done {
			continue
		}
		prefix := t.place(th.pid, th.comm) + " | " + th.comm // the thread's comm names a process the history does not
		keys[th.tid] = prefix + " #" + strconv.Itoa(rank[prefix])
		rank[prefix]++
	}
	return keys
}

// sum turns one side's report into figures by key.
func sum(t *tree, rep *stats.Report) *sideSums {
	s := newSums()
	var refs []threadRef
	for _, u := range rep.CPUUsage.Threads {
		refs = append(refs, threadRef{u.TID, u.PID, u.Comm})
	}
	for _, l := range rep.SchedLatency {
		refs = append(refs, threadRef{l.TID, l.PID, l.Comm})
	}
	keys := t.threadKeys(refs)
	for tid, k := range keys {
		s.ids.Threads[k] = tid
	}
	for _, u := range rep.CPUUsage.Threads {
		s.threads[keys[u.TID]] += u.NS
	}
	for _, p := range rep.CPUUsage.Processes {
		place := t.place(p.PID, p.Comm)
		s.processes[place] += p.NS
		if id, ok := s.ids.Processes[place]; !ok || p.PID < id {
			s.ids.Processes[place] = p.PID
		}
	}
	for _, l := range rep.SchedLatency {
		s.latency[keys[l.TID]] += l.TotalNS
	}
	for _, q := range rep.IRQs {
		s.irqs[q.Kind+" "+q.Label()] += q.TotalNS
	}
	for _, c := range rep.Syscalls {
		s.syscalls[c.Name] = CallStats{Count: c.Count, TotalNS: c.TotalNS, MaxNS: c.MaxNS}
	}
	return s
}
