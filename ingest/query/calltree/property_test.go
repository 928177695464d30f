package calltree

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest/states/callstack"
)

var (
	entry = &core.EventClass{ID: 0, Name: "lttng_ust_cyg_profile_fast:func_entry", Fields: []string{"context.vtid", "addr"}}
	exit  = &core.EventClass{ID: 1, Name: "lttng_ust_cyg_profile_fast:func_exit", Fields: []string{"context.vtid"}}
)

func num(v int64) core.Field { return core.Field{Kind: core.FieldInt, Int: v} }

// rawCall is one call as the raw events say it: a path of labels and the
// instants it covers, [start, end].
type rawCall struct {
	path       string
	tid        int64
	start, end core.Time
}

// generate makes a random cyg-profile trace: entries and exits on a few
// threads, one event per instant (so that no two calls of one depth merge
// in the index), exits on empty stacks included. It returns the events,
// the trace end and the calls a plain stack per thread sees, labelled
// with label.
func generate(rng interface{ IntN(int) int }, label func(int64) string) ([]core.Event, core.Time, []rawCall) {
	type frame struct {
		addr  int64
		start core.Time
	}
	stacks := map[int64][]frame{}
	var events []core.Event
	var calls []rawCall
	pathOf := func(st []frame) string {
		var names []string
		for _, f := range st {
			names = append(names, label(f.addr))
		}
		return strings.Join(names, ";")
	}
	now := core.Time(0)
	threads := 1 + rng.IntN(4)
	for range 1 + rng.IntN(300) {
		now += core.Time(1 + rng.IntN(5))
		tid := int64(1 + rng.IntN(threads))
		st := stacks[tid]
		if rng.IntN(5) < 3 && len(st) < 12 {
			addr := int64(rng.IntN(8))
			events = append(events, core.Event{Time: now, Class: entry, Fields: []core.Field{num(tid), num(addr)}})
			stacks[tid] = append(st, frame{addr, now})
			continue
		}
		events = append(events, core.Event{Time: now, Class: exit, Fields: []core.Field{num(tid)}})
		if len(st) > 0 {
			calls = append(calls, rawCall{pathOf(st), tid, st[len(st)-1].start, now - 1})
			stacks[tid] = st[:len(st)-1]
		}
	}
	end := now + core.Time(rng.IntN(10))
	for tid, st := range stacks {
		for i := range st {
			calls = append(calls, rawCall{pathOf(st[:i+1]), tid, st[i].start, end})
		}
	}
	return events, end, calls
}

// index runs the call stack analysis over events into an on-disk R-SHT
// (the index the browser reads) and returns its path.
func index(tb testing.TB, events []core.Event, end core.Time) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "calls.rsht")
	builder, err := history.Create(path, 0, history.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	a := callstack.New(builder, callstack.WithKernel())
	for i := range events {
		if err := a.Handle(&events[i]); err != nil {
			tb.Fatal(err)
		}
	}
	if err := builder.Close(end); err != nil {
		tb.Fatal(err)
	}
	return path
}

// openIndex opens an index made by index.
func openIndex(tb testing.TB, path string) *history.Tree {
	tb.Helper()
	tr, err := history.Open(path, history.OpenOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { tr.Close() })
	return tr
}

// stats is one path's aggregate, as the brute force and the tree say it.
type stats struct {
	calls                    int64
	total, self, min, max    core.Time
	longestStart, longestEnd core.Time
}

// bruteForce aggregates the raw calls of the selected threads clipped to
// [from, to).
func bruteForce(calls []rawCall, threads map[int64]bool, from, to core.Time) map[string]*stats {
	out := map[string]*stats{}
	for _, c := range calls {
		if !threads[c.tid] || c.end < from || c.start > to-1 {
			continue
		}
		s, e := max(c.start, from), min(c.end, to-1)
		d := e - s + 1
		st := out[c.path]
		if st == nil {
			st = &stats{min: d}
			out[c.path] = st
		}
		st.calls++
		st.total += d
		st.min = min(st.min, d)
		if d > st.max {
			st.max = d
		}
	}
	for path, st := range out {
		st.self = st.total
		for child, cs := range out {
			if p, _, ok := cutLast(child); ok && p == path {
				st.self -= cs.total
			}
		}
	}
	return out
}

