package cli_test

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/ingest/perfdata"
)

// committedProfile is a per-thread cpu-clock -g recording with switch
// events (ingest/perfdata's testdata).
const committedProfile = "../perfdata/testdata/switch.perf"

// countStacks counts the events of path with a call stack.
func countStacks(t *testing.T, path string) int64 {
	t.Helper()
	src, err := perfdata.Open(path, perfdata.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var n int64
	var st []string
	for {
		if _, err := src.Next(); err == io.EOF {
			return n
		} else if err != nil {
			t.Fatal(err)
		}
		if st = src.AppendStack(st[:0]); len(st) > 0 {
			n++
		}
	}
}

// TestCLICallTreeSamples: calltree on a perf.data profile prints sample
// counts and percentages, and its JSON says so, with every sample once.
func TestCLICallTreeSamples(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	samples := countStacks(t, committedProfile)
	code, out, errOut := runCLI(t, "calltree", committedProfile)
	if code != 0 {
		t.Fatalf("calltree: exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "   samples  total%       self   self%  function\n") {
		t.Errorf("calltree of samples:\n%s", out)
	}
	code, out, errOut = runCLI(t, "calltree", "--json", committedProfile)
	if code != 0 {
		t.Fatalf("calltree --json: exit %d: %s", code, errOut)
	}
	var tree struct {
		Total   int64 `json:"total_ns"`
		Samples bool  `json:"samples"`
	}
	if err := json.Unmarshal([]byte(out), &tree); err != nil {
		t.Fatal(err)
	}
	if !tree.Samples || tree.Total != samples {
		t.Errorf("calltree --json: samples %v, total %d; want true, %d", tree.Samples, tree.Total, samples)
	}
}
