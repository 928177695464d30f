package kernel

import (
	"math/rand/v2"
	"testing"

	"github.com/tracetui/tracetui/core"
)

// currentSink is the cheapest correct StateSink: it keeps only current
// values (what a history builder must keep anyway) and counts changes, so
// the benchmark measures the analysis, not interval storage.
type currentSink struct {
	tree    *core.AttributeTree
	cur     []core.Value
	last    core.Time
	changes int
}

func (s *currentSink) Attributes() *core.AttributeTree { return s.tree }

func (s *currentSink) Modify(k core.Key, t core.Time, v core.Value) error {
	if t < s.last {
		return core.ErrTimeOrder
	}
	s.last = t
	for int(k) >= len(s.cur) {
		s.cur = append(s.cur, core.Null())
	}
	if s.cur[k] != v {
		s.cur[k] = v
		s.changes++
	}
	return nil
}

func (s *currentSink) Value(k core.Key) core.Value {
	if int(k) < len(s.cur) {
		return s.cur[k]
	}
	return core.Null()
}

// benchStream simulates a 4-CPU kernel with 64 threads (see sim_test.go)
// and mixes in kmem events the analysis ignores (one in four events, a
// typical share in LTTng kernel traces).
func benchStream(layout *Layout, n int) []core.Event {
	m := &sim{rng: rand.New(rand.NewPCG(1, 2)), layout: layout, s: newStream(), threads: map[int]*simThread{}, nextTID: 100}
	for range 4 {
		m.cpus = append(m.cpus, &simCPU{softs: map[int]byte{}})
	}
	for range 64 {
		m.threads[m.nextTID] = &simThread{tid: m.nextTID, comm: "t", rq: -1}
		m.nextTID++
	}
	for len(m.s.events) < n {
		m.step()
		if m.rng.IntN(3) == 0 {
			m.now++
			m.s.add(m.now, int32(m.rng.IntN(4)), "kmem_kfree", "call_site", 1, "ptr", 2)
		}
	}
	return m.s.events[:n]
}

// BenchmarkKernelAnalysis reports the analysis's cost per event
// (ns/op and allocs/op are per event) on a steady-state stream: the
// stream is replayed with shifted times, so threads, CPUs and names are
// all known after the first pass.
func BenchmarkKernelAnalysis(b *testing.B) {
	for _, layout := range []*Layout{LayoutLTTng27, LayoutPerf, LayoutFtrace} {
		b.Run(layout.Name(), func(b *testing.B) {
			events := benchStream(layout, 1<<12) // fits in cache, like the one event a decoder reuses
			span := events[len(events)-1].Time + 1
			sink := &currentSink{tree: core.NewAttributeTree()}
			a := New(sink, layout)
			for i := range events { // warm up: create attributes and names
				if err := a.Handle(&events[i]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ev := &events[i&(len(events)-1)]
				ev.Time += span // each pass replays the stream later in time
				if err := a.Handle(ev); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(sink.changes)/float64(b.N+len(events)), "changes/event")
		})
	}
}

// BenchmarkIgnoredEvent is the cost of an event the analysis does not
// use (kmem_kfree in an LTTng trace): the floor of the per-event cost.
func BenchmarkIgnoredEvent(b *testing.B) {
	s := newStream().add(1, 0, "kmem_kfree", "call_site", 1, "ptr", 2)
	a := New(&currentSink{tree: core.NewAttributeTree()}, LayoutLTTng27)
	ev := &s.events[0]
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ev.Time++
		if err := a.Handle(ev); err != nil {
			b.Fatal(err)
		}
	}
}
