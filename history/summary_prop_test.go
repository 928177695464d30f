package history

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// summaryScenario makes a random history of state rows: mostly small ints
// and null (some keys, rarely, take a value no summary holds), with change
// rates from a few per trace to many per finest bucket.
func summaryScenario(r *rand.Rand) *scenario {
	s := &scenario{start: core.Time(r.Int64N(1 << 40))}
	keys := 1 + r.IntN(40)
	for i := range keys {
		p := []string{"Threads", strconv.Itoa(i)}
		if i%5 == 4 {
			p = append(p, "Exec_name")
		}
		s.ops = append(s.ops, scenarioOp{path: p})
	}
	now := s.start
	step := int64(1) << r.IntN(30)
	for range r.IntN(1500) {
		now += core.Time(r.Int64N(step))
		v := core.Int32(int32(r.IntN(4)))
		switch r.IntN(40) {
		case 0:
			v = core.Null()
		case 1:
			v = core.Int32(253)
		case 2:
			if r.IntN(10) == 0 {
				v = core.String("bash")
			}
		}
		s.ops = append(s.ops, scenarioOp{key: core.Key(r.IntN(keys)), t: now, v: v})
	}
	s.end = now + core.Time(r.Int64N(step+1))
	return s
}

// summaryRuns returns the keys sz serves and their runs.
func summaryRuns(t *testing.T, sz core.Summarizer, keys []core.Key, t0, t1, width core.Time) ([]core.Key, map[core.Key][]core.SummaryRun) {
	t.Helper()
	runs := map[core.Key][]core.SummaryRun{}
	served, _, err := sz.Summary(context.Background(), keys, t0, t1, width, func(k core.Key, run core.SummaryRun) bool {
		runs[k] = append(runs[k], run)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return served, runs
}

// expandRuns returns the buckets of runs from bucket lo to hi (indexes at
// the runs' shift), or false when they do not cover them exactly.
func expandRuns(runs []core.SummaryRun, lo, hi core.Time) ([]core.SummaryBucket, bool) {
	var out []core.SummaryBucket
	for _, r := range runs {
		for i := range r.Count {
			b := r.Start>>r.Shift + core.Time(i)
			if b >= lo && b <= hi {
				if b != lo+core.Time(len(out)) {
					return nil, false
				}
				out = append(out, r.Bucket)
			}
		}
	}
	return out, len(out) == int(hi-lo+1)
}

// TestSummaryMatchesReference builds random state histories with
// summaries, checks the file (Check recomputes every summary from the
// intervals), and compares Tree.Summary with MemHistory's brute force on
// random windows and widths, bucket by bucket. On whole-bucket columns it
// then checks what the frame relies on against the intervals: the change
// count (the "changed more than once" mark) and the first state.
func TestSummaryMatchesReference(t *testing.T) {
	r := coretest.Rand(t)
	buckets := 0
	for range 2 {
		s := summaryScenario(r)
		ruleMod := 1 + r.IntN(3) // summarise the keys whose number is a multiple
		rule := func(tr *core.AttributeTree, k core.Key) bool {
			return tr.Parent(k) != core.Root && tr.Parent(tr.Parent(k)) == core.Root && int(k)%ruleMod == 0
		}
		tree := openChecked(t, buildScenario(t, s, Options{Summarise: rule}), OpenOptions{})
		mem := core.NewMemHistory(s.start)
		s.replay(t, mem)
		levels := core.SummaryLevels(s.start, s.end)
		keys := allKeys(tree)
		for range 8 {
			width := core.Time(1) << max(0, int(levels[0])+r.IntN(12)-2)
			t0 := s.start + core.Time(r.Int64N(int64(s.end-s.start)+1))
			t1 := t0 + core.Time(r.Int64N(min(int64(s.end-t0), int64(width)<<9)+1)) // up to ~1000 buckets
			served, got := summaryRuns(t, tree, keys, t0, t1, width)
			memServed, _ := summaryRuns(t, mem, keys, t0, t1, width)
			li := core.SummaryLevelFor(levels, width)
			if li < 0 {
				if len(served) > 0 {
					t.Fatalf("width %d finer than the finest level %d: served %v", width, levels[0], served)
				}
				continue
			}
			inMem := map[core.Key]bool{}
			for _, k := range memServed {
				inMem[k] = true
			}
			for _, k := range keys {
				if (rule(tree.Attributes(), k) && inMem[k]) != (len(got[k]) > 0) {
					t.Fatalf("key %d: served %v, rule %v, all values summary values %v", k, len(got[k]) > 0, rule(tree.Attributes(), k), inMem[k])
				}
			}
			for _, k := range served {
				// A key whose coarser levels would not save reading is
				// served from a finer one (entryEncoder).
				sh := got[k][0].Shift
				if sh > levels[li] {
					t.Fatalf("key %d: buckets of 2^%d ns for a width of %d", k, sh, width)
				}
				lo, hi := t0>>sh, t1>>sh
				_, want := summaryRuns(t, mem, []core.Key{k}, t0, t1, core.Time(1)<<sh)
				gb, ok := expandRuns(got[k], lo, hi)
				wb, _ := expandRuns(want[k], lo, hi)
				if !ok {
					t.Fatalf("key %d: runs %v do not cover buckets %d..%d", k, got[k], lo, hi)
				}
				for i := range gb {
					if gb[i] != wb[i] {
						t.Fatalf("key %d, shift %d, bucket %d: got %+v, want %+v", k, sh, lo+core.Time(i), gb[i], wb[i])
					}
				}
				checkWholeBucketColumn(t, mem, k, gb, lo, sh, s.start, s.end)
				buckets += len(gb)
			}
		}
	}
	t.Logf("%d buckets compared", buckets)
}

// checkWholeBucketColumn checks, for the column made of buckets (the first
// is bucket lo), the change count and the first state computed from
// the buckets against the intervals.
func checkWholeBucketColumn(t *testing.T, mem *core.MemHistory, k core.Key, buckets []core.SummaryBucket, lo core.Time, sh uint8, start, end core.Time) {
	t.Helper()
	cs, ce := max(lo<<sh, start), min((lo+core.Time(len(buckets)))<<sh-1, end)
	changes := 0
	for i, b := range buckets {
		changes += int(b.Changes)
		if i > 0 && b.ChangedAtFirst {
			changes++
		}
	}
	ivs := collect(t, func(fn func(core.Interval) bool) (core.QueryStats, error) {
		return mem.Query2D(context.Background(), []core.Key{k}, cs, ce, fn)
	})
	if exact := len(ivs) - 1; min(exact, 255) != min(changes, 255) && changes < 255 {
		t.Fatalf("key %d, column [%d, %d]: %d changes from the buckets, %d intervals", k, cs, ce, changes, len(ivs))
	}
	if fb, _ := core.SummaryByte(ivs[0].Value); fb != buckets[0].First {
		t.Fatalf("key %d, column [%d, %d]: first state %d, want %v", k, cs, ce, buckets[0].First, ivs[0].Value)
	}
}

// TestSummarySplitSameBytes: an index whose change log is written in many
// parts and read back in many batches, by up to four goroutines, is the
// same file as one whose log is one part read back in one batch.
func TestSummarySplitSameBytes(t *testing.T) {
	r := coretest.Rand(t)
	for range 4 {
		s := summaryScenario(r)
		rule := func(tr *core.AttributeTree, k core.Key) bool { return tr.Parent(k) != core.Root }
		var files [2][]byte
		split := [2][3]int64{{1 << 30, 1 << 40, 1}, {1 + r.Int64N(8), 1 + r.Int64N(64), 1 + r.Int64N(4)}}
		for i, sp := range split {
			path := filepath.Join(t.TempDir(), "index")
			b, err := Create(path, s.start, Options{Summarise: rule})
			if err != nil {
				t.Fatal(err)
			}
			b.sum.partSlots, b.sum.batchMax = int(sp[0]), sp[1]
			b.sum.workers, b.sum.parallelFrom = int(sp[2]), 0
			s.replay(t, b)
			if files[i], err = os.ReadFile(path); err != nil {
				t.Fatal(err)
			}
			openChecked(t, path, OpenOptions{})
		}
		if !bytes.Equal(files[0], files[1]) {
			t.Fatalf("%d operations: the index differs when the log is split (%d and %d bytes)", len(s.ops), len(files[0]), len(files[1]))
		}
	}
}
