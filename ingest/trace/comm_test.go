package trace

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/index"
)

// TestProcessFallsBackToTheEventsComm: the first events of rec-tiny.txt
// come from bash-11018 before any sched_switch names that thread, so the
// history has no Exec_name for it yet; the Process column shows the comm
// the ftrace line itself carries, and the filter sees the same text. The
// same for the trace.dat recording of those events, when present.
func TestProcessFallsBackToTheEventsComm(t *testing.T) {
	t.Run("ftrace", func(t *testing.T) { checkCommFallback(t, "../../testdata/ftrace/rec-tiny.txt") })
	t.Run("tracedat", func(t *testing.T) {
		checkCommFallback(t, coretest.Recording(t, "tiny.dat"))
	})
}

func checkCommFallback(t *testing.T, path string) {
	ctx := context.Background()
	tr, err := Open(ctx, path, index.Options{IndexPath: filepath.Join(t.TempDir(), "tiny.idx")})
	must(t, err)
	defer tr.Close()
	tb := tr.Events()
	ranks := make([]int64, tb.Len())
	for i := range ranks {
		ranks[i] = int64(i)
	}
	rows, err := tb.Rows(ctx, ranks)
	must(t, err)
	for _, r := range rows[:3] {
		if r.TID != "11018" || r.Process != "bash" {
			t.Errorf("event %d (%s): tid %q process %q, want 11018 bash", r.Rank, r.Event, r.TID, r.Process)
		}
	}
	var want []int64
	for _, r := range rows {
		if r.Process == "" {
			t.Errorf("event %d (%s, tid %s): no process", r.Rank, r.Event, r.TID)
		}
		if r.Process == "bash" {
			want = append(want, r.Rank)
		}
	}
	var got []int64
	must(t, tb.Filter(ctx, core.EventFilter{core.ColProcess: regexp.MustCompile(`^bash$`)}, func(p core.FilterProgress) bool {
		got = append(got, p.Matches...)
		return true
	}))
	if !slices.Equal(got, want) || len(want) < 3 || want[0] != 0 {
		t.Errorf("filter Process=^bash$: %d matches %v, want %d %v", len(got), head(got), len(want), head(want))
	}
}
