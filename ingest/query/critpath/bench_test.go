package critpath

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/ftrace"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
)

// BenchmarkCriticalPath computes the critical path of the busiest thread
// (most status changes) over the whole trace from an R-SHT index on
// disk, cold cache each time (the index is reopened), next to its peer:
// one pass decoding the trace, the least a path computed by re-reading
// the trace would cost. Traces: a generated one and the real recording
// build.txt in $TRACETUI_RECORDINGS (skipped when absent).
//
//	go test -run '^$' -bench CriticalPath -benchtime 10x ./ingest/query/critpath/
func BenchmarkCriticalPath(b *testing.B) {
	open := map[string]func() (core.Source, []*core.EventClass, error){
		"gen-2000": func() (core.Source, []*core.EventClass, error) {
			src, err := ctf.Open(gentest.Trace(b, 2000))
			if err != nil {
				return nil, nil, err
			}
			return src, src.Classes(), nil
		},
		"rec-build": func() (core.Source, []*core.EventClass, error) {
			src, err := ftrace.Open(coretest.Recording(b, "build.txt"), ftrace.Options{})
			return src, nil, err
		},
	}
	for _, name := range []string{"gen-2000", "rec-build"} {
		b.Run(name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "h.rsht")
			src, classes, err := open[name]()
			if err != nil {
				b.Fatal(err)
			}
			busiest := indexToFile(b, src, classes, path)
			src.Close()
			b.Run("critpath-from-index", func(b *testing.B) {
				var p *Path
				cpu0 := coretest.CPUTime()
				for i := 0; i < b.N; i++ {
					h, err := history.Open(path, history.OpenOptions{})
					if err != nil {
						b.Fatal(err)
					}
					start, end := h.Bounds()
					if p, err = Compute(context.Background(), h, busiest, start, end+1, Options{}); err != nil {
						b.Fatal(err)
					}
					h.Close()
				}
				b.ReportMetric(float64((coretest.CPUTime()-cpu0).Nanoseconds())/1e6/float64(b.N), "cpu-ms/op")
				b.ReportMetric(float64(len(p.Segments)), "segments")
				b.ReportMetric(float64(p.Work), "edges-visited")
			})
			b.Run("peer-decode-trace", func(b *testing.B) {
				cpu0 := coretest.CPUTime()
				defer func() { b.ReportMetric(float64((coretest.CPUTime()-cpu0).Nanoseconds())/1e6/float64(b.N), "cpu-ms/op") }()
				for i := 0; i < b.N; i++ {
					src, _, err := open[name]()
					if err != nil {
						b.Fatal(err)
					}
					for {
						if _, err := src.Next(); err != nil {
							if !errors.Is(err, io.EOF) {
								b.Fatal(err)
							}
							break
						}
					}
					src.Close()
				}
			})
		})
	}
}

// countingSink counts each key's state changes on the way to a builder.
type countingSink struct {
	*history.Builder
	changes map[core.Key]int
}

func (s countingSink) Modify(k core.Key, t core.Time, v core.Value) error {
	s.changes[k]++
	return s.Builder.Modify(k, t, v)
}

// indexToFile runs the kernel analysis over src into an R-SHT file and
// returns the thread with the most status changes.
func indexToFile(b *testing.B, src core.Source, classes []*core.EventClass, path string) Worker {
	var sink countingSink
	last := analyze(b, src, classes, func(start core.Time) core.StateSink {
		bl, err := history.Create(path, start, history.Options{})
		if err != nil {
			b.Fatal(err)
		}
		sink = countingSink{bl, map[core.Key]int{}}
		return sink
	})
	tree := sink.Attributes()
	threads, _ := tree.Child(core.Root, core.AttrThreads)
	best, most := Worker{}, 0
	for _, k := range tree.Children(threads) {
		tid, err := strconv.Atoi(tree.Name(k))
		if err == nil && tid > 0 && sink.changes[k] > most {
			best, most = Worker{TID: int32(tid), CPU: -1}, sink.changes[k]
		}
	}
	if err := sink.Close(last); err != nil {
		b.Fatal(err)
	}
	if st, err := os.Stat(path); err == nil {
		b.Logf("%d bytes; busiest thread %d (%d status changes)", st.Size(), best.TID, most)
	}
	return best
}
