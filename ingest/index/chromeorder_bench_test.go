package index

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/tracetui/tracetui/ingest"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
)

// BenchmarkChromeTableOpen measures what the browser's event table waits
// for on an indexed Chrome trace before its first page (50 events): a
// reader of the trace and its first events. It alternates, in the same
// run, the persisted order (this index's chrome-order section) and the
// sorting reader used before (first pass and external sort of the whole
// trace), and reports both and their ratio. Size from
// $TRACETUI_CHROME_BENCH_MB (default 64):
//
//	TRACETUI_CHROME_BENCH_MB=100 go test ./ingest -run '^$' -bench ChromeTableOpen -benchtime 3x
func BenchmarkChromeTableOpen(b *testing.B) {
	benchChromeReaders(b, 50)
}

// BenchmarkChromeFullScan is BenchmarkChromeTableOpen reading every event
// (what a filter or the statistics over the whole trace do): the
// persisted order parses each event where it lies, the sorting reader
// decodes its runs after sorting.
//
//	TRACETUI_CHROME_BENCH_MB=100 go test ./ingest -run '^$' -bench ChromeFullScan -benchtime 1x
func BenchmarkChromeFullScan(b *testing.B) {
	benchChromeReaders(b, -1)
}

// benchChromeReaders opens a reader of an indexed generated Chrome trace
// both ways and reads n events (all when n < 0).
func benchChromeReaders(b *testing.B, n int) {
	path, events := gentest.ChromeTrace(b, chromeBenchMB(b))
	idx := filepath.Join(b.TempDir(), "chrome.tti")
	ix, err := Open(context.Background(), path, Options{IndexPath: idx})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if ix.sources.order == nil {
		b.Fatal("no persisted order in the index")
	}
	if n < 0 {
		n = int(events)
	}
	read := func(p *sourcePool) time.Duration {
		began := time.Now()
		src, err := p.open()
		if err != nil {
			b.Fatal(err)
		}
		for range n {
			if _, err := src.Next(); err != nil {
				b.Fatal(err)
			}
		}
		d := time.Since(began)
		src.Close()
		p.close()
		return d
	}
	var sorting, persisted time.Duration
	b.ResetTimer()
	for range b.N {
		env := ingest.OpenEnv{TempDir: b.TempDir()}
		sorting += read(&sourcePool{path: path, format: "chrome", env: env})
		persisted += read(&sourcePool{path: path, format: "chrome", env: env, order: ix.sources.order, damage: ix.damage})
	}
	b.ReportMetric(float64(sorting.Microseconds())/1000/float64(b.N), "sorting-ms")
	b.ReportMetric(float64(persisted.Microseconds())/1000/float64(b.N), "persisted-ms")
	b.ReportMetric(float64(sorting)/float64(persisted), "ratio")
	if sec, err := ix.Tree().Section(sectionChromeOrder); err == nil {
		b.ReportMetric(float64(sec.Size())/float64(events), "order-B/event")
		b.ReportMetric(float64(events), "events")
	}
}
