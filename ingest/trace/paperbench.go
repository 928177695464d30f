package trace

import (
	"context"
	"fmt"
	"time"

	"github.com/tracetui/tracetui/core"
)

// PaperResult is the outcome of [PaperBench], the R-SHT article's Control
// Flow View workload (section 7.2).
type PaperResult struct {
	PsTreeMS    float64 `json:"pstree_ms"`
	PsTreeNodes int     `json:"pstree_nodes"`
	ZoomMS      float64 `json:"zoom_ms"`
	ZoomNodes   int     `json:"zoom_nodes"`
	ZoomFrames  int     `json:"zoom_frames"`
	Layout      string  `json:"layout"`
	Threads     int     `json:"threads"`
}

// Paper workload parameters, from the article: a view of 60 thread rows
// and 200 columns, ten x2 zoom-ins around the middle, then scrolling to
// the end one screen at a time at the last zoom.
const (
	paperRows    = 60
	paperColumns = 200
	paperZooms   = 10
)

// PaperBench runs the article's Control Flow View workload on h:
//
//   - PsTree: the Exec_name and PPID of every thread, in one 2D query over
//     the whole trace (what the view needs to build its process tree);
//   - Zoom: one 2D query per frame on the status of the first 60 thread
//     rows at 200 timestamps (one per column): the whole trace, then ten
//     x2 zoom-ins around the middle, then scrolling right one screen at a
//     time to the end at the last zoom.
//
// Times are wall-clock for the queries alone; nodes are as reported by the
// history.
func PaperBench(ctx context.Context, h core.History) (PaperResult, error) {
	var res PaperResult
	tree := h.Attributes()
	threads, ok := tree.Child(core.Root, core.AttrThreads)
	if !ok {
		return res, fmt.Errorf("the index has no %s attribute: bench paper needs a kernel trace", core.AttrThreads)
	}
	rows := tree.Children(threads)
	res.Threads = len(rows)
	var psKeys []core.Key
	for _, th := range rows {
		for _, name := range []string{core.AttrExecName, core.AttrPPID} {
			if k, ok := tree.Child(th, name); ok {
				psKeys = append(psKeys, k)
			}
		}
	}
	start, end := h.Bounds()
	sink := func(core.Interval) bool { return true }

	t0 := time.Now()
	st, err := h.Query2D(ctx, psKeys, start, end, sink)
	if err != nil {
		return res, fmt.Errorf("pstree: %w", err)
	}
	res.PsTreeMS, res.PsTreeNodes = ms(time.Since(t0)), st.NodesRead

	view := rows[:min(paperRows, len(rows))]
	frame := func(from, to core.Time) error {
		st, err := h.Query2DTimes(ctx, view, SampleTimes(from, to, paperColumns), sink)
		res.ZoomNodes += st.NodesRead
		res.ZoomFrames++
		return err
	}
	t0 = time.Now()
	from, to := start, end
	if err := frame(from, to); err != nil {
		return res, fmt.Errorf("zoom: %w", err)
	}
	mid := start + (end-start)/2
	for range paperZooms {
		w := (to - from) / 2
		from, to = mid-w/2, mid-w/2+w
		if err := frame(from, to); err != nil {
			return res, fmt.Errorf("zoom: %w", err)
		}
	}
	for w := to - from + 1; to < end && w > 0; {
		from, to = from+w, min(to+w, end)
		if err := frame(from, to); err != nil {
			return res, fmt.Errorf("scroll: %w", err)
		}
	}
	res.ZoomMS = ms(time.Since(t0))
	return res, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
