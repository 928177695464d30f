package cli

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/index/profile/profiletest"
	"github.com/tracetui/tracetui/ingest/perfdata/perfdatatest"
	"github.com/tracetui/tracetui/ingest/query/calltree"
	"github.com/tracetui/tracetui/ingest/trace"
)

var profileSeeds = flag.Int("profile-seeds", 100, "selections TestProfileProperty tries")

// committedProfile is a per-thread cpu-clock -g recording with switch
// events (ingest/perfdata's testdata).
const committedProfile = "../perfdata/testdata/switch.perf"

// pathCounts is a call tree flattened: total and self samples by call
// path ("outer;...;leaf").
type pathCounts map[string][2]int64

func flatten(root *calltree.Node) pathCounts {
	out := pathCounts{}
	var walk func(n *calltree.Node, prefix string)
	walk = func(n *calltree.Node, prefix string) {
		for _, c := range n.Children {
			p := prefix + c.Name
			if _, dup := out[p]; dup {
				out[p] = [2]int64{-1, -1} // a path twice in the tree: never equal
			} else {
				out[p] = [2]int64{int64(c.Total), int64(c.Self)}
			}
			walk(c, p+";")
		}
	}
	walk(root, "")
	return out
}

// bruteForce aggregates the samples of tids (nil: all) in [from, to).
func bruteForce(samples []perfdatatest.Sample, from, to core.Time, tids map[int64]bool) pathCounts {
	out := pathCounts{}
	for _, s := range samples {
		if s.Time < from || s.Time >= to || tids != nil && !tids[s.TID] {
			continue
		}
		p := ""
		for i := len(s.Stack) - 1; i >= 0; i-- {
			p += s.Stack[i]
			c := out[p]
			c[0]++
			if i == 0 {
				c[1]++
			}
			out[p] = c
			p += ";"
		}
	}
	return out
}

