package index

import (
	"errors"
	"io"
	"os"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/gen"
	"github.com/tracetui/tracetui/ingest/states"
	"github.com/tracetui/tracetui/ingest/states/kernel/kstats"
)

// replaySink keeps the current values only: the changes the analyses
// make, recorded once, are replayed into recorders over it.
type replaySink struct {
	tree    *core.AttributeTree
	cur     []core.Value
	changes []replayed
}

type replayed struct {
	key core.Key
	t   core.Time
	v   core.Value
}

func (s *replaySink) Attributes() *core.AttributeTree { return s.tree }

func (s *replaySink) Modify(k core.Key, t core.Time, v core.Value) error {
	for int(k) >= len(s.cur) {
		s.cur = append(s.cur, core.Null())
	}
	s.cur[k] = v
	if s.changes != nil {
		s.changes = append(s.changes, replayed{k, t, v})
	}
	return nil
}

func (s *replaySink) Value(k core.Key) core.Value {
	if int(k) < len(s.cur) {
		return s.cur[k]
	}
	return core.Null()
}

// BenchmarkRecorderManyThreads measures what following every thread of
// the article's many-threads trace costs the whole-trace statistics
// recorder (kstats): the kernel analysis' changes over a generated trace
// of TRACETUI_RECORDER_THREADS threads (default 50 000) are recorded
// once, then each round replays them into a recorder with no bound on
// threads and encodes its section. The analysis and the history are not
// timed.
func BenchmarkRecorderManyThreads(b *testing.B) {
	threads := 50_000
	if s := os.Getenv("TRACETUI_RECORDER_THREADS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			b.Fatal(err)
		}
		threads = n
	}
	dir := b.TempDir()
	if _, err := gen.Write(dir, gen.Config{Threads: threads, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	src, err := ctf.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	sink := &replaySink{tree: core.NewAttributeTree(), changes: []replayed{}}
	var analyses []states.Analysis
	var start, end core.Time
	for {
		ev, err := src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		if analyses == nil {
			info, classes := sourceFacts(src)
			analyses, start = states.Choose(info, classes, sink, ""), ev.Time
		}
		end = ev.Time
		for _, a := range analyses {
			if err := a.Handle(ev); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, a := range analyses {
		if err := a.Finish(end); err != nil {
			b.Fatal(err)
		}
	}
	changes := sink.changes
	b.ReportMetric(float64(len(changes)), "changes")
	b.ResetTimer()
	for range b.N {
		r := kstats.NewRecorder(&replaySink{tree: sink.tree}, start, kstats.StoredTop)
		r.MaxThreads = 0
		for _, c := range changes {
			if err := r.Modify(c.key, c.t, c.v); err != nil {
				b.Fatal(err)
			}
		}
		section, err := r.Encode(end, kstats.StoredTop)
		if err != nil || section == nil {
			b.Fatal(err, section == nil)
		}
		b.ReportMetric(float64(len(section)), "section-bytes")
	}
}
