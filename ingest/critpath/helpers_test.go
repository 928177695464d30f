package critpath

import (
	"errors"
	"io"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/ftrace"
	"github.com/tracetui/tracetui/ingest/kernel"
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
	return indexSource(t, src)
}

// indexSource runs the kernel analysis over src into a MemHistory.
func indexSource(t testing.TB, src core.Source) *core.MemHistory {
	t.Helper()
	var h *core.MemHistory
	var a *kernel.Analysis
	var last core.Time
	for {
		ev, err := src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h == nil {
			h = core.NewMemHistory(ev.Time)
			layout := kernel.Detect(src.Info(), []*core.EventClass{ev.Class})
			if layout == nil {
				layout = kernel.LayoutLTTng27
			}
			a = kernel.New(h, layout)
		}
		if err := a.Handle(ev); err != nil {
			t.Fatal(err)
		}
		last = ev.Time
	}
	if h == nil {
		t.Fatal("no event")
	}
	if err := a.Finish(last); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(last); err != nil {
		t.Fatal(err)
	}
	return h
}