func cutLast(path string) (string, string, bool) {
	i := strings.LastIndexByte(path, ';')
	if i < 0 {
		return "", path, false
	}
	return path[:i], path[i+1:], true
}

// flatten lists every node of the tree by its path.
func flatten(n *Node, prefix string, out map[string]*stats, longest map[string][2]core.Time) {
	for _, c := range n.Children {
		path := c.Name
		if prefix != "" {
			path = prefix + ";" + c.Name
		}
		out[path] = &stats{calls: c.Calls, total: c.Total, self: c.Self, min: c.Min, max: c.Max}
		longest[path] = [2]core.Time{c.LongestStart, c.LongestEnd}
		flatten(c, path, out, longest)
	}
}

// The call tree of random traces over random ranges and thread subsets
// equals a brute-force aggregation of the calls the raw events make.
func TestCallTreeAgainstBruteForce(t *testing.T) {
	rng := coretest.Rand(t)
	label := func(addr int64) string { return "f" + strconv.FormatInt(addr%5, 10) } // several addresses, one name
	for round := range 30 {
		events, end, calls := generate(rng, label)
		h := openIndex(t, index(t, events, end))
		tree := h.Attributes()
		threads := map[int64]bool{}
		keys := []core.Key{} // not nil: nil means every thread
		for _, k := range StackThreads(tree) {
			if rng.IntN(3) > 0 {
				tid, _ := strconv.ParseInt(tree.Name(k), 10, 64)
				threads[tid] = true
				keys = append(keys, k)
			}
		}
		from, to := core.Time(0), end+1
		if rng.IntN(4) > 0 {
			from = core.Time(rng.IntN(int(end) + 1))
			to = from + 1 + core.Time(rng.IntN(int(end-from)+1))
		}
		root, err := Compute(context.Background(), h, Options{From: from, To: to, Threads: keys,
			Label: func(_ core.Key, v core.Value) string { return label(v.Int()) }})
		if err != nil {
			t.Fatal(err)
		}
		got, longest := map[string]*stats{}, map[string][2]core.Time{}
		flatten(root, "", got, longest)
		want := bruteForce(calls, threads, from, to)
		ctxt := fmt.Sprintf("round %d, range [%d,%d), threads %v", round, from, to, threads)
		for path, w := range want {
			g := got[path]
			if g == nil {
				t.Fatalf("%s: path %s missing (want %+v)", ctxt, path, *w)
			}
			if *g != *w {
				t.Fatalf("%s: path %s = %+v, want %+v", ctxt, path, *g, *w)
			}
			if l := longest[path]; l[1]-l[0]+1 != w.max || l[0] < from || l[1] > to-1 {
				t.Fatalf("%s: path %s longest call %v, want %d ns inside the range", ctxt, path, l, w.max)
			}
		}
		for path := range got {
			if want[path] == nil {
				t.Fatalf("%s: extra path %s", ctxt, path)
			}
		}
		var rootTotal core.Time
		for path, w := range want {
			if !strings.Contains(path, ";") {
				rootTotal += w.total
			}
		}
		if root.Total != rootTotal || root.Self != 0 {
			t.Fatalf("%s: root total %d self %d, want %d and 0", ctxt, root.Total, root.Self, rootTotal)
		}
		if !slices.IsSortedFunc(root.Children, func(a, b *Node) int { return int(b.Total - a.Total) }) {
			t.Fatalf("%s: children not ordered by total", ctxt)
		}
	}
}

// A cancelled context stops the aggregation with its error.
func TestCallTreeCancelled(t *testing.T) {
	events, end, _ := generate(coretest.Rand(t), func(a int64) string { return strconv.FormatInt(a, 10) })
	h := openIndex(t, index(t, events, end))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Compute(ctx, h, Options{}); err != context.Canceled {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}
