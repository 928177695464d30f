package stats

import (
	"context"
	"flag"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

var weighRounds = flag.Int("weigh-rounds", 100, "random histories TestBatchesWeighed cuts")

// TestBatchesWeighed (property): threads weighed by their intervals in
// the range are cut into batches that keep the threads' order, each of
// at most the budget's intervals unless it holds one thread (a few busy
// threads among many idle ones, as in a capture), against a brute-force
// count of each thread's intervals; a thread of more is read in windows
// of time, as many as it holds budgets.
func TestBatchesWeighed(t *testing.T) {
	rng := coretest.Rand(t)
	for round := range *weighRounds {
		const end = 10_000
		var changes []change
		threads := 1 + rng.IntN(40)
		for tid := 1; tid <= threads; tid++ {
			n := 1 + rng.IntN(5)
			if rng.IntN(6) == 0 {
				n = 50 + rng.IntN(400) // a busy thread
			}
			for range n {
				st := []core.ThreadStatus{core.ThreadWaitBlocked, core.ThreadRunUser, core.ThreadWaitCPU}[rng.IntN(3)]
				changes = append(changes, change{"Threads/" + strconv.Itoa(tid), core.Time(rng.IntN(end)), core.Int32(int32(st))})
			}
		}
		h := build(t, end, changes)
		from, to := core.Time(rng.IntN(end/2)), core.Time(end/2+rng.IntN(end/2))
		q := &query{from: from, to: to + 1, byTID: map[int32]*threadKeys{}}
		q.findKeys(h.Attributes(), AllParts)
		want := map[int32]int64{} // tid -> its state intervals in the range, counted one key at a time
		for _, th := range q.threads {
			for _, k := range th.stateKeys() {
				if _, err := h.Query2D(context.Background(), []core.Key{k}, from, to, func(core.Interval) bool { want[th.tid]++; return true }); err != nil {
					t.Fatal(err)
				}
			}
		}
		budget := 1 + rng.IntN(200)
		batches, err := q.batches(context.Background(), h, 0, budget)
		if err != nil {
			t.Fatal(err)
		}
		var order []int32
		for _, b := range batches {
			sum := int64(0)
			for _, th := range b.threads {
				sum += want[th.tid]
				order = append(order, th.tid)
			}
			if len(b.threads) > 1 && sum > int64(budget) {
				t.Fatalf("round %d: a batch of %d threads holds %d intervals, budget %d", round, len(b.threads), sum, budget)
			}
			if b.weight != sum {
				t.Fatalf("round %d: a batch weighs %d intervals, holds %d", round, b.weight, sum)
			}
			if w := b.windows(budget); (w > 1) != (len(b.threads) == 1 && sum > int64(budget)) || int64(w)*int64(budget) < min(sum, maxWindows*int64(budget)) {
				t.Fatalf("round %d: a batch of %d threads and %d intervals is read in %d windows, budget %d", round, len(b.threads), sum, w, budget)
			}
		}
		if len(order) != len(q.threads) {
			t.Fatalf("round %d: %d threads in the batches, %d in the history", round, len(order), len(q.threads))
		}
		for i, th := range q.threads {
			if order[i] != th.tid {
				t.Fatalf("round %d: thread %d at %d in the batches, %d in the history", round, order[i], i, th.tid)
			}
		}
	}
}
