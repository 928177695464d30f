// Package chrometest generates Chrome traces for the tests of the reader
// and of its analysis: random nested slices on a few threads, with the
// slices and the event order they imply as references.
package chrometest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Slice is one slice of a generated trace, the reference for the
// analysis.
type Slice struct {
	Thread     string // "<pid>:<tid>"
	Depth      int
	Start, End int64 // ns; the slice covers [Start, End-1]
	Name       string
}

type genEvent struct {
	ts   int64 // ns
	json string
}

// GenTrace builds a random trace of nested slices on a few threads, with
// instants and counters, in file order with ties kept (B/E order matters
// at equal times), then shuffled across different timestamps. It returns
// the JSON text, the slices, and the rank of every event in time order
// (n, as written in each event's args).
func GenTrace(rng *rand.Rand, threads int) (string, []Slice, []int) {
	var evs []genEvent
	var slicesOut []Slice
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
				slicesOut = append(slicesOut, Slice{Thread: key, Depth: depth, Start: s, End: e, Name: nm})
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

// WriteTemp writes text to a file in a temporary directory of t and
// returns its path.
func WriteTemp(t testing.TB, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "trace")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
