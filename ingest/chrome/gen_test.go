package chrome

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
)

// genSlice is one slice of a generated trace, the reference for the
// analysis.
type genSlice struct {
	thread     string // "<pid>:<tid>"
	depth      int
	start, end int64 // ns; the slice covers [start, end-1]
	name       string
}

type genEvent struct {
	ts   int64 // ns
	json string
}

// genTrace builds a random trace of nested slices on a few threads, with
// instants and counters, in file order with ties kept (B/E order matters
// at equal times), then shuffled across different timestamps. It returns
// the JSON text, the slices, and the rank of every event in time order
// (n, as written in each event's args).
func genTrace(rng *rand.Rand, threads int) (string, []genSlice, []int) {
	var evs []genEvent
	var slicesOut []genSlice
	name := 0
	add := func(ts int64, format string, a ...any) {
		n := len(evs)
		evs = append(evs, genEvent{ts: ts, json: strings.Replace(fmt.Sprintf(format, a...), "@N", strconv.Itoa(n), 1)})
	}
	us := func(ns int64) string { // microseconds with a fraction
		return strconv.FormatFloat(float64(ns)/1000, 'f', -1, 64)
	}
	for th := range threads {
		pid, tid := 1+th%2, 100+th
		key := fmt.Sprintf("%d:%d", pid, tid)
		clang := rng.IntN(3) == 0 // all X, written when they end
		var gen func(start, end int64, depth int)
		gen = func(start, end int64, depth int) {
			if depth > 6 || end-start < 4 {
				return
			}
			t := start
			for t < end-2 && rng.IntN(4) != 0 {
				s := t + rng.Int64N(max((end-t)/3, 1))
				if depth > 1 && s == start && rng.IntN(2) == 0 {
					s = start
				}
				e := s + 1 + rng.Int64N(end-s-1)
				if e >= end {
					e = end - 1
				}
				if e <= s {
					break
				}
				name++
				nm := fmt.Sprintf("s%d", name)
				slicesOut = append(slicesOut, genSlice{thread: key, depth: depth, start: s, end: e, name: nm})
				switch {
				case clang:
					gen(s, e, depth+1)
					add(s, `{"name":%q,"ph":"X","ts":%s,"dur":%s,"pid":%d,"tid":%d,"args":{"n":@N}}`, nm, us(s), us(e-s), pid, tid)
				case rng.IntN(2) == 0:
					add(s, `{"name":%q,"ph":"X","ts":%s,"dur":%s,"pid":%d,"tid":%d,"args":{"n":@N}}`, nm, us(s), us(e-s), pid, tid)
					gen(s+1, e, depth+1)
				default:
					add(s, `{"name":%q,"cat":"c","ph":"B","ts":%s,"pid":%d,"tid":%d,"args":{"n":@N}}`, nm, us(s), pid, tid)
					gen(s+1, e, depth+1)
					add(e, `{"name":%q,"ph":"E","ts":%s,"pid":%d,"tid":%d,"args":{"n":@N}}`, nm, us(e), pid, tid)
				}
				if rng.IntN(3) == 0 {
					add(s, `{"name":"tick","ph":"i","ts":%s,"pid":%d,"tid":%d,"s":"t","args":{"n":@N}}`, us(s), pid, tid)
				}
				t = e + rng.Int64N(3)
			}
		}
		gen(int64(rng.IntN(50))*1000, 1_000_000, 1)
		add(int64(rng.IntN(1_000_000)), `{"name":"ctr","ph":"C","ts":%s,"pid":%d,"args":{"n":@N,"v":%d}}`, us(int64(rng.IntN(1_000_000))), pid, rng.IntN(100))
		add(0, `{"name":"thread_name","ph":"M","ts":0,"pid":%d,"tid":%d,"args":{"n":@N,"name":"T%d"}}`, pid, tid, th)
	}
	// The counter's ts was drawn separately: use the one in its text.
	for i := range evs {
		if strings.Contains(evs[i].json, `"ph":"C"`) {
			f := strings.Split(strings.Split(evs[i].json, `"ts":`)[1], ",")[0]
			v, _ := strconv.ParseFloat(f, 64)
			evs[i].ts = int64(v*1000 + 0.5)
		}
		if strings.Contains(evs[i].json, `"ph":"M"`) {
			evs[i].ts = -1 << 63
		}
	}
	// Reference order: time, then file order (stable).
	order := make([]int, len(evs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpInt(evs[a].ts, evs[b].ts) })
	// Shuffle the file, keeping the relative order of equal timestamps.
	perm := rng.Perm(len(evs))
	byTS := map[int64][]int{}
	for _, i := range perm {
		byTS[evs[i].ts] = append(byTS[evs[i].ts], i)
	}
	for _, g := range byTS {
		slices.Sort(g)
	}
	file := make([]int, len(evs))
	used := map[int64]int{}
	for p, i := range perm {
		ts := evs[i].ts
		file[p] = byTS[ts][used[ts]]
		used[ts]++
	}
	var b strings.Builder
	if rng.IntN(2) == 0 {
		b.WriteString(`{"otherData":{"x":[1,{"y":"]"}]},"traceEvents":[`)
		for k, i := range file {
			if k > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(evs[i].json)
		}
		b.WriteString("],\"stackFrames\":{}}")
	} else {
		b.WriteString("[\n")
		for _, i := range file {
			b.WriteString(evs[i].json)
			b.WriteString(",\n")
		}
	}
	return b.String(), slicesOut, order
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// expectedStacks returns the non-null CallStack and thread intervals the
// slices imply, as "path [start,end] value" lines, sorted.
func expectedStacks(sl []genSlice) []string {
	var out []string
	for _, s := range sl {
		out = append(out, fmt.Sprintf("Threads/%s/CallStack/%d [%d,%d] %s", s.thread, s.depth, s.start, s.end-1, s.name))
		if s.depth == 1 {
			out = append(out, fmt.Sprintf("Threads/%s [%d,%d] %s", s.thread, s.start, s.end-1, s.name))
		}
	}
	slices.Sort(out)
	return out
}

// gotStacks lists the non-null intervals of the thread and CallStack keys.
func gotStacks(h *core.MemHistory) []string {
	tree := h.Attributes()
	var out []string
	for _, iv := range h.Intervals() {
		p := tree.Path(iv.Key)
		isThread := strings.Count(p, "/") == 1 && strings.HasPrefix(p, "Threads/")
		if iv.Value.IsNull() || !(isThread || strings.Contains(p, "/CallStack/")) {
			continue
		}
		out = append(out, fmt.Sprintf("%s [%d,%d] %s", p, iv.Start, iv.End, iv.Value))
	}
	slices.Sort(out)
	return out
}
