package cli_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
)

// TestStatsIRQNames: stats names hard IRQs by their handler (ftrace's
// irq_handler_entry name=), in the text tables and in the JSON.
func TestStatsIRQNames(t *testing.T) {
	trace := filepath.Join(coretest.ModuleRoot(), "testdata", "ftrace", "rec-tiny.txt")
	idx := filepath.Join(t.TempDir(), "rec-tiny.tti")
	code, out, errOut := runCLI(t, "stats", "--index", idx, trace)
	if code != 0 {
		t.Fatalf("stats: exit %d, %s", code, errOut)
	}
	for _, want := range []string{"hard 31 virtio0-stats", "hard 36 virtio1-req.0", "irq 31 virtio0-stats"} {
		if !strings.Contains(out, want) {
			t.Errorf("stats text lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = runCLI(t, "stats", "--index", idx, "--json", trace)
	var st struct {
		IRQs []struct {
			Kind, Name string
			IRQ        int64
			Count      int64
		} `json:"irqs"`
	}
	if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil {
		t.Fatalf("stats --json: exit %d, %v, %s", code, err, errOut)
	}
	got := map[int64]string{}
	for _, r := range st.IRQs {
		if r.Kind == "hard" {
			got[r.IRQ] = r.Name
		}
	}
	if got[31] != "virtio0-stats" || got[36] != "virtio1-req.0" || len(got) != 2 {
		t.Errorf("stats --json hard IRQ names %v, want 31 virtio0-stats, 36 virtio1-req.0", got)
	}
}
