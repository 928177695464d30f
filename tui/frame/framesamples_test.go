package frame_test

import (
	"context"
	"flag"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/perfdata/perfdatatest"
	"github.com/tracetui/tracetui/ingest/trace"
	"github.com/tracetui/tracetui/tui/frame"
)

var (
	samplesSeeds = flag.Int("samples-seeds", 200, "random windows TestSampleRowsProperty tries per trace")
	samplesSeed  = flag.Uint64("samples-seed", 0, "TestSampleRowsProperty's first seed (0: random)")
)

// sample is one sample as the reader gives it: its time and thread
// attribute name (core.ThreadName: the idle thread per CPU).
type sample struct {
	t      core.Time
	thread string
}

// readSamples reads the samples of a perf.data file straight from the
// reader: the events of its non-tracepoint sampled events (cpu-clock).
func readSamples(t *testing.T, path string) []sample {
	var out []sample
	for _, s := range perfdatatest.Samples(t, path) {
		if s.Class == "cpu-clock" && s.TID >= 0 {
			out = append(out, sample{s.Time, core.ThreadName(s.TID, s.CPU)})
		}
	}
	return out
}

// recordSystemWide records a busy loop and a sleep of every CPU's cpu-clock samples with
// call stacks (idle threads, many threads), or skips.
func recordSystemWide(t *testing.T) string {
	t.Helper()
	perf, err := exec.LookPath("perf")
	if err != nil {
		t.Skip("perf is not installed: the recorded case needs it")
	}
	path := filepath.Join(t.TempDir(), "perf.data")
	cmd := exec.Command(perf, "record", "-e", "cpu-clock", "-F", "999", "-a", "-g", "-o", path, "--", "sh", "-c", "i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; sleep 0.2")
	out, err := cmd.CombinedOutput()
	if st, serr := os.Stat(path); err != nil || serr != nil || st.Size() == 0 {
		t.Skipf("perf cannot record system-wide here (root or perf_event_paranoid <= 0 is needed): %v\n%s", err, out)
	}
	return path
}

// TestSampleRowsProperty: on random windows and column counts, every
// samples row's count in each column equals the samples of its thread
// read from the reader whose time lies in the column, each known cell's
// level is SampleLevel of its count and the frame's peak, and the other
// rows of the frame (thread statuses, asked exactly, sampled or from
// summaries) are drawn as without the samples rows. On the committed
// cpu-clock -g recording (ingest/perfdata's switch.perf) and on one made
// system-wide when perf can. -samples-seeds N tries N windows per trace;
// -samples-seed S replays from seed S (each failure prints its seed).
func TestSampleRowsProperty(t *testing.T) {
	t.Run("switch.perf", func(t *testing.T) {
		checkSampleRows(t, filepath.Join("..", "..", "ingest", "perfdata", "testdata", "switch.perf"))
	})
	t.Run("recorded-system-wide", func(t *testing.T) {
		if testing.Short() {
			t.Skip("records with perf")
		}
		checkSampleRows(t, recordSystemWide(t))
	})
}

