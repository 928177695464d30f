package tui

import (
	"context"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

func TestDemoFixtureIsWellFormed(t *testing.T) {
	tr := newDemoTrace()
	m := tr.hist.(*core.MemHistory)
	coretest.CheckTiling(t, m.Intervals(), m.Attributes().Len(), demoStart, demoEnd)
	ev := tr.events.(*memEvents)
	if !sortedByTime(ev.rows) {
		t.Fatal("demo events are not in time order")
	}
	if len(ev.rows) < 500 {
		t.Fatalf("only %d events", len(ev.rows))
	}
	t.Logf("demo: %d attributes, %d intervals, %d events", m.Attributes().Len(), len(m.Intervals()), len(ev.rows))
	_ = context.Background()
}
