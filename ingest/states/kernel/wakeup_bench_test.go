package kernel

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/ftrace"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
)

// BenchmarkWakeLinks is the cost of wake-up links: the kernel analysis
// writing an R-SHT file, with links and without, over a generated trace
// and a real recording (build.txt in $TRACETUI_RECORDINGS, skipped when absent).
// ns/event and cpu-ns/event are per event (CPU time includes the
// garbage collector's); index-bytes is the R-SHT file's size.
//
//	go test -run '^$' -bench WakeLinks -benchtime 3x ./ingest/states/kernel/
func BenchmarkWakeLinks(b *testing.B) {
	traces := map[string]func() ([]core.Event, *Layout){
		"gen-2000": func() ([]core.Event, *Layout) {
			src, err := ctf.Open(gentest.Trace(b, 2000))
			if err != nil {
				b.Fatal(err)
			}
			defer src.Close()
			return copyEvents(b, src), Detect(src.Info(), src.Classes())
		},
		"rec-build": func() ([]core.Event, *Layout) {
			src, err := ftrace.Open(coretest.Recording(b, "build.txt"), ftrace.Options{})
			if err != nil {
				b.Skipf("recording absent: %v", err)
			}
			defer src.Close()
			return copyEvents(b, src), LayoutFtrace
		},
	}
	for _, name := range []string{"gen-2000", "rec-build"} {
		b.Run(name, func(b *testing.B) {
			events, layout := traces[name]()
			for _, links := range []bool{false, true} {
				b.Run(map[bool]string{false: "links=off", true: "links=on"}[links], func(b *testing.B) {
					path := filepath.Join(b.TempDir(), "h.rsht")
					var size int64
					var cpu time.Duration
					for i := 0; i < b.N; i++ {
						c0 := coretest.CPUTime()
						size = indexEvents(b, path, events, layout, !links)
						cpu += coretest.CPUTime() - c0
					}
					b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(len(events)), "cpu-ns/event")
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(events)), "ns/event")
					b.ReportMetric(float64(size), "index-bytes")
				})
			}
		})
	}
}

// indexEvents runs the analysis over events into an R-SHT file and
// returns its size.
func indexEvents(b *testing.B, path string, events []core.Event, layout *Layout, noLinks bool) int64 {
	h, err := history.Create(path, events[0].Time, history.Options{})
	if err != nil {
		b.Fatal(err)
	}
	a := New(h, layout)
	a.links.off = noLinks
	for i := range events {
		if err := a.Handle(&events[i]); err != nil {
			b.Fatal(err)
		}
	}
	if err := h.Close(events[len(events)-1].Time); err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return st.Size()
}

// copyEvents reads every event of src into memory.
func copyEvents(tb testing.TB, src core.Source) []core.Event {
	var events []core.Event
	coretest.ForEachEvent(tb, src, func(ev *core.Event) {
		c := *ev
		c.Fields = append([]core.Field(nil), ev.Fields...)
		for i := range c.Fields {
			c.Fields[i].Bytes = append([]byte(nil), c.Fields[i].Bytes...)
		}
		events = append(events, c)
	})
	return events
}
