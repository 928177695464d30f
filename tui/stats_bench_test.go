package tui

import (
	"testing"
)

// BenchmarkStatsFirstTable is the statistics screen opened over the whole
// trace at 200x60, to the first tables drawn: the state times, the
// system calls and the analyses (ingest/analyses), the event counts
// running alongside. Target: <= 200 ms.
//
//	go test ./tui -run '^$' -bench StatsFirstTable -benchtime 5x
func BenchmarkStatsFirstTable(b *testing.B) {
	traces := append([]struct {
		name string
		open func(b *testing.B) Trace
	}{{"demo", func(*testing.B) Trace { return newDemoTrace() }}}, benchTraces...)
	for _, bt := range traces {
		b.Run(bt.name, func(b *testing.B) {
			hs := newHarness(b, bt.open(b), 200, 60, false)
			b.ResetTimer()
			for range b.N {
				hs.press("stats")
				_ = hs.m.View()
				st := topView[*statsScreen](hs.b())
				if st == nil || st.running != 0 {
					b.Fatal("the statistics did not finish")
				}
				hs.press("stats") // closes
			}
		})
	}
}
