package frame_test

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
	"github.com/tracetui/tracetui/tui/frame"
)

// BenchmarkFrameSampleRows measures a 200-column frame of 8 threads'
// status and samples rows (16 rows) on an on-disk R-SHT where thread 1
// took 1 M samples and threads 2-8 100 k each (a sample every 10 us over
// 10 s, the status switching every 1 ms), over the whole trace and zoomed
// in 1000 times, with and without the samples rows: their cost is one
// point read per column boundary, whatever the samples in the window.
//
//	go test ./tui/frame -run '^$' -bench FrameSampleRows
func BenchmarkFrameSampleRows(b *testing.B) {
	const threads, span = 8, core.Time(10e9)
	path := filepath.Join(b.TempDir(), "samples.rsht")
	bld, err := history.Create(path, 0, history.Options{Summarise: core.SummaryRule})
	if err != nil {
		b.Fatal(err)
	}
	at := bld.Attributes()
	status := make([]core.Key, threads)
	samples := make([]core.Key, threads)
	for i := range threads {
		status[i] = at.AddPath(core.AttrThreads, strconv.Itoa(i+1))
		samples[i] = at.AddPath(core.AttrThreads, strconv.Itoa(i+1), core.AttrSamples)
	}
	counts := make([]int64, threads)
	for t := core.Time(0); t < span; t += 10_000 {
		if t%1_000_000 == 0 {
			for i := range threads {
				if err := bld.Modify(status[i], t, core.Int32(int32(1+(int(t/1_000_000)+i)%2))); err != nil {
					b.Fatal(err)
				}
			}
		}
		for i := range threads {
			if i == 0 || (t/10_000)%10 == core.Time(i) { // thread 1 every 10 us, the others every 100 us
				counts[i]++
				if err := bld.Modify(samples[i], t, core.Int64(counts[i])); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	if err := bld.Close(span); err != nil {
		b.Fatal(err)
	}
	tree, err := history.Open(path, history.OpenOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer tree.Close()
	var withRows, statusRows []frame.FrameRow
	for i := range threads {
		st := frame.FrameRow{Key: status[i], Domain: frame.DomainThread}
		withRows = append(withRows, st, frame.FrameRow{Key: samples[i], Domain: frame.DomainSamples})
		statusRows = append(statusRows, st)
	}
	whole := frame.Window{Start: 0, End: span, Cols: 200}.Whole()
	for _, v := range []struct {
		name string
		w    frame.Window
	}{{"whole", whole}, {"zoom1000", whole.WithRange(span/2, span/1000)}} {
		for _, r := range []struct {
			name string
			rows []frame.FrameRow
		}{{"samples", withRows}, {"status-only", statusRows}} {
			b.Run(v.name+"/"+r.name, func(b *testing.B) {
				var rate float64
				intervals := 0
				cpu := gentest.CPUTime()
				for b.Loop() {
					f := frame.RunFrame(context.Background(), frame.FrameRequest{Hist: tree, Window: v.w, Rows: r.rows, Cursor: v.w.T0,
						Now: time.Now, Summary: true, Rate: rate, Guessed: rate == 0})
					if f.Err != nil {
						b.Fatal(f.Err)
					}
					rate, intervals = f.Rate, f.Intervals
				}
				b.ReportMetric(float64(intervals), "intervals/frame")
				// The machine is shared: CPU time is steadier than wall time.
				b.ReportMetric(float64((gentest.CPUTime()-cpu).Microseconds())/1e3/float64(b.N), "cpu-ms/op")
			})
		}
	}
}
