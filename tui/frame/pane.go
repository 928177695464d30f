package frame

import "github.com/tracetui/tracetui/core"

// WakerAttr is the Threads/<tid> attribute name of a waker thread.
func WakerAttr(w core.Waker) string { return core.ThreadName(int64(w.ID), w.CPU) }

// The panes of the rows: threads (Control Flow) and CPUs (Resources),
// indexes in the Gantt's panes and the Pane of a frame request.
const (
	PaneControlFlow = iota
	PaneResources
)
