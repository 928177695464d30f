package tracedat

import (
	"testing"

	"github.com/tracetui/tracetui/core"
)

// Past maxWarnings the messages are dropped but counted: WarningCount
// gives the true number (issue 18: counts were capped at 101).
func TestWarningsCountPastTheLimit(t *testing.T) {
	s := &Source{}
	const n = maxWarnings + 57
	for range n {
		s.warn(core.Warning{Kind: "corrupt-page", Message: "x"})
	}
	ws := s.Warnings()
	if len(ws) != maxWarnings+1 || ws[len(ws)-1].Kind != core.WarningMore {
		t.Fatalf("%d warnings, last %+v: want %d messages and one more-warnings", len(ws), ws[len(ws)-1], maxWarnings)
	}
	if got := core.WarningCount(ws); got != n {
		t.Errorf("WarningCount = %d, want %d", got, n)
	}
	if len(s.Warnings()) != maxWarnings+1 {
		t.Errorf("a second call changed the list")
	}
}
