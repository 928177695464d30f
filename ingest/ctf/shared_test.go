package ctf_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/internal/bttest"
)

// babeltraceAborts lists the shared traces babeltrace2 2.0.4 stops
// reading with an error, and why: tracetui reads them to the end, so
// babeltrace2's output must be a prefix of tracetui's.
var babeltraceAborts = map[string]string{
	// A packet begins (timestamp_begin) before the previous packet of
	// its stream ends; babeltrace2's muxer refuses any message older than
	// the last one. The events themselves are in order. TestHelloLostWhole
	// compares all its events and warnings, stream by stream, with
	// babeltrace2 run without its muxer.
	"hello-lost": "packet timestamps overlap",
}

// TestSharedTraces dumps every real trace of shared/traces/ctf and
// compares with babeltrace2 run on the same trace.
func TestSharedTraces(t *testing.T) {
	root := filepath.Join(coretest.SharedTraces(t), "ctf")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			dir := filepath.Join(root, e.Name())
			want, stderr, code := bttest.Run(t, dir)
			got, warnings, err := dump(dir)
			if err != nil {
				t.Fatal(err)
			}
			if why, ok := babeltraceAborts[e.Name()]; ok {
				if code == 0 {
					t.Fatalf("babeltrace2 now reads the trace it used to abort on (%s): compare in full", why)
				}
				n := strings.Count(want, "\n")
				prefix := strings.SplitAfterN(got, "\n", n+1)
				res := bttest.Compare(t, want, strings.Join(prefix[:min(n, len(prefix))], ""))
				t.Logf("babeltrace2 aborts after %d events (%s); tracetui reads %d events, %d warnings", res.Lines, why, strings.Count(got, "\n"), len(warnings))
				return
			}
			if code != 0 {
				t.Fatalf("babeltrace2 exit status %d:\n%s", code, stderr)
			}
			res := bttest.Compare(t, want, got)
			if w := bttest.Warnings(stderr); strings.Join(w, "\n") != strings.Join(warnings, "\n") {
				t.Errorf("warnings differ:\nbabeltrace2: %q\ntracetui: %q", w, warnings)
			}
			t.Logf("%d events identical; %d lines where babeltrace2 prints a stale string for an empty one", res.Lines, res.StaleStrings)
		})
	}
}
