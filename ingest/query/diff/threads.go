package diff

import (
	"cmp"
	"strconv"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/stats"
)

// Comparing threads (Side.Threads): thread A's figures against thread
// B's, in one trace or two. The rows are keyed by the threads' positions
// in the selections, so that A's first thread lines up with B's first
// whatever their names, and then named by both ("make 120 vs cc1 131"):
//
//   - Threads: each selected thread's CPU time;
//   - Processes: the CPU time of each selected thread's process (all its
//     threads);
//   - Syscalls: the selected threads' system calls (stats' per-thread
//     lists), summed by name;
//   - SchedLatency: each selected thread's wake-up latency;
//   - IRQs: none (interrupts are not a thread's);
//   - CallTree: the selected threads' call stacks or samples.

// threadKey and processKey are the keys of the i-th selected thread and
// of its process.
func threadKey(i int) string  { return "thread #" + strconv.Itoa(i) }
func processKey(i int) string { return "process #" + strconv.Itoa(i) }

// sumSelected turns one side's report into the figures of the selected
// threads, keyed by position; labels names each key on this side.
func sumSelected(t *tree, rep *stats.Report, sel []int32) *sideSums {
	s := newSums()
	s.labels = map[string]string{}
	pos := map[int32]int{}
	pid := map[int32]int32{}
	for i, tid := range sel {
		if _, dup := pos[tid]; !dup {
			pos[tid] = i
			pid[tid] = tid // until the report says
		}
	}
	for _, u := range rep.CPUUsage.Threads {
		if _, ok := pos[u.TID]; ok {
			pid[u.TID] = u.PID
		}
	}
	for _, l := range rep.SchedLatency {
		if _, ok := pos[l.TID]; ok {
			pid[l.TID] = l.PID
		}
	}
	procNS := map[int32]int64{}
	for _, p := range rep.CPUUsage.Processes {
		procNS[p.PID] += p.NS
	}
	for tid, i := range pos { // every selected thread has its rows, zero or not
		k, pk := threadKey(i), processKey(i)
		s.threads[k], s.latency[k] = 0, 0
		s.ids.Threads[k], s.ids.Processes[pk] = tid, pid[tid]
		s.processes[pk] = procNS[pid[tid]]
		comm := t.comm[tid]
		if comm == "" {
			comm = "thread"
		}
		s.labels[k] = comm + " " + strconv.Itoa(int(tid))
		s.labels[pk] = t.place(pid[tid], comm) + " " + strconv.Itoa(int(pid[tid]))
	}
	for _, u := range rep.CPUUsage.Threads {
		if i, ok := pos[u.TID]; ok {
			s.threads[threadKey(i)] += u.NS
		}
	}
	for _, l := range rep.SchedLatency {
		if i, ok := pos[l.TID]; ok {
			s.latency[threadKey(i)] += l.TotalNS
		}
	}
	for _, th := range rep.ThreadSyscalls {
		if _, ok := pos[th.TID]; !ok {
			continue
		}
		for _, c := range th.Syscalls {
			cs := s.syscalls[c.Name]
			cs.Count += c.Count
			cs.TotalNS += c.TotalNS
			cs.MaxNS = max(cs.MaxNS, c.MaxNS)
			s.syscalls[c.Name] = cs
		}
	}
	return s
}

// relabel names the rows of two thread selections by both sides' threads
// or processes ("make 120 vs cc1 131"; "-" for a side without that
// position), and the IDs by those names.
func relabel(r *Result, b, n *sideSums) {
	name := func(k string) string {
		lb, ln := b.labels[k], n.labels[k]
		return cmp.Or(lb, "-") + " vs " + cmp.Or(ln, "-")
	}
	ids := func(m map[string]int32) map[string]int32 {
		out := map[string]int32{}
		for k, id := range m {
			out[name(k)] = id
		}
		return out
	}
	for _, rows := range [][]TimeRow{r.Processes, r.Threads, r.SchedLatency} {
		for i := range rows {
			rows[i].Name = name(rows[i].Name)
		}
	}
	r.BaseIDs = IDs{Threads: ids(b.ids.Threads), Processes: ids(b.ids.Processes)}
	r.NewIDs = IDs{Threads: ids(n.ids.Threads), Processes: ids(n.ids.Processes)}
}

// threadAttrs returns the Threads/<tid> keys of tids that the history has
// (an empty list, never nil: nil means every thread).
func threadAttrs(h core.History, tids []int32) []core.Key {
	at := h.Attributes()
	out := []core.Key{}
	for _, tid := range tids {
		if k, ok := at.Lookup(core.AttrThreads + "/" + strconv.Itoa(int(tid))); ok {
			out = append(out, k)
		}
	}
	return out
}

// int64s converts thread IDs for Profile.Count (nil stays nil: every
// thread).
func int64s(tids []int32) []int64 {
	if tids == nil {
		return nil
	}
	out := make([]int64, len(tids))
	for i, t := range tids {
		out[i] = int64(t)
	}
	return out
}
