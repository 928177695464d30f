package history

import (
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
)

// openChecked opens the index at path, runs Check on it, and closes it
// when the test ends: every tree a test builds goes through it.
func openChecked(t testing.TB, path string, opts OpenOptions) *Tree {
	t.Helper()
	tr, err := Open(path, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { tr.Close() })
	if err := tr.Check(); err != nil {
		t.Fatalf("Check: %v", err)
	}
	return tr
}

// sink is what MemHistory and Builder share.
type sink interface {
	core.StateSink
	Close(core.Time) error
}

// scenario is a random sequence of state changes, replayed identically on
// several sinks.
type scenario struct {
	start, end core.Time
	ops        []scenarioOp
}

type scenarioOp struct {
	path []string // non-nil: add this attribute
	key  core.Key
	t    core.Time
	v    core.Value
}

// randomValue draws from a small palette (so equal values repeat) and,
// sometimes, from every kind's extremes.
func randomValue(r *rand.Rand) core.Value {
	switch r.IntN(14) {
	case 0:
		return core.Null()
	case 1, 2, 3, 4:
		return core.Int32(int32(r.IntN(8))) // inline values 0..6 and one above
	case 5:
		return core.Int32([]int32{-1, math.MinInt32, math.MaxInt32, 1000}[r.IntN(4)])
	case 6:
		return core.Int64([]int64{0, -5, math.MinInt64, math.MaxInt64, 1 << 40}[r.IntN(5)])
	case 7:
		return core.Float64([]float64{0, math.Copysign(0, -1), 2.5, math.NaN(), math.Inf(-1)}[r.IntN(5)])
	case 8:
		if r.IntN(20) == 0 {
			return core.String(strings.Repeat("é", core.MaxStringLen/2)) // the longest value
		}
		return core.String(strings.Repeat("x", r.IntN(40)))
	default:
		return core.String([]string{"", "bash", "swapper/0", "日本語", "kworker/u8:2"}[r.IntN(5)])
	}
}

// randomScenario makes about n changes over up to keys attributes, some
// created along the way, with same-instant and equal-value changes.
func randomScenario(r *rand.Rand, n, keys int) *scenario {
	s := &scenario{start: core.Time(r.Int64N(1e9)) - 1e6}
	// Paths of several shapes (attribute classes): entities numbered
	// ("t7", "42") with named attributes below them, as a kernel analysis
	// makes them, sometimes one entity's attributes in a row.
	entity := func() string {
		if r.IntN(2) == 0 {
			return strconv.Itoa(r.IntN(300))
		}
		return string(rune('a'+r.IntN(26))) + string(rune('0'+r.IntN(10)))
	}
	names := []string{"Exec_name", "PPID", "Status", "IRQs"}
	segs := func() []string {
		p := []string{[]string{"Threads", "CPUs", "Misc"}[r.IntN(3)]}
		for range r.IntN(3) {
			if len(p) > 1 && r.IntN(2) == 0 {
				p = append(p, names[r.IntN(len(names))])
			} else {
				p = append(p, entity())
			}
		}
		return p
	}
	tr := core.NewAttributeTree()
	add := func() {
		p := segs()
		s.ops = append(s.ops, scenarioOp{path: p})
		tr.AddPath(p...)
		if len(p) > 1 && r.IntN(3) == 0 { // siblings of the same entity next
			for _, name := range names[:1+r.IntN(len(names))] {
				q := append(slices.Clone(p[:len(p)-1]), name)
				s.ops = append(s.ops, scenarioOp{path: q})
				tr.AddPath(q...)
			}
		}
	}
	for range 1 + r.IntN(max(1, keys/2)) {
		add()
	}
	now := s.start
	step := 1 + r.Int64N(5000)
	for range n {
		if tr.Len() < keys && r.IntN(20) == 0 {
			add()
		}
		if r.IntN(3) > 0 {
			now += core.Time(r.Int64N(step))
		}
		k := core.Key(r.IntN(tr.Len()))
		s.ops = append(s.ops, scenarioOp{key: k, t: now, v: randomValue(r)})
	}
	s.end = now + core.Time(r.Int64N(3))
	if tr.Len() < keys {
		add() // a key never changed: null over the whole trace
	}
	return s
}

func (s *scenario) replay(t testing.TB, sk sink) {
	t.Helper()
	for _, op := range s.ops {
		if op.path != nil {
			sk.Attributes().AddPath(op.path...)
			continue
		}
		if err := sk.Modify(op.key, op.t, op.v); err != nil {
			t.Fatalf("Modify(%d, %d, %v): %v", op.key, op.t, op.v, err)
		}
	}
	if err := sk.Close(s.end); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// buildScenario builds s into a new index with opts and returns its path.
func buildScenario(t testing.TB, s *scenario, opts Options) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "index")
	b, err := Create(path, s.start, opts)
	if err != nil {
		t.Fatal(err)
	}
	s.replay(t, b)
	return path
}

func collect(t testing.TB, q func(fn func(core.Interval) bool) (core.QueryStats, error)) []core.Interval {
	t.Helper()
	var out []core.Interval
	if _, err := q(func(iv core.Interval) bool { out = append(out, iv); return true }); err != nil {
		t.Fatal(err)
	}
	core.SortIntervals(out)
	return out
}

func allKeys(h core.History) []core.Key {
	ks := make([]core.Key, h.Attributes().Len())
	for i := range ks {
		ks[i] = core.Key(i)
	}
	return ks
}

var bg = context.Background()
