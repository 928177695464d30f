package history

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// summariseAll summarises every key.
func summariseAll(*core.AttributeTree, core.Key) bool { return true }

// summaryTimes moves s's times so that it starts at 0 or later: summaries
// are only made for such histories (core.SummaryLevels), and
// randomScenario may start before 0.
func summaryTimes(s *scenario) *scenario {
	if s.start >= 0 {
		return s
	}
	shift := -s.start
	s.start, s.end = 0, s.end+shift
	for i := range s.ops {
		if s.ops[i].path == nil {
			s.ops[i].t += shift
		}
	}
	return s
}

// applyOps adds the keys and makes the changes of s, without closing.
func applyOps(t *testing.T, s *scenario, b *Builder) {
	t.Helper()
	for _, op := range s.ops {
		if op.path != nil {
			b.Attributes().AddPath(op.path...)
		} else if err := b.Modify(op.key, op.t, op.v); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSummaryPassSameBytes (property): with summaries, the pipelined build
// (the change log written by the tree side, the pass on its own goroutine
// from the end of the states, the log split in parts or not) writes the
// same file as the sequential one, on one core and on two, and when the
// caller ends the states before adding sections. The pipelined builds'
// log is written in small parts, read back in small batches by up to four
// goroutines.
func TestSummaryPassSameBytes(t *testing.T) {
	r := coretest.Rand(t)
	depth := 1 + r.IntN(4)
	s := summaryTimes(randomScenario(r, (depth+2)*batchLen+r.IntN(batchLen), 1+r.IntN(3000)))
	// Small parts and batches: up to sumPartsMax parts, the last one
	// taking the slots past the others, and parts read in several batches.
	partSlots, batchMax := 1+r.IntN(8), 1+r.Int64N(2048)
	workers := 1 + r.IntN(4) // runs of the pass, each on its goroutine
	build := func(o Options, procs int, endFirst bool) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		path := filepath.Join(t.TempDir(), "index")
		b, err := Create(path, s.start, o)
		if err != nil {
			t.Fatal(err)
		}
		if !o.sequential { // the reference: one part, one batch
			b.sum.partSlots, b.sum.batchMax = partSlots, batchMax
			b.sum.workers, b.sum.parallelFrom = workers, 0
		}
		applyOps(t, s, b)
		if endFirst {
			if err := b.EndStates(s.end); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.AddSection("x", 3, bytes.NewReader([]byte("abc"))); err != nil {
			t.Fatal(err)
		}
		if err := b.Close(s.end); err != nil {
			t.Fatal(err)
		}
		openChecked(t, path, OpenOptions{})
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	opts := Options{BlockSize: 2048, MaxChildren: 8, queueDepth: depth, Summarise: summariseAll}
	seq := opts
	seq.sequential = true
	want := build(seq, 2, false)
	for _, c := range []struct {
		procs    int
		endFirst bool
	}{{1, false}, {2, false}, {1, true}, {2, true}} {
		if got := build(opts, c.procs, c.endFirst); !bytes.Equal(got, want) {
			t.Fatalf("GOMAXPROCS=%d, EndStates first %v, pass in %d runs: the pipelined build (%d bytes) differs from the sequential one (%d bytes)",
				c.procs, c.endFirst, workers, len(got), len(want))
		}
	}
}

// TestSummaryPassAbort: Abort with the summaries' goroutine logging (the
// states not ended) or running the pass, or done, returns, leaves no file
// and no goroutine behind.
func TestSummaryPassAbort(t *testing.T) {
	r := coretest.Rand(t)
	s := summaryTimes(randomScenario(r, 3*batchLen, 1+r.IntN(1000)))
	before := runtime.NumGoroutine()
	for _, c := range []string{"logging", "pass"} {
		dir := t.TempDir()
		b, err := Create(filepath.Join(dir, "index"), s.start, Options{BlockSize: 2048, MaxChildren: 8, queueDepth: 2, Summarise: summariseAll})
		if err != nil {
			t.Fatal(err)
		}
		b.sum.batchMax, b.sum.workers, b.sum.parallelFrom = 64, 3, 0 // the pass in runs, each on its goroutine
		applyOps(t, s, b)
		if c == "pass" {
			if err := b.EndStates(s.end); err != nil {
				t.Fatal(err)
			}
		}
		// A scenario whose changes are all at its first instant emits no
		// interval before its states end: no goroutine is logging then.
		p := b.sum.pass
		if p == nil && c == "pass" {
			t.Fatalf("%s: no summary goroutine after EndStates", c)
		}
		b.Abort()
		if p != nil {
			select {
			case <-p.done:
			default:
				t.Fatalf("%s: Abort returned with the summaries' goroutine running", c)
			}
			if c == "logging" && !errors.Is(p.err, context.Canceled) {
				t.Errorf("%s: the goroutine ended with %v, want context.Canceled", c, p.err)
			}
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("%s: Abort left %d files", c, len(left))
		}
		if err := b.Close(s.end); !errors.Is(err, core.ErrClosed) {
			t.Errorf("%s: Close after Abort: %v, want ErrClosed", c, err)
		}
	}
	// A goroutine closes its done channel as its last act and is counted
	// until it has returned: poll (a condition, not a delay) for up to a
	// second before calling it a leak.
	for end := time.Now().Add(time.Second); runtime.NumGoroutine() > before && time.Now().Before(end); {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after the aborted builds, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}

// TestSummaryPassCancelled: a pipelined build whose context is cancelled
// before its states end fails in Close with the pass's error and leaves
// no file, the index nor a temporary one.
func TestSummaryPassCancelled(t *testing.T) {
	r := coretest.Rand(t)
	s := summaryTimes(randomScenario(r, 3*batchLen, 1+r.IntN(1000)))
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	b, err := Create(filepath.Join(dir, "index"), s.start, Options{BlockSize: 2048, MaxChildren: 8, queueDepth: 2, Summarise: summariseAll, Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	b.sum.batchMax, b.sum.workers, b.sum.parallelFrom = 64, 3, 0 // the pass in runs, each on its goroutine
	applyOps(t, s, b)
	cancel()
	if err := b.EndStates(s.end); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(s.end); !errors.Is(err, context.Canceled) {
		t.Errorf("Close = %v, want context.Canceled", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("a cancelled build left %d files", len(left))
	}
}

// TestSplitBatches (property): the runs of the pass are the batches in
// order, cut into at most the number asked, none empty, and each within
// one batch's cost of an equal share.
func TestSplitBatches(t *testing.T) {
	r := coretest.Rand(t)
	for round := range 1000 {
		s := &summaryBuild{partSlots: 1 + r.IntN(64), parallelFrom: 0}
		var bs []passBatch
		var costs []int64
		for k := range 1 + r.IntN(40) {
			records := r.Int64N(1 << uint(r.IntN(24)))
			s.parts = append(s.parts, &logPart{records: records})
			lo := 0
			for lo < s.partSlots {
				hi := min(s.partSlots, lo+1+r.IntN(s.partSlots))
				b := passBatch{part: k, lo: lo, hi: hi, n: r.Int64N(records + 1)}
				bs, costs = append(bs, b), append(costs, s.cost(b))
				lo = hi
			}
		}
		n := 1 + r.IntN(4)
		runs := s.splitBatches(bs, n)
		if len(runs) == 0 || len(runs) > n {
			t.Fatalf("round %d: %d runs for %d batches, at most %d asked", round, len(runs), len(bs), n)
		}
		var total, most int64
		for _, c := range costs {
			total, most = total+c, max(most, c)
		}
		at := 0
		for i, run := range runs {
			if len(run) == 0 {
				t.Fatalf("round %d: run %d of %d is empty", round, i, len(runs))
			}
			var c int64
			for _, b := range run {
				if b != bs[at] {
					t.Fatalf("round %d: run %d holds batch %+v where %+v (batch %d) was", round, i, b, bs[at], at)
				}
				c += costs[at]
				at++
			}
			if len(runs) == n && (c > total/int64(n)+2*most || c < total/int64(n)-2*most) {
				t.Errorf("round %d: run %d costs %d, a share is %d and the largest batch %d", round, i, c, total/int64(n), most)
			}
		}
		if at != len(bs) {
			t.Fatalf("round %d: the runs hold %d of %d batches", round, at, len(bs))
		}
	}
}

// TestSummaryLogFilesBounded: however many parts the summaries' change
// log is cut into, the build keeps a bounded number of temporary files
// (and so of open files): every part's chunks go to one log file. With a
// file per part, this build held one per slot (issue 32: hundreds of
// files open, failing under ulimit -n 128).
func TestSummaryLogFilesBounded(t *testing.T) {
	r := coretest.Rand(t)
	s := summaryTimes(randomScenario(r, 2*batchLen, 400+r.IntN(400)))
	dir := t.TempDir()
	path := filepath.Join(dir, "index")
	b, err := Create(path, s.start, Options{BlockSize: 2048, MaxChildren: 8, Summarise: summariseAll})
	if err != nil {
		t.Fatal(err)
	}
	b.sum.partSlots = 1 // a part per slot
	applyOps(t, s, b)
	if err := b.EndStates(s.end); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) > 4 {
		t.Errorf("%d files beside the index during its build, want at most 4 (the index, the log, the section, a run)", len(entries))
	}
	if err := b.Close(s.end); err != nil {
		t.Fatal(err)
	}
	openChecked(t, path, OpenOptions{})
}
