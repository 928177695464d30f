package stats

import (
	"context"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

var windowRounds = flag.Int("window-rounds", 200, "random histories TestWindowsSameReport compares")

// TestWindowsSameReport (property): over random histories (recorder
// property test's: many short states, so that windows cut waits, calls
// and their outcomes) and ranges, a report whose threads are read in
// windows of time (a budget of 1 to 20 intervals) is deeply the one read
// whole; a failing round prints its seed.
func TestWindowsSameReport(t *testing.T) {
	rng := coretest.Rand(t)
	windowed := 0
	for round := range *windowRounds {
		seed := rng.Uint64()
		r := rand.New(rand.NewPCG(seed, 1))
		changes, end := randomChanges(r)
		h := build(t, end, changes)
		o := Options{Top: 1 + r.IntN(5)}
		if r.IntN(3) > 0 {
			a, b := core.Time(r.IntN(int(end))), core.Time(r.IntN(int(end)))
			o.From, o.To = min(a, b), max(a, b)+1
		}
		o.Scan = true
		want, err := Compute(context.Background(), h, o)
		if err != nil {
			t.Fatal(err)
		}
		o.BatchIntervals = 1 + r.IntN(20)
		got, err := Compute(context.Background(), h, o)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			a, _ := json.MarshalIndent(got, "", " ")
			b, _ := json.MarshalIndent(want, "", " ")
			t.Fatalf("round %d (seed %d, budget %d intervals): the windowed report differs from the whole one:\n%s", round, seed, o.BatchIntervals, firstDiff(a, b))
		}
		start, last := h.Bounds()
		q := &query{from: max(o.From, start), to: min(o.To, last+1), byTID: map[int32]*threadKeys{}}
		if o.To <= o.From {
			q.from, q.to = start, last+1
		}
		q.findKeys(h.Attributes(), AllParts)
		batches, err := q.batches(context.Background(), h, 0, o.BatchIntervals)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range batches {
			if b.windows(o.BatchIntervals) > 1 && q.to-q.from > 1 {
				windowed++
				break
			}
		}
	}
	if windowed < *windowRounds/2 {
		t.Fatalf("%d rounds of %d read a thread in windows", windowed, *windowRounds)
	}
}
