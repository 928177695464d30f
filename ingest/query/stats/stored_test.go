package stats

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/gen"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/states/kernel/kstats"
	"github.com/tracetui/tracetui/ingest/trace"
)

var storedSeeds = flag.Int("stored-seeds", 20, "generated traces TestStoredProperty compares (1000 once before a merge)")

// openIndexed opens path with a fresh index of its own.
func openIndexed(tb testing.TB, path string) core.History {
	tb.Helper()
	t, err := trace.Open(context.Background(), path, index.Options{IndexPath: filepath.Join(tb.TempDir(), "index")})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { t.Close() })
	return t.History()
}

// checkStored compares the whole-trace report the index stored with
// Compute's full scan, as JSON (to show where they differ) and deeply,
// for tops 1, the default and the stored one.
func checkStored(t *testing.T, what string, h core.History) {
	t.Helper()
	if _, ok := h.(sectioned); !ok {
		t.Fatalf("%s: the index's history offers no sections", what)
	}
	for _, top := range []int{1, DefaultTop, kstats.StoredTop} {
		if stored(h, top) == nil {
			t.Fatalf("%s: no stored report for top %d", what, top)
		}
		fast, err := Compute(context.Background(), h, Options{Top: top})
		if err != nil {
			t.Fatal(err)
		}
		scan, err := Compute(context.Background(), h, Options{Top: top, Scan: true})
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.MarshalIndent(fast, "", " ")
		b, _ := json.MarshalIndent(scan, "", " ")
		if !bytes.Equal(a, b) {
			t.Fatalf("%s, top %d: the stored report differs from the scan's:\n%s", what, top, firstDiff(a, b))
		}
		if !reflect.DeepEqual(fast, scan) { // the variance accumulators too
			t.Fatalf("%s, top %d: the stored report's JSON is the scan's, not its values", what, top)
		}
	}
	// a part of the statistics: the stored report's tables of those parts
	for parts := Part(1); parts < AllParts; parts++ {
		fast, err := Compute(context.Background(), h, Options{Parts: parts})
		if err != nil {
			t.Fatal(err)
		}
		scan, err := Compute(context.Background(), h, Options{Parts: parts, Scan: true})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fast, scan) {
			a, _ := json.MarshalIndent(fast, "", " ")
			b, _ := json.MarshalIndent(scan, "", " ")
			t.Fatalf("%s, parts %04b: the stored report's tables differ from the scan's:\n%s", what, parts, firstDiff(a, b))
		}
	}
	// more than stored: the scan
	if stored(h, kstats.StoredTop+1) != nil {
		t.Errorf("%s: a stored report for a top above the stored one", what)
	}
}

// firstDiff shows the lines around the first difference of a and b.
func firstDiff(a, b []byte) string {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := 0; i < min(len(la), len(lb)); i++ {
		if !bytes.Equal(la[i], lb[i]) {
			lo := max(i-12, 0)
			return "stored:\n" + string(bytes.Join(la[lo:min(i+3, len(la))], []byte("\n"))) +
				"\nscan:\n" + string(bytes.Join(lb[lo:min(i+3, len(lb))], []byte("\n")))
		}
	}
	return "lengths differ"
}

// TestStoredReal: the stored report is the scan's on every shared CTF
// trace, the committed trace.dat, perf.data and ftrace text recordings
// and a generated Chrome trace.
func TestStoredReal(t *testing.T) {
	var paths []string
	if dir := coretest.SharedTraces(t); dir != "" {
		ctfs, _ := filepath.Glob(filepath.Join(dir, "ctf", "*"))
		paths = append(paths, ctfs...)
	}
	for _, g := range []string{"../diff/testdata/*.dat", "../../tracedat/testdata/*.dat", "../../perfdata/testdata/*.data", "../../perfdata/testdata/*.perf", "../critpath/testdata/*.txt"} {
		m, _ := filepath.Glob(g)
		paths = append(paths, m...)
	}
	chrome, _ := gentest.ChromeTrace(t, 1) // another analysis's attributes
	paths = append(paths, chrome)
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			tr, err := trace.Open(context.Background(), p, index.Options{IndexPath: filepath.Join(t.TempDir(), "index")})
			if err != nil {
				t.Skipf("not a trace that opens: %v", err)
			}
			defer tr.Close()
			checkStored(t, p, tr.History())
		})
	}
}

// TestStoredProperty: the same on generated kernel traces, a seed each
// (-stored-seeds N).
func TestStoredProperty(t *testing.T) {
	for seed := uint64(1); seed <= uint64(*storedSeeds); seed++ {
		dir := filepath.Join(t.TempDir(), "gen")
		cfg := gen.Config{Threads: 1 + int(seed*7%31), CPUs: 1 + int(seed%5), Seed: seed, ForkInterval: int64(2000 + seed%5*3000)}
		if _, err := gen.Write(dir, cfg); err != nil {
			t.Fatal(err)
		}
		t.Logf("seed %d: %+v", seed, cfg)
		checkStored(t, "seed "+itoa(int32(seed)), openIndexed(t, dir))
		os.RemoveAll(dir)
	}
}

// damagedSection is a history whose stored report is damaged.
type damagedSection struct {
	core.History
	raw []byte
}

func (d damagedSection) Section(string) (*io.SectionReader, error) {
	return io.NewSectionReader(bytes.NewReader(d.raw), 0, int64(len(d.raw))), nil
}

// TestStoredDamaged: a damaged section reads as absent: Compute scans,
// and gives the scan's report, never a wrong one.
func TestStoredDamaged(t *testing.T) {
	h := openIndexed(t, "../diff/testdata/sh-1.dat")
	sec, err := h.(sectioned).Section(kstats.SectionName)
	if err != nil {
		t.Fatal(err)
	}
	raw := make([]byte, sec.Size())
	if _, err := sec.ReadAt(raw, 0); err != nil {
		t.Fatal(err)
	}
	want, err := Compute(context.Background(), h, Options{Scan: true})
	if err != nil {
		t.Fatal(err)
	}
	wrong := *want
	wrong.CPUUsage.Threads = nil // what the damaged section says
	lie, err := kstats.Encode(&wrong, kstats.StoredTop)
	if err != nil {
		t.Fatal(err)
	}
	lie[len(lie)-2] ^= 1
	for what, b := range map[string][]byte{"flipped": lie, "cut": raw[:len(raw)/2], "empty": nil} {
		got, err := Compute(context.Background(), damagedSection{h, b}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s section: the report is not the scan's", what)
		}
	}
}

// TestStoredEnv: the same on the traces listed in TRACETUI_STATS_STORED
// (comma-separated paths: big local captures; skipped when unset).
func TestStoredEnv(t *testing.T) {
	env := os.Getenv("TRACETUI_STATS_STORED")
	if env == "" {
		t.Skip("TRACETUI_STATS_STORED not set")
	}
	for _, p := range strings.Split(env, ",") {
		checkStored(t, p, openIndexed(t, p))
	}
}
