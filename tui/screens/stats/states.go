package stats

import (
	"context"
	"fmt"
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index/pstree"
	"github.com/tracetui/tracetui/tui/frame"
)

// The state table: time per state of the selected row and of all rows,
// from one 2D query of their status attributes.

// statusKeys returns the status attributes of rows: those of its
// threads (a process row is its leader thread: no key is counted twice)
// and CPUs.
func statusKeys(rows *pstree.Rows) []core.Key {
	var keys []core.Key
	rows.ScanRecords(0, int32(rows.Len()), func(_ int32, r pstree.RowInfo) bool {
		if frame.IsStatusRow(r) {
			keys = append(keys, core.Key(r.Key))
		}
		return true
	})
	return keys
}

// IdleState is the state line of the time the CPUs' idle threads
// (0_<cpu>) "run": the CPU is idle, no thread runs.
const IdleState = "idle (a CPU's idle thread)"

// StateStats reads the time per state.
func StateStats(ctx context.Context, req Request, out *[NumTables][]Line) error {
	_, err := stateStats(ctx, req, out)
	return err
}

// stateStats reads the time per state and returns how many rows the
// all-rows column sums.
func stateStats(ctx context.Context, req Request, out *[NumTables][]Line) (int, error) {
	at := req.Hist.Attributes()
	inAll := make([]bool, at.Len())
	inSel := make([]bool, at.Len())
	// The idle threads (0_<cpu>) run when their CPU has nothing to do:
	// that time is idle, not running (Control Flow only).
	isIdle := make([]bool, at.Len())
	all := statusKeys(req.Rows)
	keys := make([]core.Key, 0, len(all)+len(req.sel))
	for _, k := range all {
		isIdle[k] = req.Domain == frame.DomainThread && strings.HasPrefix(at.Name(k), "0_")
		inAll[k] = true
		keys = append(keys, k)
	}
	for _, k := range req.sel {
		isIdle[k] = req.Domain == frame.DomainThread && strings.HasPrefix(at.Name(k), "0_")
		inSel[k] = true
		keys = append(keys, k)
	}
	type stateTime struct{ sel, all core.Time }
	var idle stateTime
	byValue := map[core.Value]*stateTime{}
	var small [64]*stateTime // kernel statuses without a map access
	clip := func(iv core.Interval) core.Time { return min(iv.End, req.To) - max(iv.Start, req.From) + 1 }
	_, err := req.Hist.Query2D(ctx, keys, req.From, req.To, func(iv core.Interval) bool {
		if iv.Value.IsNull() {
			return true
		}
		var st *stateTime
		n := iv.Value.Int()
		isSmall := iv.Value.Kind() == core.KindInt32 && n >= 0 && n < int64(len(small))
		if isSmall {
			st = small[n]
		}
		if st == nil {
			if st = byValue[iv.Value]; st == nil {
				st = &stateTime{}
				byValue[iv.Value] = st
			}
			if isSmall {
				small[n] = st
			}
		}
		if isIdle[iv.Key] && n >= int64(core.ThreadRunUser) && n <= int64(core.ThreadInterrupted) {
			st = &idle // a CPU's idle thread "running": the CPU is idle
		}
		d := clip(iv)
		if inAll[iv.Key] {
			st.all += d
		}
		if inSel[iv.Key] {
			st.sel += d
		}
		return true
	})
	if err != nil {
		return 0, fmt.Errorf("reading the states: %w", err)
	}
	selTotal, allTotal := idle.sel, idle.all
	for _, st := range byValue {
		selTotal += st.sel
		allTotal += st.all
	}
	for v, st := range byValue {
		p := frame.PaintOf(req.Domain, v)
		out[States] = append(out[States], Line{Name: frame.DescribeValue(req.Domain, v), paint: &p,
			Vals: []float64{0, float64(st.sel), percent(st.sel, selTotal), float64(st.all), percent(st.all, allTotal)}})
	}

	if idle.all > 0 || idle.sel > 0 {
		p := frame.PaintOf(frame.DomainCPU, core.Int32(int32(core.CPUIdle)))
		out[States] = append(out[States], Line{Name: IdleState, paint: &p,
			Vals: []float64{0, float64(idle.sel), percent(idle.sel, selTotal), float64(idle.all), percent(idle.all, allTotal)}})
	}
	// complete calls only (ingest/query/stats): a forked child's inherited
	// clone and exit/exit_group, which never return, are not calls
	return len(all), nil
}
