package cli_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// critpath on the guide's chain-of-waits example (E3, ftrace text): the
// JSON has the shape and the guide's path; the text has one line
// per segment; an absent thread is a runtime error.
func TestCLICritpath(t *testing.T) {
	trace := filepath.Join("..", "query", "critpath", "testdata", "e3-chain.txt")
	idx := filepath.Join(t.TempDir(), "e3.idx")
	code, out, errOut := runCLI(t, "critpath", "--index", idx, "--json", "--to", "110us", trace, "30")
	if code != 0 {
		t.Fatalf("critpath --json: exit %d: %s", code, errOut)
	}
	type segment struct {
		Start  int64  `json:"start_ns"`
		End    int64  `json:"end_ns"`
		TID    int32  `json:"tid"`
		State  string `json:"state"`
		Reason string `json:"reason"`
	}
	var got struct {
		TID      int32     `json:"tid"`
		From     int64     `json:"from_ns"`
		To       int64     `json:"to_ns"`
		Segments []segment `json:"segments"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := []segment{{0, 30000, 30, "running", ""}, {30000, 70000, 32, "running", ""}, {70000, 72000, 31, "preempted", ""},
		{72000, 90000, 31, "running", ""}, {90000, 95000, 30, "preempted", ""}, {95000, 110000, 30, "running", ""}}
	if got.TID != 30 || got.From != 0 || got.To != 110000 || len(got.Segments) != len(want) {
		t.Fatalf("critpath --json = %s", out)
	}
	for i := range want {
		if got.Segments[i] != want[i] {
			t.Errorf("segment %d = %+v, want %+v", i, got.Segments[i], want[i])
		}
	}
	code, out, _ = runCLI(t, "critpath", "--index", idx, trace, "30", "--to", "110us")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != 0 || len(lines) != 1+len(want) || !strings.Contains(lines[2], "V 32") {
		t.Errorf("critpath text: exit %d\n%s", code, out)
	}
	if code, _, errOut := runCLI(t, "critpath", "--index", idx, trace, "99"); code != 1 || !strings.Contains(errOut, "thread 99") {
		t.Errorf("absent thread: exit %d, stderr %q", code, errOut)
	}
}
