package gantt

import (
	"context"
	"testing"

	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/ui/headless"
)

// TestCursorRowKeysReuseTheFrame: j and k on the same screen keep the
// frame's cells and runs (the same arrays: nothing is queried again but
// the details line), and the details line reads what a whole frame
// would; a key that changes the view asks the whole frame again.
func TestCursorRowKeysReuseTheFrame(t *testing.T) {
	tr := frametest.NewDemoTrace()
	hs := newHarness(t, tr, 120, 40, false)
	d, b := hs.Driver, hs.b()
	if b == nil || b.frame == nil {
		t.Fatal("no frame after opening")
	}
	for _, key := range []string{"j", "j", "k", "j"} {
		before := b.frame
		d.Send(headless.Key(key))
		f := b.frame
		if f == before || &f.Cells[0] != &before.Cells[0] {
			t.Fatalf("%s: the frame's cells were queried again", key)
		}
		req, ok := b.frameRequest()
		if !ok {
			t.Fatal("no request")
		}
		req.Prev = nil
		fresh := frame.RunFrame(context.Background(), req)
		if len(req.Extra) == 0 {
			t.Fatalf("%s: no key for the details line", key)
		}
		for _, k := range req.Extra {
			got, ok := f.AtCursor[k]
			want, wok := fresh.AtCursor[k]
			if ok != wok || got != want {
				t.Fatalf("%s: key %d at the cursor: %v, a whole frame reads %v", key, k, got, want)
			}
		}
	}
	before := b.frame
	d.Send(headless.Key("w")) // zoom in: another view
	if &b.frame.Cells[0] == &before.Cells[0] {
		t.Fatal("w: the frame of the old view was kept")
	}
}
