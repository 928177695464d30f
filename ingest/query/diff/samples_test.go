package diff

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/perfdata/perfdatatest"
	"github.com/tracetui/tracetui/ingest/trace"
)

// The committed profiles: `perf record -e cpu-clock -F 999 -g` of
// `dd if=/dev/zero bs=1M count=N | sha256sum`, N = 30 (base) and 60 (new).
const (
	baseProfile = "testdata/base.data"
	newProfile  = "testdata/new.data"
)

// bruteSelf counts the samples in [from, to) of threads tids (nil: all)
// by call path ("outer;...;leaf").
func bruteSelf(samples []perfdatatest.Sample, from, to core.Time, tids []int64) map[string]int64 {
	out := map[string]int64{}
	for _, s := range samples {
		if s.Time < from || s.Time >= to || tids != nil && !slices.Contains(tids, s.TID) {
			continue
		}
		path := slices.Clone(s.Stack)
		slices.Reverse(path)
		out[strings.Join(path, ";")]++
	}
	return out
}

// profileSide opens a perf.data profile as a diff side.
func profileSide(t *testing.T, path string) (Side, *trace.Trace) {
	t.Helper()
	tr, err := trace.Open(context.Background(), path, index.Options{IndexPath: filepath.Join(t.TempDir(), "index")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return Side{Name: path, History: tr.History(), Profile: func(ctx context.Context) (Profile, error) {
		p, err := tr.Profile(ctx)
		if err != nil {
			return nil, err
		}
		return p, nil
	}}, tr
}

// checkPaths compares the call-tree rows with the brute-force counts:
// every path of either side once, its base and new counts, delta = new -
// base, sorted by the size of the change.
func checkPaths(t *testing.T, what string, rows []PathRow, base, next map[string]int64) {
	t.Helper()
	keys := keysOf(base, next)
	if len(rows) != len(keys) {
		t.Fatalf("%s: %d rows, brute force has %d paths", what, len(rows), len(keys))
	}
	for j, r := range rows {
		if r.BaseSelf != base[r.Path] || r.NewSelf != next[r.Path] || r.DeltaSelf != r.NewSelf-r.BaseSelf {
			t.Fatalf("%s: %+v, brute force base %d new %d", what, r, base[r.Path], next[r.Path])
		}
		if j > 0 && abs(r.DeltaSelf) > abs(rows[j-1].DeltaSelf) {
			t.Fatalf("%s: not sorted by change: %d after %d", what, r.DeltaSelf, rows[j-1].DeltaSelf)
		}
	}
}

// TestCallTreeSamples (property): the call-tree diff of two perf.data
// profiles, whole or random ranges of each (and two ranges of one), is
// the brute-force count of the reader's samples per call path on each
// side, in samples (the unit says so); Compute and CallTree agree.
func TestCallTreeSamples(t *testing.T) {
	rng := coretest.Rand(t)
	ctx := context.Background()
	bs, _ := profileSide(t, baseProfile)
	ns, _ := profileSide(t, newProfile)
	bSamples, nSamples := perfdatatest.Stacks(t, baseProfile), perfdatatest.Stacks(t, newProfile)
	if len(bSamples) < 30 || len(nSamples) < 30 {
		t.Fatalf("%d and %d samples", len(bSamples), len(nSamples))
	}
	whole := func(s []perfdatatest.Sample) (core.Time, core.Time) { return s[0].Time, s[len(s)-1].Time + 1 }
	randomRange := func(s []perfdatatest.Sample) (core.Time, core.Time) {
		from, to := whole(s)
		a, b := from+core.Time(rng.Int64N(int64(to-from))), from+core.Time(rng.Int64N(int64(to-from)))
		if rng.IntN(2) == 0 { // a bound on a sample: equal times count
			a = s[rng.IntN(len(s))].Time
		}
		return min(a, b), max(a, b) + 1
	}
	for round := range 40 {
		b, n := bs, ns
		bAll, nAll := bSamples, nSamples
		switch round % 4 {
		case 1: // two ranges of one profile
			n, nAll = bs, bSamples
		case 2: // reversed
			b, n, bAll, nAll = ns, bs, nSamples, bSamples
		}
		bFrom, bTo := whole(bAll)
		nFrom, nTo := whole(nAll)
		b.From, b.To, n.From, n.To = 0, 0, 0, 0 // round 0: the whole profiles
		if round > 0 {
			bFrom, bTo = randomRange(bAll)
			nFrom, nTo = randomRange(nAll)
			b.From, b.To, n.From, n.To = bFrom, bTo, nFrom, nTo
		}
		want := [2]map[string]int64{bruteSelf(bAll, bFrom, bTo, nil), bruteSelf(nAll, nFrom, nTo, nil)}
		r, err := Compute(ctx, b, n, Options{Top: MaxTop, CallTree: true})
		if err != nil {
			t.Fatal(err)
		}
		if r.CallTreeUnit != UnitSamples {
			t.Fatalf("round %d: unit %q", round, r.CallTreeUnit)
		}
		what := fmt.Sprintf("round %d: [%d, %d) against [%d, %d)", round, bFrom, bTo, nFrom, nTo)
		checkPaths(t, what, r.CallTree, want[0], want[1])
		tr, err := CallTree(ctx, b, n, MaxTop)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Unit != UnitSamples || !slices.Equal(tr.Rows, r.CallTree) || !tr.New.Samples {
			t.Fatalf("round %d: CallTree unit %q, %d rows, Compute %d", round, tr.Unit, len(tr.Rows), len(r.CallTree))
		}
		if round == 0 && len(r.CallTree) < 20 {
			t.Fatalf("whole profiles: %d call paths", len(r.CallTree))
		}
	}
	// A profile with itself: all zeros.
	r, err := Compute(ctx, bs, bs, Options{Top: MaxTop, CallTree: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.CallTree {
		if p.DeltaSelf != 0 || p.BaseSelf == 0 {
			t.Fatalf("self diff: %+v", p)
		}
	}
}

// TestCallTreeUnits: samples against timed call stacks is an error that
// says so; a side without call paths takes the other's unit.
func TestCallTreeUnits(t *testing.T) {
	ctx := context.Background()
	prof, _ := profileSide(t, baseProfile)
	stacks := Side{Name: "clang", History: open(t, "../../../testdata/chrome/clang-ftime-trace.json")}
	_, err := Compute(ctx, prof, stacks, Options{CallTree: true})
	if err == nil || !strings.Contains(err.Error(), "cannot be compared") {
		t.Fatalf("samples against call stacks: %v", err)
	}
	none := prof
	none.From, none.To = 1, 2 // no sample
	r, err := Compute(ctx, none, prof, Options{Top: MaxTop, CallTree: true})
	if err != nil || r.CallTreeUnit != UnitSamples || len(r.CallTree) == 0 {
		t.Fatalf("empty range against the profile: %v, unit %q, %d rows", err, r.CallTreeUnit, len(r.CallTree))
	}
	r, err = Compute(ctx, stacks, stacks, Options{CallTree: true})
	if err != nil || r.CallTreeUnit != UnitNS || len(r.CallTree) == 0 {
		t.Fatalf("call stacks: %v, unit %q, %d rows", err, r.CallTreeUnit, len(r.CallTree))
	}
}

// TestThreadsSamples: a selection of threads counts their samples only
// (against the brute force over those threads).
func TestThreadsSamples(t *testing.T) {
	rng := coretest.Rand(t)
	ctx := context.Background()
	side, _ := profileSide(t, "../../perfdata/testdata/switch.perf")
	samples := perfdatatest.Stacks(t, "../../perfdata/testdata/switch.perf")
	var tids []int64
	for _, s := range samples {
		if !slices.Contains(tids, s.TID) {
			tids = append(tids, s.TID)
		}
	}
	if len(tids) < 2 {
		t.Fatalf("threads with samples: %v", tids)
	}
	for round := range 10 {
		pick := func() []int64 { return []int64{tids[rng.IntN(len(tids))]} }
		a, b := pick(), pick()
		bs, ns := side, side
		bs.Threads, ns.Threads = []int32{int32(a[0])}, []int32{int32(b[0])}
		r, err := Compute(ctx, bs, ns, Options{Top: MaxTop, CallTree: true})
		if err != nil {
			t.Fatal(err)
		}
		checkPaths(t, fmt.Sprintf("round %d: threads %v against %v", round, a, b), r.CallTree,
			bruteSelf(samples, 0, 1<<62, a), bruteSelf(samples, 0, 1<<62, b))
	}
}
