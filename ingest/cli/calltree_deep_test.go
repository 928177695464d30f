package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCallTreeDeepStack: a recursion 20 000 calls deep prints in bounded
// output with the depth cap stated, as text and as JSON (the text grew
// with the square of the depth: a 100 000-deep trace wrote 7.9 GB; the
// JSON encoder failed past about 5 000 levels).
func TestCallTreeDeepStack(t *testing.T) {
	const depth = 20_000
	var b strings.Builder
	b.WriteString("[")
	for i := range depth {
		fmt.Fprintf(&b, `{"name":"f%d","ph":"B","ts":%d,"pid":1,"tid":1},`, i%7, i)
	}
	for i := depth - 1; i >= 0; i-- {
		fmt.Fprintf(&b, `{"name":"f%d","ph":"E","ts":%d,"pid":1,"tid":1}`, i%7, 2*depth-i)
		if i > 0 {
			b.WriteString(",")
		}
	}
	b.WriteString("]")
	trace := filepath.Join(t.TempDir(), "deep.json")
	if err := os.WriteFile(trace, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	code, out, errOut := runCLI(t, "calltree", trace)
	if code != 0 {
		t.Fatalf("calltree: exit %d: %s", code, errOut)
	}
	if want := fmt.Sprintf("... %d call paths deeper than 1000 levels not shown", depth-1000); !strings.Contains(out, want) {
		t.Errorf("calltree text does not say %q", want)
	}
	if lines := strings.Count(out, "\n"); lines != 1+1000+1 {
		t.Errorf("calltree text: %d lines, want the header, 1000 levels and the cut line", lines)
	}
	if len(out) > 4<<20 {
		t.Errorf("calltree text: %d bytes for 1000 levels", len(out))
	}
	code, out, errOut = runCLI(t, "calltree", "--json", trace)
	if code != 0 {
		t.Fatalf("calltree --json: exit %d: %s", code, errOut)
	}
	var got struct {
		MaxDepth int   `json:"max_depth"`
		Cut      int64 `json:"cut_nodes"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("calltree --json: %v", err)
	}
	if got.MaxDepth != 1000 || got.Cut != depth-1000 {
		t.Errorf("calltree --json: max_depth %d, cut_nodes %d; want 1000, %d", got.MaxDepth, got.Cut, depth-1000)
	}
}
