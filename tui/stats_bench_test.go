package tui

import (
	"context"
	"testing"

	"github.com/tracetui/tracetui/tui/frame"
)

// BenchmarkStatsFirstTable is the statistics screen opened over the whole
// trace at 200x60: "first" is the first table (the state times of every
// row, target <= 200 ms), "all" every table drawn (the analyses and the
// event counts too).
//
//	go test ./tui -run '^$' -bench StatsFirstTable -benchtime 5x
func BenchmarkStatsFirstTable(b *testing.B) {
	traces := append([]struct {
		name string
		open func(b *testing.B) frame.Trace
	}{{"demo", func(*testing.B) frame.Trace { return newDemoTrace() }}}, benchTraces...)
	for _, bt := range traces {
		b.Run(bt.name, func(b *testing.B) {
			tr := bt.open(b)
			hs := newHarness(b, tr, 200, 60, false)
			b.Run("first", func(b *testing.B) {
				req := statsRequest{hist: tr.History(), domain: frame.DomainThread}
				req.from, req.to = hs.b().tv.Start, hs.b().tv.End
				req.rows = hs.b().tree().Rows
				for range b.N {
					var out [numStatsTables][]statsLine
					if err := stateStats(context.Background(), req, &out); err != nil || len(out[statsStates]) == 0 {
						b.Fatalf("%v, %d states", err, len(out[statsStates]))
					}
				}
			})
			b.Run("all", func(b *testing.B) {
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
		})
	}
}
