package tui

import (
	"context"
	"os"
	"testing"

	"github.com/tracetui/tracetui/ingest/gen/gentest"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/trace"
	"github.com/tracetui/tracetui/tui/frame"
)

// BenchmarkOpenControlFlow is the browser's open path on an existing
// index, in three steps measured apart: opening the index (attribute
// tree included), then the Control Flow rows from the whole-trace 2D
// query (query) or from the rows stored with the index (stored: their
// header, the first row and the key index read). Set TRACETUI_OPEN_TRACE to a
// trace and TRACETUI_OPEN_INDEX to its index, e.g. those of `tracetui gen
// --threads 200000`:
//
//	TRACETUI_OPEN_TRACE=g200k TRACETUI_OPEN_INDEX=g200k.tti \
//	  go test ./tui -run '^$' -bench OpenControlFlow -benchtime 5x
func BenchmarkOpenControlFlow(b *testing.B) {
	path, indexPath := os.Getenv("TRACETUI_OPEN_TRACE"), os.Getenv("TRACETUI_OPEN_INDEX")
	if path == "" || indexPath == "" {
		b.Skip("set TRACETUI_OPEN_TRACE and TRACETUI_OPEN_INDEX to a trace and its index")
	}
	ctx := context.Background()
	open := func(b *testing.B) *trace.Trace {
		tr, err := trace.Open(ctx, path, index.Options{IndexPath: indexPath})
		if err != nil {
			b.Fatal(err)
		}
		if tr.Built() {
			b.Fatalf("%s was rebuilt: index it first", indexPath)
		}
		return tr
	}
	b.Run("open", func(b *testing.B) {
		for range b.N {
			tr := open(b)
			tr.History().Attributes() // loaded at open
			tr.Close()
		}
	})
	tr := open(b)
	defer tr.Close()
	rows := func(b *testing.B, stored bool) {
		cpu := gentest.CPUTime()
		for range b.N {
			rows := tr.ControlFlowRows()
			if !stored {
				rows = nil
			}
			t, err := frame.BuildControlFlow(ctx, tr.History(), rows)
			t.Node(t.VisibleRow(0)) // the first row read
			if err != nil || t.Len() == 0 {
				b.Fatalf("%v, %d rows", err, t.Len())
			}
		}
		// The machine is shared: CPU time is steadier than wall time.
		b.ReportMetric(float64((gentest.CPUTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
	}
	b.Run("query", func(b *testing.B) { rows(b, false) })
	b.Run("stored", func(b *testing.B) { rows(b, true) })
}
