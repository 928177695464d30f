package calltree

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/history"
)

// benchEvents is the size of the benchmark's user-space trace.
const benchEvents = 1_000_000

// userSpaceTrace makes a cyg-profile-like trace of n events on 8 threads,
// half of them on thread 1 (the busiest), 1 to 100 ns apart: calls nest
// up to 16 deep among 200 functions, each function calling one of three
// callees (as a program's call graph does), which makes a few thousand
// distinct call paths.
func userSpaceTrace(n int) ([]core.Event, core.Time) {
	rng := rand.New(rand.NewPCG(1, 2))
	caller := map[int64][]int{} // function stack per thread
	events := make([]core.Event, 0, n)
	fields := make([]core.Field, 2*n)
	now := core.Time(0)
	for i := range n {
		now += core.Time(1 + rng.IntN(100))
		tid := int64(1)
		if rng.IntN(2) == 0 {
			tid = int64(2 + rng.IntN(7))
		}
		f := fields[2*i : 2*i+2 : 2*i+2]
		f[0] = num(tid)
		st := caller[tid]
		if d := len(st); d == 0 || (d < 16 && rng.IntN(2) == 0) {
			fn := rng.IntN(4) // the program's entry points
			if d > 0 {
				fn = (st[d-1]*7 + 1 + rng.IntN(3)) % 200
			}
			f[1] = num(int64(0x400000 + 16*fn))
			events = append(events, core.Event{Time: now, Class: entry, Fields: f})
			caller[tid] = append(st, fn)
		} else {
			events = append(events, core.Event{Time: now, Class: exit, Fields: f[:1]})
			caller[tid] = st[:d-1]
		}
	}
	return events, now
}

// BenchmarkCallTree: the call tree of the busiest thread (half of the
// 1 M events) over the whole trace, read from an on-disk R-SHT index
// (default options, a fresh 64 MiB node cache per op, so every node is
// read from the file, from the page cache). The peer, BruteForce, replays
// that thread's raw events (already decoded, in memory) through a stack:
// what a tool without an index does at best.
func BenchmarkCallTree(b *testing.B) {
	events, end := userSpaceTrace(benchEvents)
	path := index(b, events, end)
	checkSameTree(b, path, bruteForceReplay(events, 1, end))
	b.Run("BruteForce", func(b *testing.B) {
		c0 := coretest.CPUTime()
		for b.Loop() {
			bruteForceReplay(events, 1, end)
		}
		reportCPU(b, c0)
	})
	events = nil // the index alone: no garbage collector time on the decoded events
	b.Run("Index", func(b *testing.B) {
		c0 := coretest.CPUTime()
		defer reportCPU(b, c0)
		for b.Loop() {
			tr, err := history.Open(path, history.OpenOptions{})
			if err != nil {
				b.Fatal(err)
			}
			th, ok := tr.Attributes().Lookup("Threads/1")
			if !ok {
				b.Fatal("no busiest thread")
			}
			root, err := Compute(context.Background(), tr, Options{Threads: []core.Key{th}})
			if err != nil {
				b.Fatal(err)
			}
			if got := allCalls(root); got < benchEvents/5 {
				b.Fatalf("%d calls, want about a quarter of the events", got)
			}
			tr.Close()
		}
	})
}

// checkSameTree fails b unless the index at path gives the tree want for
// thread 1: the benchmark compares two ways to the same result.
func checkSameTree(b *testing.B, path string, want *Node) {
	tr, err := history.Open(path, history.OpenOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	th, _ := tr.Attributes().Lookup("Threads/1")
	got, err := Compute(context.Background(), tr, Options{Threads: []core.Key{th}})
	if err != nil {
		b.Fatal(err)
	}
	var g, w strings.Builder
	if err := WriteText(&g, got); err != nil {
		b.Fatal(err)
	}
	if err := WriteText(&w, want); err != nil {
		b.Fatal(err)
	}
	if g.String() != w.String() {
		b.Fatal("the index and the raw events give different call trees")
	}
}

// reportCPU reports the process's CPU time per op since c0: steadier
// than wall time on a loaded machine.
func reportCPU(b *testing.B, c0 time.Duration) {
	b.ReportMetric(float64((coretest.CPUTime()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// allCalls counts the calls of every node under n.
func allCalls(n *Node) int64 {
	var sum int64
	for _, c := range n.Children {
		sum += c.Calls + allCalls(c)
	}
	return sum
}

// bruteForceReplay aggregates one thread's calls from its raw events.
func bruteForceReplay(events []core.Event, tid int64, end core.Time) *Node {
	type frame struct {
		node  *Node
		start core.Time
	}
	root := &Node{}
	b := newBuilder()
	ids := map[int64]int32{}
	var stack []frame
	for i := range events {
		ev := &events[i]
		if ev.Fields[0].Int != tid {
			continue
		}
		if ev.Class == entry {
			parent := root
			if len(stack) > 0 {
				parent = stack[len(stack)-1].node
			}
			addr := ev.Fields[1].Int
			id, ok := ids[addr]
			if !ok {
				id = b.nameID(DefaultLabel(0, core.Int64(addr)))
				ids[addr] = id
			}
			stack = append(stack, frame{b.child(parent, id), ev.Time})
		} else if len(stack) > 0 {
			f := stack[len(stack)-1]
			f.node.add(f.start, ev.Time-1)
			stack = stack[:len(stack)-1]
		}
	}
	for _, f := range stack {
		f.node.add(f.start, end)
	}
	root.finish()
	return root
}