func checkSampleRows(t *testing.T, path string) {
	samples := readSamples(t, path)
	if len(samples) < 20 {
		t.Fatalf("%d samples", len(samples))
	}
	tr, err := trace.Open(context.Background(), path, index.Options{IndexPath: filepath.Join(t.TempDir(), "index")})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	h := tr.History()
	at := h.Attributes()
	// The rows: every thread with samples, its status row above it.
	byThread := map[core.Key][]core.Time{} // Samples key -> times, in order
	for _, s := range samples {
		k, ok := at.Lookup(core.AttrThreads + "/" + s.thread + "/" + core.AttrSamples)
		if !ok {
			t.Fatalf("thread %s took samples and has no %s attribute", s.thread, core.AttrSamples)
		}
		byThread[k] = append(byThread[k], s.t)
	}
	var rows, statusRows []frame.FrameRow
	for _, k := range at.Glob(core.AttrThreads + "/*/" + core.AttrSamples) {
		if byThread[k] == nil {
			t.Fatalf("%s has no sample in the trace", at.Path(k))
		}
		st := frame.FrameRow{Key: at.Parent(k), Domain: frame.DomainThread}
		rows = append(rows, st, frame.FrameRow{Key: k, Domain: frame.DomainSamples})
		statusRows = append(statusRows, st)
	}
	start, end := h.Bounds()
	base := *samplesSeed
	if base == 0 {
		base = rand.Uint64()
	}
	ctx := context.Background()
	for i := range *samplesSeeds {
		seed := base + uint64(i)
		rng := rand.New(rand.NewPCG(seed, 0))
		v := frame.Window{Start: start, End: end, Cols: 1 + rng.IntN(200)}
		if rng.IntN(4) > 0 { // else the whole trace
			span := core.Time(1 + rng.Int64N(int64(end-start+1)))
			if rng.IntN(3) == 0 {
				span = core.Time(1 + rng.Int64N(int64(v.Cols)*4)) // narrower than the columns
			}
			v = v.WithRange(start+core.Time(rng.Int64N(int64(end-start+1))), span)
		}
		req := frame.FrameRequest{Hist: h, Window: v, Rows: rows, Cursor: v.T0 + core.Time(rng.Int64N(int64(v.Span()))),
			Now: time.Now, Summary: rng.IntN(2) == 0, Rate: []float64{0, 1e-9, 1e-3}[rng.IntN(3)]}
		req.Guessed = req.Rate == 0
		f := frame.RunFrame(ctx, req)
		if f.Err != nil {
			t.Fatalf("seed %d: %v", seed, f.Err)
		}
		var peak int64
		want := make([][]int64, len(rows))
		for r, row := range rows {
			if row.Domain != frame.DomainSamples {
				continue
			}
			want[r] = make([]int64, v.Cols)
			for _, tm := range byThread[row.Key] {
				if tm < v.T0 || tm > v.T1 {
					continue
				}
				c := v.ColOf(tm)
				for c > 0 && v.ColStart(c) > tm {
					c--
				}
				for c+1 < v.Cols && v.ColStart(c+1) <= tm {
					c++
				}
				want[r][c]++
			}
			for _, n := range want[r] {
				peak = max(peak, n)
			}
		}
		if f.SamplePeak != peak {
			t.Fatalf("seed %d: window %+v: peak %d, brute force %d", seed, v, f.SamplePeak, peak)
		}
		for r := range rows {
			for c := range v.Cols {
				got, isSamples := f.SampleCount(r, c)
				if isSamples != (want[r] != nil) {
					t.Fatalf("seed %d: row %d: samples row %v, want %v", seed, r, isSamples, want[r] != nil)
				}
				if !isSamples {
					continue
				}
				if got != want[r][c] {
					t.Fatalf("seed %d: window %+v: %s column %d [%d, %d]: %d samples, brute force %d",
						seed, v, at.Path(rows[r].Key), c, v.ColStart(c), v.ColEnd(c), got, want[r][c])
				}
				cl := f.Cells[r*v.Cols+c]
				if cl.Known != (got > 0) || cl.Level != frame.SampleLevel(got, peak) {
					t.Fatalf("seed %d: %s column %d: %d samples drawn as %+v", seed, at.Path(rows[r].Key), c, got, cl)
				}
			}
		}
		// The status rows alone, asked the same way, draw the same cells.
		alone := req
		alone.Rows = statusRows
		g := frame.RunFrame(ctx, alone)
		if g.Err != nil {
			t.Fatalf("seed %d: %v", seed, g.Err)
		}
		for j := range statusRows {
			for c := range v.Cols {
				if a, b := f.Cells[2*j*v.Cols+c], g.Cells[j*v.Cols+c]; a != b {
					t.Fatalf("seed %d: %s column %d: %+v beside samples rows, %+v alone", seed, at.Path(statusRows[j].Key), c, a, b)
				}
			}
		}
	}
	t.Logf("%d windows (seeds %d..%d, -samples-seed to replay) over %d samples of %d threads",
		*samplesSeeds, base, base+uint64(*samplesSeeds)-1, len(samples), len(byThread))
}
