package critpath

import (
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/ftrace"
	"github.com/tracetui/tracetui/ingest/states/kernel"
)

// indexFtrace runs the kernel analysis over an ftrace text capture into a
// MemHistory covering [first event, last event].
func indexFtrace(t testing.TB, path string) *core.MemHistory {
	t.Helper()
	src, err := ftrace.Open(path, ftrace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	return indexSource(t, src, nil)
}

// indexCTF runs the kernel analysis over a CTF trace into a MemHistory.
func indexCTF(t testing.TB, dir string) *core.MemHistory {
	t.Helper()
	src, err := ctf.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	return indexSource(t, src, src.Classes())
}

// indexSource runs the kernel analysis over src into a MemHistory;
// classes decide the layout with kernel.Detect (nil: the first event's).
func indexSource(t testing.TB, src core.Source, classes []*core.EventClass) *core.MemHistory {
	t.Helper()
	var h *core.MemHistory
	last := analyze(t, src, classes, func(start core.Time) core.StateSink {
		h = core.NewMemHistory(start)
		return h
	})
	if err := h.Close(last); err != nil {
		t.Fatal(err)
	}
	return h
}

// analyze feeds every event of src to a kernel analysis writing to the
// sink newSink makes at the first event, and returns the last event's time.
func analyze(t testing.TB, src core.Source, classes []*core.EventClass, newSink func(start core.Time) core.StateSink) core.Time {
	t.Helper()
	var a *kernel.Analysis
	var last core.Time
	coretest.ForEachEvent(t, src, func(ev *core.Event) {
		if a == nil {
			if classes == nil {
				classes = []*core.EventClass{ev.Class}
			}
			layout := kernel.Detect(src.Info(), classes)
			if layout == nil {
				layout = kernel.LayoutLTTng27
			}
			a = kernel.New(newSink(ev.Time), layout)
		}
		if err := a.Handle(ev); err != nil {
			t.Fatal(err)
		}
		last = ev.Time
	})
	if a == nil {
		t.Fatal("no event")
	}
	if err := a.Finish(last); err != nil {
		t.Fatal(err)
	}
	return last
}
