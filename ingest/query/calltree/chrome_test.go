package calltree

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	chromestates "github.com/tracetui/tracetui/ingest/states/chrome"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/chrome"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
)

// Chrome X slices of clang's -ftime-trace (testdata/chrome), written
// children first: the tree of the compiler thread, totals by hand from
// the sample's ts and dur.
func TestChromeSlices(t *testing.T) {
	src, err := chrome.Open(filepath.Join("..", "..", "..", "testdata", "chrome", "clang-ftime-trace.json"), chrome.Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	h := sourcetest.Analyze(t, src, func(s core.StateSink) sourcetest.Analysis { return chromestates.NewAnalysis(s) })
	th, ok := h.Attributes().Lookup("Threads/4242:4242")
	if !ok {
		t.Fatal("no compiler thread")
	}
	root, err := Compute(context.Background(), h, Options{Threads: []core.Key{th}})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := WriteText(&out, root); err != nil {
		t.Fatal(err)
	}
	want := `     total       self    calls        min        max  function
     5.6ms      1.1ms        1      5.6ms      5.6ms  ExecuteCompiler
       3ms      1.6ms        1        3ms        3ms    Frontend
       1ms      770us        1        1ms        1ms      Source
     230us      230us        1      230us      230us        Source
     400us      400us        1      400us      400us      ParseClass
     1.5ms      700us        1      1.5ms      1.5ms    Backend
     800us      800us        1      800us      800us      OptModule
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}
