package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/states/callstack"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// BenchmarkFrameCallStackRows measures a frame of 16 call-stack rows of a
// user-space thread (200 k calls of 512 functions, addresses) at 200
// columns, over the whole trace and zoomed on 20 calls per row (each
// wide enough to carry its name), with frames painted and named by value
// (no symbols) and by name (an nm
// listing through callstack.Resolver, the browser's resolver, cached per
// frame by frameNames): the cost of naming frames is the ratio.
//
//	go test ./tui -run '^$' -bench FrameCallStackRows
func BenchmarkFrameCallStackRows(b *testing.B) {
	const depths, calls, funcs = 16, 200_000, 512
	m := core.NewMemHistory(0)
	at := m.Attributes()
	keys := make([]core.Key, depths)
	for d := range keys {
		keys[d] = at.AddPath(core.AttrThreads, "1", core.AttrCallStack, strconv.Itoa(d+1))
	}
	var nm strings.Builder
	for f := range funcs {
		fmt.Fprintf(&nm, "%016x T fn%d\n", 0x400000+16*f, f)
	}
	for i := range calls { // call i at depth i%depths from 10i, 128 ns long: call i-13 ends at 10i-2
		if j := i - 13; j >= 0 {
			if err := m.Modify(keys[j%depths], core.Time(10*i-2), core.Null()); err != nil {
				b.Fatal(err)
			}
		}
		if err := m.Modify(keys[i%depths], core.Time(10*i), core.Int64(int64(0x400000+16*(i*7919%funcs)))); err != nil {
			b.Fatal(err)
		}
	}
	if err := m.Close(core.Time(10 * calls)); err != nil {
		b.Fatal(err)
	}
	h := frametest.NewIndexedHistory(m)
	listing := filepath.Join(b.TempDir(), "nm.txt")
	if err := os.WriteFile(listing, []byte(nm.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	r, _, err := callstack.LoadResolver(context.Background(), nil, callstack.ResolverOptions{SymbolsFile: listing})
	if err != nil {
		b.Fatal(err)
	}
	rows := make([]frame.FrameRow, depths)
	runs := make([]frame.RunKey, depths) // the calls wide enough for their names, as the browser asks
	for d, k := range keys {
		rows[d] = frame.FrameRow{Key: k, Domain: frame.DomainFrame}
		runs[d] = frame.RunKey{Row: d, Key: k}
	}
	start, end := h.Bounds()
	whole := frame.Window{Start: start, End: end, Cols: 200}.Whole()
	for _, c := range []struct {
		name  string
		names *frame.FrameNames
	}{
		{"names=none", nil},
		{"names=symbols", &frame.FrameNames{At: at, Cache: map[frame.FrameID]frame.FrameEntry{}, Label: func(_ core.Key, v core.Value) string {
			return r.Label("", v)
		}}},
	} {
		for _, v := range []struct {
			name string
			view frame.Window
		}{
			{"view=whole", whole},
			{"view=calls", whole.WithRange(start+1_000_000, 3200)}, // 20 calls per row, 8 columns each: named
		} {
			b.Run(v.name+"/"+c.name, func(b *testing.B) {
				req := frame.FrameRequest{Now: time.Now, Hist: h, Window: v.view, Rows: rows, Runs: runs, Names: c.names}
				for b.Loop() {
					if f := frame.RunFrame(context.Background(), req); f.Err != nil {
						b.Fatal(f.Err)
					}
				}
			})
		}
	}
}
