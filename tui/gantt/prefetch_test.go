package gantt

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/trace"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// profiledTrace is a trace whose profile counts the reads asked.
type profiledTrace struct {
	*frametest.MemTrace
	reads atomic.Int32
}

func (p *profiledTrace) Profile(context.Context) (*trace.Profile, error) {
	p.reads.Add(1)
	return &trace.Profile{}, nil
}

// TestPrefetchProfile: opening a trace whose index holds samples reads its
// profile once in the background; one without samples does not.
func TestPrefetchProfile(t *testing.T) {
	with := &profiledTrace{MemTrace: samplesTrace(t)}
	hs := newHarness(t, with, 100, 20, true)
	if n := with.reads.Load(); n != 1 {
		t.Errorf("a trace with samples: %d profile reads at open, want 1", n)
	}
	if hs.b().profile.Running() {
		t.Error("the read is done, its job still runs")
	}
	without := &profiledTrace{MemTrace: partsTrace(t, []core.Time{0, 100}, []int{1, 1})}
	newHarness(t, without, 100, 20, true)
	if n := without.reads.Load(); n != 0 {
		t.Errorf("a trace without samples: %d profile reads at open, want 0", n)
	}
}
