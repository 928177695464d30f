package history

import (
	"math"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// TestStateTableMatchesMap: the paged current-state table (12-byte
// records, wide values in pages made on demand, strings in a map) holds
// what a map of key to (value, since) holds, through random growth,
// changes of value and kind, and times over the whole int64 range.
func TestStateTableMatchesMap(t *testing.T) {
	r := coretest.Rand(t)
	type state struct {
		v     core.Value
		since core.Time
	}
	st := newStateTable()
	ref := map[core.Key]state{}
	start := core.Time(r.Int64N(1<<62)) - 1<<61
	randomTime := func() core.Time {
		switch r.IntN(4) {
		case 0:
			return core.Time([]int64{math.MinInt64, math.MaxInt64, -1, 0, 1 << 32, 1<<32 - 1}[r.IntN(6)])
		case 1:
			return core.Time(r.Uint64())
		}
		return start + core.Time(r.Int64N(1<<40))
	}
	for range 200 + r.IntN(2000) {
		switch op := r.IntN(10); {
		case op == 0: // grow, sometimes across pages
			n := st.len() + r.IntN(3)
			if r.IntN(8) == 0 && n < 3*statePageLen {
				n += statePageLen / 2
			}
			st.grow(n, start)
			for k := core.Key(len(ref)); int(k) < n; k++ {
				ref[k] = state{core.Null(), start}
			}
		case st.len() > 0:
			k := core.Key(r.IntN(st.len()))
			s := ref[k]
			if r.IntN(3) == 0 {
				s.since = randomTime()
				st.at(k).setSince(s.since)
			}
			s.v = randomValue(r)
			st.set(k, s.v)
			ref[k] = s
		}
	}
	if st.len() != len(ref) {
		t.Fatalf("len %d, want %d", st.len(), len(ref))
	}
	for k, want := range ref {
		if got := st.value(k); got != want.v && !(got.Kind() == core.KindFloat64 && want.v.Kind() == core.KindFloat64 && math.IsNaN(got.Float()) && math.IsNaN(want.v.Float())) {
			t.Fatalf("key %d: value %v (%v), want %v (%v)", k, got, got.Kind(), want.v, want.v.Kind())
		}
		if got := st.at(k).since(); got != want.since {
			t.Fatalf("key %d: since %d, want %d", k, got, want.since)
		}
	}
}
