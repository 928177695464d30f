package critpath

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/gen"
)

// The path's invariants, checked against the state index itself (the
// brute-force reference: each worker's raw intervals):
//   - segments are in time order, non-empty, never overlap, and cover
//     exactly the instants of [from, to) where the target has a state;
//   - a segment on the target's row has the state its own status gives
//     (running, preempted, unknown), or is a wait that is not explained
//     by a thread (blocked with a reason, timer, interrupted, network,
//     block device); blocked segments appear on the target's row only
//     (nested sleeps nobody explains are "unknown"), each with a reason;
//   - a segment on another row lies inside a wait of the target that a
//     thread ended, and running/preempted segments there match that
//     worker's status over the whole segment.
func (ref *reference) checkPath(t *testing.T, p *Path) {
	t.Helper()
	h, rows := ref.h, ref.rows
	statuses := func(w Worker, from, to core.Time) []core.Interval {
		threads, _ := h.Attributes().Child(core.Root, core.AttrThreads)
		k, ok := h.Attributes().Child(threads, w.attrName())
		if !ok {
			t.Fatalf("segment on %s: no such thread", w.attrName())
		}
		row := rows[k]
		i, _ := slices.BinarySearchFunc(row, from, func(iv core.Interval, t core.Time) int {
			if iv.End < t {
				return -1
			}
			return 1
		})
		j := i
		for j < len(row) && row[j].Start < to {
			j++
		}
		return row[i:j]
	}
	target := statuses(p.Target, p.From, p.To)
	var want core.Time // instants of [From, To) where the target has a state
	for _, iv := range target {
		if !iv.Value.IsNull() {
			want += min(iv.End+1, p.To) - max(iv.Start, p.From)
		}
	}
	var got core.Time
	for i, s := range p.Segments {
		if s.Start >= s.End || s.Start < p.From || s.End > p.To {
			t.Fatalf("segment %d %+v: empty or outside [%d, %d)", i, s, p.From, p.To)
		}
		if i > 0 && s.Start < p.Segments[i-1].End {
			t.Fatalf("segment %d %+v overlaps the previous %+v", i, s, p.Segments[i-1])
		}
		got += s.End - s.Start
		if s.State == Blocked && (s.Worker != p.Target || s.Reason == "") {
			t.Fatalf("segment %d %+v: blocked off the target's row or without a reason", i, s)
		}
		// The target's status at the segment's start.
		j, _ := slices.BinarySearchFunc(target, s.Start, func(iv core.Interval, t core.Time) int {
			if iv.End < t {
				return -1
			}
			return 1
		})
		if j == len(target) || target[j].Start > s.Start {
			t.Fatalf("segment %d %+v: the target has no state there", i, s)
		}
		if own, _ := statusState(target[j].Value); s.Worker != p.Target && own != Blocked {
			t.Fatalf("segment %d %+v on another row, but the target is not asleep (%v)", i, s, target[j].Value)
		}
		if s.Reason == reasonBound {
			continue
		}
		// The segment's worker's own status over the whole segment.
		want := s.State
		switch {
		case s.Worker != p.Target && s.State == Unknown && s.Reason != "":
			continue // a hole in a waker's history, or a nested sleep nobody explains
		case s.State != Running && s.State != Preempted && s.State != Unknown:
			want = Blocked // a wait typed by what ended it (a waker's own waits are copied too)
		}
		for _, iv := range statuses(s.Worker, s.Start, s.End) {
			if st, ok := statusState(iv.Value); !ok || st != want {
				t.Fatalf("segment %d %+v: %s's status is %v over [%d, %d]", i, s, s.Worker.attrName(), iv.Value, iv.Start, iv.End)
			}
		}
	}
	if got != want && !p.Truncated {
		t.Fatalf("segments cover %d ns of [%d, %d); the target has a state over %d ns", got, p.From, p.To, want)
	}
}

// checkThreads checks the path of n random threads of h over their whole
// range and over a random sub-range.
func checkThreads(t *testing.T, h *core.MemHistory, rng *rand.Rand, n int) {
	t.Helper()
	threads, ok := h.Attributes().Child(core.Root, core.AttrThreads)
	if !ok {
		t.Fatal("no Threads attribute")
	}
	var workers []Worker
	for _, k := range h.Attributes().Children(threads) {
		if tid, err := strconv.Atoi(h.Attributes().Name(k)); err == nil && tid > 0 {
			workers = append(workers, Worker{TID: int32(tid), CPU: -1})
		}
	}
	if len(workers) == 0 {
		t.Fatal("no thread")
	}
	start, end := h.Bounds()
	ref := newReference(h)
	for range n {
		w := workers[rng.IntN(len(workers))]
		for _, r := range [][2]core.Time{{start, end + 1}, randomRange(rng, start, end)} {
			p, err := Compute(context.Background(), h, w, r[0], r[1], Options{})
			if errors.Is(err, ErrNoThread) {
				p = &Path{Target: w, From: r[0], To: r[1]} // must have no state in the range
			} else if err != nil {
				t.Fatalf("path of %d over [%d, %d): %v", w.TID, r[0], r[1], err)
			}
			ref.checkPath(t, p)
		}
	}
}

func randomRange(rng *rand.Rand, start, end core.Time) [2]core.Time {
	a := start + core.Time(rng.Int64N(int64(end-start+1)))
	b := start + core.Time(rng.Int64N(int64(end-start+1)))
	return [2]core.Time{min(a, b), max(a, b) + 1}
}

// Generated traces (the burn workload: forks, sleeps, wake-ups, IRQs).
func TestPathPropertiesGenerated(t *testing.T) {
	rng := coretest.Rand(t)
	dir := filepath.Join(t.TempDir(), "gen")
	cfg := gen.Config{Threads: 1 + rng.IntN(12), CPUs: 1 + rng.IntN(4), Seed: rng.Uint64()}
	if _, err := gen.Write(dir, cfg); err != nil {
		t.Fatal(err)
	}
	checkThreads(t, indexCTF(t, dir), rng, 10)
}

// The shared real CTF kernel traces.
func TestPathPropertiesSharedTraces(t *testing.T) {
	rng := coretest.Rand(t)
	for _, name := range []string{"bug446190", "perf-taskset2"} {
		t.Run(name, func(t *testing.T) {
			checkThreads(t, indexCTF(t, filepath.Join(coretest.SharedTraces(t), "ctf", name)), rng, 20)
		})
	}
}

// Real recordings (ftrace text) from $TRACETUI_RECORDINGS when present;
// the committed tiny recording runs everywhere.
func TestPathPropertiesRecordings(t *testing.T) {
	rng := coretest.Rand(t)
	t.Run("rec-tiny.txt", func(t *testing.T) {
		checkThreads(t, indexFtrace(t, "testdata/rec-tiny.txt"), rng, 20)
	})
	for _, name := range []string{"small.txt", "pipes.txt"} {
		t.Run(name, func(t *testing.T) { // skipped with a message when absent
			checkThreads(t, indexFtrace(t, coretest.Recording(t, name)), rng, 20)
		})
	}
}

// reference is the brute-force reference the path is checked against:
// every key's intervals in time order, straight from a MemHistory.
type reference struct {
	h    *core.MemHistory
	rows map[core.Key][]core.Interval
}

func newReference(h *core.MemHistory) *reference {
	rows := map[core.Key][]core.Interval{}
	for _, iv := range h.Intervals() {
		rows[iv.Key] = append(rows[iv.Key], iv)
	}
	for _, r := range rows {
		core.SortIntervals(r)
	}
	return &reference{h, rows}
}
