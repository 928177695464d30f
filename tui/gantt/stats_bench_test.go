package gantt

import (
	"context"
	"testing"

	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/screens/stats"
)

// BenchmarkStatsFirstTable is the statistics screen opened over the whole
// trace at 200x60: "first" is the first table (the state times of every
// row, target <= 200 ms), "all" every table drawn (the analyses and the
// event counts too).
//
//	go test ./tui/gantt -run '^$' -bench StatsFirstTable -benchtime 5x
func BenchmarkStatsFirstTable(b *testing.B) {
	traces := append([]struct {
		name string
		open func(b *testing.B) frame.Trace
	}{{"demo", func(*testing.B) frame.Trace { return frametest.NewDemoTrace() }}}, benchTraces...)
	for _, bt := range traces {
		b.Run(bt.name, func(b *testing.B) {
			tr := bt.open(b)
			hs := newHarness(b, tr, 200, 60, false)
			b.Run("first", func(b *testing.B) {
				req := stats.Request{Hist: tr.History(), Domain: frame.DomainThread}
				req.From, req.To = hs.b().win.Start, hs.b().win.End
				req.Rows = hs.b().tree().Rows
				for range b.N {
					var out [stats.NumTables][]stats.Line
					if err := stats.StateStats(context.Background(), req, &out); err != nil || len(out[stats.States]) == 0 {
						b.Fatalf("%v, %d states", err, len(out[stats.States]))
					}
				}
			})
			b.Run("all", func(b *testing.B) {
				for range b.N {
					hs.press("stats")
					_ = hs.m.View()
					st := topView[*stats.Screen](hs.b())
					if st == nil || st.Running != 0 {
						b.Fatal("the statistics did not finish")
					}
					hs.press("stats") // closes
				}
			})
		})
	}
}
