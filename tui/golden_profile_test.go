package tui

import (
	"context"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/index/profile/profiletest"
	"github.com/tracetui/tracetui/ingest/trace"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// stackSource gives each event of a SliceSource the stack of the same
// rank (leaf first), as perf.data's reader does for its samples.
type stackSource struct {
	*coretest.SliceSource
	stacks [][]string
	i      int
}

func (s *stackSource) Next() (*core.Event, error) {
	ev, err := s.SliceSource.Next()
	if err == nil {
		s.i++
	}
	return ev, err
}

func (s *stackSource) AppendStack(dst []string) []string { return append(dst, s.stacks[s.i-1]...) }

// profileTrace is the cyg-profile trace with a profile of samples.
type profileTrace struct {
	*frametest.SymbolTrace
	prof *trace.Profile
}

func (p profileTrace) Profile(context.Context) (*trace.Profile, error) { return p.prof, nil }

// TestGoldenProfile shows the call tree of samples (perf.data's
// profiles): sample counts and percentages of process 40's samples (thread
// 7's are not in its selection), then of its thread 42, where enter on a
// function does nothing (samples are instants: no call to zoom to).
func TestGoldenProfile(t *testing.T) {
	cl := &core.EventClass{Name: "cpu-clock", Fields: core.ThreadContextFields()}
	tidAt := cl.FieldIndex(core.FieldTID)
	var events []core.Event
	var stacks [][]string
	add := func(tm core.Time, tid int64, stack ...string) {
		f := make([]core.Field, len(cl.Fields))
		f[tidAt] = core.Field{Kind: core.FieldInt, Int: tid}
		events = append(events, core.Event{Time: tm, CPU: 0, Class: cl, Fields: f})
		stacks = append(stacks, stack)
	}
	for i := range 10 {
		tm := core.Time(i * 100)
		add(tm, 42, "draw", "main")
		if i%2 == 0 {
			add(tm+1, 42, "memcpy", "draw", "main")
		}
		if i%3 == 0 {
			add(tm+2, 7, "0x4f0000", "worker")
		}
	}
	prof := profiletest.FromSource(t, &stackSource{SliceSource: coretest.NewSliceSource(core.SourceInfo{}, events), stacks: stacks})
	tr := profileTrace{&frametest.SymbolTrace{MemTrace: &frametest.MemTrace{TraceName: "prof", Hist: frametest.CygHistory(t), Table: &frametest.MemEvents{}}}, prof}
	for _, c := range []goldenCase{
		{name: "profile_process_80x24", w: 80, h: 24, keys: []string{"F"}},
		{name: "profile_thread_80x24_ascii", w: 80, h: 24, ascii: true, keys: []string{"j", "F", "j", "enter"}},
	} {
		t.Run(c.name, func(t *testing.T) { runGolden(t, tr, c) })
	}
}
