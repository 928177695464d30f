package gantt

import (
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// TestKernelThreadsNeverRunUserMode: the details line of a kernel
// thread (ppid 2) running outside a system call says "running (kernel
// thread)", of a CPU's idle thread "idle", and of a user thread still
// "running user mode" (issue 30 item 10).
func TestKernelThreadsNeverRunUserMode(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 120, 30, true)
	m := hs.b().hist.(*core.MemHistory)
	at := m.Attributes()
	for _, c := range []struct{ row, tid, want string }{
		{"kworker/0:1 15", "15", "running (kernel thread)"},
		{"swapper/0 0_0", "0_0", "idle (the CPU's idle thread)"},
		{"ls 1200", "1200", "running user mode"},
	} {
		k, ok := at.Lookup(core.AttrThreads + "/" + c.tid)
		if !ok {
			t.Fatalf("no thread %s", c.tid)
		}
		var run *core.Interval
		for _, iv := range m.Intervals() {
			if iv.Key == k && iv.Value.Kind() == core.KindInt32 && core.ThreadStatus(iv.Value.Int()) == core.ThreadRunUser && iv.Duration() > 1000 {
				run = &iv
				break
			}
		}
		if run == nil {
			t.Fatalf("%s never runs outside a system call in the demo", c.row)
		}
		hs.selectRow(c.row)
		hs.b().cursor = run.Start + run.Duration()/2
		hs.press("zoom_all") // a new frame at the cursor
		if d := hs.b().detailsText(); !strings.Contains(d, c.want+" ") {
			t.Errorf("%s at %d: details %q, want %q", c.row, hs.b().cursor, d, c.want)
		}
	}
}

// TestZoomText: the status line's zoom factor never reads in exponent
// notation.
func TestZoomText(t *testing.T) {
	for f, want := range map[float64]string{1: "×1", 2.5: "×2.5", 999: "×999", 16400: "×16.4k", 1.64e4 + 3: "×16.4k", 3.2e6: "×3.2M"} {
		if got := zoomText(f); got != want {
			t.Errorf("zoomText(%g) = %q, want %q", f, got, want)
		}
	}
}
