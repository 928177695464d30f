package chrome_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/chrome"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
	chromestates "github.com/tracetui/tracetui/ingest/states/chrome"
)

// FuzzChrome feeds arbitrary bytes through Detect, Open (with tiny sort
// runs), Next, AppendContents, Checkpoint/Seek and the state analysis:
// nothing may panic or hang, time never goes back, and the analysis never
// makes a change the sink refuses.
func FuzzChrome(f *testing.F) {
	for _, name := range []string{"catapult-phases.json", "unbalanced.json", "truncated.json", "clang-ftime-trace.json", "catapult-flow-bp.json"} {
		if b, err := os.ReadFile(filepath.Join(chrome.SampleDir, name)); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "trace")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		chrome.Detect(path)
		src, err := chrome.Open(path, chrome.Options{TempDir: dir, RunBytes: chrome.MinRunBytes})
		if err != nil {
			return
		}
		defer src.Close()
		sourcetest.Fuzz(t, src, func(s core.StateSink) sourcetest.Analysis { return chromestates.NewAnalysis(s) }, 5000)
	})
}