func openIndexed(t *testing.T, path string) *trace.Trace {
	t.Helper()
	tr, err := trace.Open(context.Background(), path, index.Options{IndexPath: filepath.Join(t.TempDir(), "trace.tti")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

// TestProfileProperty: the call tree of random selections of time and
// threads of a perf.data profile (total and self samples of every call
// path) equals a brute-force aggregation of the samples read from the
// reader. -profile-seeds N tries N selections (each prints its seed on
// failure).
func TestProfileProperty(t *testing.T) {
	samples := perfdatatest.Stacks(t, committedProfile)
	if len(samples) < 50 {
		t.Fatalf("%d samples", len(samples))
	}
	tr := openIndexed(t, committedProfile)
	ctx := context.Background()
	prof, err := tr.Profile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if prof.Samples() != int64(len(samples)) {
		t.Fatalf("profile of %d samples, the reader gives %d", prof.Samples(), len(samples))
	}
	tids := prof.Threads()
	first, last := samples[0].Time, samples[len(samples)-1].Time
	base := rand.Uint64()
	for i := range *profileSeeds {
		seed := base + uint64(i)
		rng := rand.New(rand.NewPCG(seed, 0))
		span := int64(last-first) + 20
		at := func() core.Time { // half the bounds on a sample: equal times count
			if rng.IntN(2) == 0 {
				return samples[rng.IntN(len(samples))].Time
			}
			return first - 10 + core.Time(rng.Int64N(span))
		}
		from, to := at(), at()
		if to < from {
			from, to = to, from
		}
		var sel []int64
		var set map[int64]bool
		if rng.IntN(3) > 0 {
			set = map[int64]bool{}
			sel = []int64{}
			for _, tid := range tids {
				if rng.IntN(2) == 0 {
					sel = append(sel, tid)
					set[tid] = true
				}
			}
		}
		root, err := profileTree(ctx, prof, from, to, sel)
		if err != nil {
			t.Fatal(err)
		}
		got, want := flatten(root), bruteForce(samples, from, to, set)
		if !equalCounts(got, want) {
			t.Fatalf("seed %d: [%d, %d) threads %v: tree %v, brute force %v", seed, from, to, sel, got, want)
		}
		var sum int64
		for _, c := range root.Children {
			sum += int64(c.Total)
		}
		if int64(root.Total) != sum {
			t.Fatalf("seed %d: root total %d, children %d", seed, root.Total, sum)
		}
	}
	t.Logf("%d selections (seeds %d..%d) over %d samples of %d threads", *profileSeeds, base, base+uint64(*profileSeeds)-1, len(samples), len(tids))
}

func equalCounts(a, b pathCounts) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

var reportRow = regexp.MustCompile(`^\s*(\d+)\s+\[[.kgus]\]\s+(.*?)\s*$`)

// TestProfileVsPerfReport: over the whole trace, the call tree's self
// samples summed by function equal `perf report --stdio --no-children`'s
// sample counts by symbol, on a profile recorded in the test.
func TestProfileVsPerfReport(t *testing.T) {
	perf, err := exec.LookPath("perf")
	if err != nil {
		t.Skip("perf is not installed (Debian: linux-perf): no peer to compare with")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "perf.data")
	cmd := exec.Command(perf, "record", "-e", "cpu-clock", "-F", "999", "-g", "-o", path, "--",
		"sh", "-c", "dd if=/dev/zero bs=1M count=100 2>/dev/null | sha256sum >/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("perf record cannot record here: %v\n%s", err, out)
	}
	out, err := exec.Command(perf, "report", "-i", path, "--stdio", "--no-children", "-g", "none", "--sort", "sym", "-F", "sample,sym").Output()
	if err != nil {
		t.Fatalf("perf report: %v", err)
	}
	want := map[string]int64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := reportRow.FindStringSubmatch(sc.Text())
		if m == nil || strings.HasPrefix(strings.TrimSpace(sc.Text()), "#") {
			continue
		}
		n, _ := strconv.ParseInt(m[1], 10, 64)
		name := m[2]
		if a, err := strconv.ParseUint(strings.TrimPrefix(name, "0x"), 16, 64); err == nil && strings.HasPrefix(name, "0x") {
			name = core.FormatAddress(a)
		}
		want[name] += n
	}
	tr := openIndexed(t, path)
	ctx := context.Background()
	prof, err := tr.Profile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	start, end := tr.History().Bounds()
	root, err := profileTree(ctx, prof, start, end+1, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	var walk func(n *calltree.Node)
	walk = func(n *calltree.Node) {
		for _, c := range n.Children {
			if c.Self > 0 {
				got[c.Name] += int64(c.Self)
			}
			walk(c)
		}
	}
	walk(root)
	if len(want) < 3 {
		t.Fatalf("perf report: %d rows\n%s", len(want), out)
	}
	bad := 0
	for k, n := range want {
		if got[k] != n && bad < 10 {
			t.Errorf("%s: %d samples, perf report %d", k, got[k], n)
			bad++
		}
	}
	for k, n := range got {
		if _, ok := want[k]; !ok && bad < 10 {
			t.Errorf("%s: %d samples, not in perf report", k, n)
			bad++
		}
	}
	t.Logf("%d functions, %d samples", len(want), root.Total)
}

// synthStacks is a Stacker source of n samples of 8 threads, each stack
// one of 5000 random paths 8 to 40 frames deep over 2000 functions.
type synthStacks struct {
	core.Source // only Next is called
	cl          *core.EventClass
	n, i        int
	rng         *rand.Rand
	paths       [][]string
	ev          core.Event
	fields      []core.Field
	cur         []string
}

func newSynthStacks(n int) *synthStacks {
	rng := rand.New(rand.NewPCG(1, 2))
	names := make([]string, 2000)
	for i := range names {
		names[i] = "fn" + strconv.Itoa(i)
	}
	s := &synthStacks{n: n, rng: rng, cl: &core.EventClass{Name: "cpu-clock", Fields: core.ThreadContextFields()}}
	for range 5000 {
		p := make([]string, 8+rng.IntN(33))
		for j := range p {
			p[j] = names[rng.IntN(len(names))]
		}
		s.paths = append(s.paths, p)
	}
	s.fields = make([]core.Field, len(s.cl.Fields))
	return s
}

func (s *synthStacks) Next() (*core.Event, error) {
	if s.i >= s.n {
		return nil, io.EOF
	}
	s.i++
	s.fields[s.cl.FieldIndex(core.FieldTID)] = core.Field{Kind: core.FieldInt, Int: int64(1 + s.rng.IntN(8))}
	s.ev = core.Event{Time: core.Time(s.i * 1000), Class: s.cl, Fields: s.fields}
	s.cur = s.paths[s.rng.IntN(len(s.paths))]
	return &s.ev, nil
}
func (s *synthStacks) AppendStack(dst []string) []string { return append(dst, s.cur...) }

// BenchmarkProfileSelection: the call tree of a 1M-sample selection (4
// of 8 threads, the whole range) of a profile held in memory; its build
// from the source is logged once.
func BenchmarkProfileSelection(b *testing.B) {
	ctx := context.Background()
	const n = 2_000_000
	t0 := time.Now()
	prof := profiletest.FromSource(b, newSynthStacks(n))
	b.Logf("profile of %d samples built in %v, %d paths", prof.Samples(), time.Since(t0), prof.Len())
	b.ResetTimer()
	for b.Loop() {
		root, err := profileTree(ctx, prof, 0, n*1000+1, []int64{1, 3, 5, 7})
		if err != nil || root.Total < n/2-n/50 {
			b.Fatalf("%v %d", err, root.Total)
		}
	}
}

// BenchmarkProfileFile: TRACETUI_PERF_BENCH=FILE (a perf.data with
// samples), indexed once: what the first F of a browser costs, the
// trace's profile opened from the index and the call tree of every
// sample (all threads, the whole trace), on a trace opened anew each
// time. The index's build and the samples are logged.
//
//	TRACETUI_PERF_BENCH=FILE go test ./ingest/cli -run '^$' -bench ProfileFile -benchtime 10x
func BenchmarkProfileFile(b *testing.B) {
	path := os.Getenv("TRACETUI_PERF_BENCH")
	if path == "" {
		b.Skip("TRACETUI_PERF_BENCH=FILE names the perf.data to profile")
	}
	ctx := context.Background()
	opts := index.Options{IndexPath: filepath.Join(b.TempDir(), "trace.tti")}
	t0 := time.Now()
	tr, err := trace.Open(ctx, path, opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("indexed in %v", time.Since(t0))
	tr.Close()
	var samples int64
	b.ResetTimer()
	for b.Loop() {
		tr, err := trace.Open(ctx, path, opts)
		if err != nil {
			b.Fatal(err)
		}
		prof, err := tr.Profile(ctx)
		if err != nil {
			b.Fatal(err)
		}
		start, end := tr.History().Bounds()
		root, err := profileTree(ctx, prof, start, end+1, nil)
		if err != nil {
			b.Fatal(err)
		}
		samples = int64(root.Total)
		tr.Close()
	}
	b.ReportMetric(float64(samples), "samples")
}
