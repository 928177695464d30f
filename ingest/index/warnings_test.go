package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWarningsTrueCount: a trace with more bad lines than a reader keeps
// messages for reports the true number (issue 18: "warnings 101"), with
// the first messages.
func TestWarningsTrueCount(t *testing.T) {
	var b strings.Builder
	b.WriteString("# tracer: nop\n")
	for i := range 300 {
		fmt.Fprintf(&b, "           bash-1234  [001] .....  10.%06d: sys_enter: NR 0 (0, 0)\n", i)
		fmt.Fprintf(&b, "garbage line %d\n", i)
	}
	p := filepath.Join(t.TempDir(), "trace.txt")
	must(t, os.WriteFile(p, []byte(b.String()), 0o644))
	tr, err := Open(context.Background(), p, openOpts(t))
	must(t, err)
	defer tr.Close()
	in := tr.Info().IndexSummary
	if in.Warnings != 300 || len(in.FirstWarnings) != firstWarnings || !strings.Contains(in.FirstWarnings[0], "garbage line 0") {
		t.Errorf("warnings %d, first %q; want 300 and the first %d", in.Warnings, in.FirstWarnings, firstWarnings)
	}
}
