package chrome

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/chrome"
	"github.com/tracetui/tracetui/ingest/chrome/chrometest"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
)

// against the slices themselves.
func TestAnalysisProperty(t *testing.T) {
	rng := coretest.Rand(t)
	for iter := range 8 {
		text, sl, _ := chrometest.GenTrace(rng, 1+rng.IntN(4))
		src, err := chrome.Open(chrometest.WriteTemp(t, text), chrome.Options{TempDir: t.TempDir(), RunBytes: 1 /* the smallest runs */})
		if err != nil {
			t.Fatal(err)
		}
		h := runAnalysis(t, src)
		src.Close()
		want, got := expectedStacks(sl), gotStacks(h)
		if !slices.Equal(got, want) {
			t.Fatalf("iter %d: states differ\n got %q\nwant %q", iter, got, want)
		}
	}
}

// runAnalysis runs the analysis over src into a MemHistory spanning the
// trace and checks the tiling.
func runAnalysis(t testing.TB, src *chrome.Source) *core.MemHistory {
	t.Helper()
	return sourcetest.Analyze(t, src, func(s core.StateSink) sourcetest.Analysis { return NewAnalysis(s) })
}

// expectedStacks returns the non-null CallStack and thread intervals the
// slices imply, as "path [start,end] value" lines, sorted.
func expectedStacks(sl []chrometest.Slice) []string {
	var out []string
	for _, s := range sl {
		out = append(out, fmt.Sprintf("Threads/%s/CallStack/%d [%d,%d] %s", s.Thread, s.Depth, s.Start, s.End-1, s.Name))
		if s.Depth == 1 {
			out = append(out, fmt.Sprintf("Threads/%s [%d,%d] %s", s.Thread, s.Start, s.End-1, s.Name))
		}
	}
	slices.Sort(out)
	return out
}

// gotStacks lists the non-null intervals of the thread and CallStack keys.
func gotStacks(h *core.MemHistory) []string {
	tree := h.Attributes()
	var out []string
	for _, iv := range h.Intervals() {
		p := tree.Path(iv.Key)
		isThread := strings.Count(p, "/") == 1 && strings.HasPrefix(p, "Threads/")
		if iv.Value.IsNull() || !(isThread || strings.Contains(p, "/CallStack/")) {
			continue
		}
		out = append(out, fmt.Sprintf("%s [%d,%d] %s", p, iv.Start, iv.End, iv.Value))
	}
	slices.Sort(out)
	return out
}
