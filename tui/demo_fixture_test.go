package tui

import (
	"context"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

func TestDemoFixtureIsWellFormed(t *testing.T) {
	tr := frametest.NewDemoTrace()
	m := tr.Hist.(*core.MemHistory)
	coretest.CheckTiling(t, m.Intervals(), m.Attributes().Len(), frametest.DemoStart, frametest.DemoEnd)
	ev := tr.Table.(*frametest.MemEvents)
	if !frametest.SortedByTime(ev.All) {
		t.Fatal("demo events are not in time order")
	}
	if len(ev.All) < 500 {
		t.Fatalf("only %d events", len(ev.All))
	}
	t.Logf("demo: %d attributes, %d intervals, %d events", m.Attributes().Len(), len(m.Intervals()), len(ev.All))
	_ = context.Background()
}
