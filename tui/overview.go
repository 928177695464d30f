package tui

import (
	"context"
	"fmt"
	"math"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/aggregate"
)

// The aggregated overview (o: temporal, O: spatiotemporal), after
// Ocelotl (Dosimont's thesis, chapters 5-7). The visible range of the
// Gantt when it opens (0 then o: the whole trace) is cut into |T| slices
// and the rows' state times aggregated into parts: for every p of the
// dichotomy's list the best partition, drawn in the mode view (each part in
// the colour of its dominant state, lighter when that state fills less of
// it). + and - step through the significant values of p, enter zooms the
// Gantt to the part under the cursor. The model and the algorithms run
// off the UI goroutine, cancellable (esc, or leaving the view), and their
// cost is estimated first: over budget, |T| is reduced (and, for the
// temporal aggregation, rows are summed into groups).

// Overview sizes (the thesis's: ~100 slices temporal, ~30 spatiotemporal;
// never more slices than columns, so every slice gets a column).
const (
	temporalSlices = 100
	spatialSlices  = 30
	minSlices      = 10
	// spatialCalls bounds the spatiotemporal dichotomy (each call costs
	// O(|H| |T|^3)); the temporal one is cheap and runs to the end.
	spatialCalls     = 48
	spatialThreshold = 1e-3
	// defaultOverviewBudget is the work (aggregate.TemporalWork and
	// SpatiotemporalWork steps, plus the model's reading) allowed before
	// |T| is reduced. Measured on the 50 k-thread benchmark trace, a step
	// costs 2 to 4 ns of CPU: 5e8 steps is about a second on 2 cores.
	defaultOverviewBudget = 5e8
)

// ovRequest is a copy of what an overview computation reads.
type ovRequest struct {
	seq      uint64
	spatial  bool
	pane     int
	hist     core.History
	shape    *ovShape
	from, to core.Time
	slices   int     // wanted; the plan may use fewer
	budget   float64 // the cost guard's budget, in elementary steps
	workers  int
	maxCalls int
	now      func() time.Time
}

// ovPartition is one significant partition: its p, qualities and areas
// (temporal parts are areas of the root).
type ovPartition struct {
	p float64
	aggregate.Quality
	areas []aggregate.Area
}

// ovResult is a computed overview.
type ovResult struct {
	req       ovRequest
	model     *ovModel
	parts     []ovPartition // increasing p
	def       int           // the partition shown first
	truncated bool          // the dichotomy's budget cut its list short
	elapsed   time.Duration
	phases    [3]time.Duration // model (and temporal qualities), qualities, p values
	plan      overviewPlan     // what the cost guard decided
	err       error
}

// ovMsg is one report of a running computation.
type ovMsg struct {
	seq      uint64
	progress string
	res      *ovResult
	ch       <-chan ovMsg
}

// openOverview opens (or reuses) the overview of the visible range.
func (b *browser) openOverview(spatial bool) tea.Cmd {
	shape := buildShape(b.tree(), maxLeaves)
	if len(shape.leaves) == 0 {
		b.setNote(noteInfo, "no rows to aggregate in this view")
		return nil
	}
	l := b.sh.layout(b.showTable, b.tableLines)
	slices := temporalSlices
	if spatial {
		slices = spatialSlices
	}
	slices = int(min(int64(slices), int64(max(l.ganttW, 1)), int64(b.tv.Span())))
	// The cost guard runs with the computation, off the UI goroutine: it
	// samples the rows' state changes first (see planFor).
	req := ovRequest{spatial: spatial, pane: b.pane, hist: b.hist, shape: shape, from: b.tv.T0, to: b.tv.T1,
		slices: slices, budget: b.ovBudget, workers: defaultWorkers(), maxCalls: spatialCalls, now: b.clock}
	ov := &overviewScreen{sh: b.sh, tv: &b.tv, tree: b.tree(), cache: &b.ovCache, spatial: spatial, req: req}
	b.push(ov)
	if c := b.ovCache[boolIndex(spatial)]; c != nil && c.req.sameAs(req) {
		ov.show(c)
		return nil
	}
	ctx, seq := ov.job.start(b.ctx)
	req.seq = seq
	ov.req = req
	ov.progress = "reading the states…"
	return spawn(4, func(ch chan<- ovMsg) {
		res := computeOverview(ctx, req, func(s string) {
			select { // a report the UI has not read yet is superseded
			case ch <- ovMsg{seq: req.seq, progress: s}:
			default:
			}
		})
		select {
		case ch <- ovMsg{seq: req.seq, res: res}:
		case <-ctx.Done():
		}
	})
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sameAs reports whether two requests ask for the same overview.
func (r ovRequest) sameAs(o ovRequest) bool {
	return r.spatial == o.spatial && r.pane == o.pane && r.from == o.from && r.to == o.to &&
		r.slices == o.slices && r.budget == o.budget && len(r.shape.rowKeys) == len(o.shape.rowKeys) &&
		len(r.shape.leaves) == len(o.shape.leaves)
}

// changeSamples is how many rows the cost guard reads to estimate the
// state changes per row: one small 2D query.
const changeSamples = 256

// planFor is the cost guard: it estimates the state changes per row in
// the range from up to changeSamples rows spread over the view (one 2D
// query), then plans the overview's size against the budget. An estimate
// from the rows on screen would mislead: the first rows of a kernel trace
// (daemons, kworkers) change far more often than the thousands of
// short-lived threads below them.
func planFor(ctx context.Context, req ovRequest) (overviewPlan, error) {
	rows := req.shape.rowKeys
	step := max(len(rows)/changeSamples, 1)
	var sample []core.Key
	for i := 0; i < len(rows); i += step {
		sample = append(sample, rows[i])
	}
	var n int
	if _, err := req.hist.Query2D(ctx, sample, req.from, req.to, func(core.Interval) bool { n++; return true }); err != nil {
		return overviewPlan{}, err
	}
	changes := float64(n) / float64(max(len(sample), 1))
	return planOverview(req.spatial, len(rows), len(req.shape.leaves), len(req.shape.hier.Children), req.slices, changes, req.budget), nil
}

// planOverview is the cost guard's decision.
type overviewPlan struct {
	slices int
	coarse bool
	note   string
}

// planOverview estimates the work of an overview of rows (grouped into
// leaves, in a hierarchy of nodes) at slices slices, each row meeting
// about changes state changes in the range (< 0: unknown), and reduces
// the slices (then, for the temporal overview, sums rows into their
// groups) until it fits the budget.
func planOverview(spatial bool, rows, leaves, nodes, slices int, changes, budget float64) overviewPlan {
	work := func(T int, resources int) float64 {
		n := changes
		if n < 0 {
			n = float64(T)
		}
		read := float64(rows) * (n + float64(T*maxTypes)) // intervals and chunk rows
		if !spatial {
			return read + aggregate.TemporalWork(resources, T, 8, changes)
		}
		calls := 1 + float64(spatialCalls)/float64(max(defaultWorkers(), 1))
		return read + aggregate.SpatiotemporalWork(nodes, T, maxTypes)*calls
	}
	p := overviewPlan{slices: slices}
	T := slices
	for T > minSlices && work(T, rows) > budget {
		T = max(T*4/5, minSlices)
	}
	if !spatial && work(T, rows) > budget && leaves < rows {
		p.coarse = true
		T = slices
		for T > minSlices && work(T, leaves) > budget {
			T = max(T*4/5, minSlices)
		}
	}
	p.slices = min(T, slices)
	switch {
	case p.coarse:
		p.note = fmt.Sprintf("work budget: rows summed into %d groups", leaves)
		if p.slices < slices {
			p.note += fmt.Sprintf(", |T| cut from %d", slices)
		}
	case p.slices < slices:
		p.note = fmt.Sprintf("work budget: |T| cut from %d", slices)
	}
	return p
}

// computeOverview builds the model, the qualities and the significant
// partitions.
func computeOverview(ctx context.Context, req ovRequest, progress func(string)) *ovResult {
	began := req.now()
	res := &ovResult{req: req}
	plan, err := planFor(ctx, req)
	if err != nil {
		res.err = err
		return res
	}
	res.plan = plan
	m, err := buildModel(ctx, ovModelRequest{hist: req.hist, shape: req.shape, from: req.from, to: req.to,
		slices: plan.slices, temporal: !req.spatial, coarse: plan.coarse, workers: req.workers,
		progress: func(done, total int) { progress(fmt.Sprintf("reading the states %d%%", done*100/total)) }})
	if err != nil {
		res.err = err
		return res
	}
	res.model = m
	progress("aggregating…")
	res.phases[0] = req.now().Sub(began)
	if !req.spatial {
		tq := m.temporal.Temporal()
		res.phases[1] = req.now().Sub(began) - res.phases[0]
		parts, _, err := tq.SignificantWith(ctx, aggregate.SignificantOptions{Workers: req.workers})
		if err != nil {
			res.err = err
			return res
		}
		for _, p := range parts {
			op := ovPartition{p: p.P, Quality: p.Quality}
			for _, x := range p.Parts {
				op.areas = append(op.areas, aggregate.Area{Node: 0, Start: x.Start, End: x.End})
			}
			res.parts = append(res.parts, op)
		}
	} else {
		mod, err := aggregate.NewModel(len(req.shape.leaves), m.T, m.J)
		if err != nil {
			res.err = err
			return res
		}
		for l := range req.shape.leaves {
			row := m.leafRow(l)
			for t := range m.T {
				for j := range m.J {
					if v := row[t*m.J+j]; v > 0 {
						mod.Add(l, t, j, v)
					}
				}
			}
		}
		st, err := aggregate.NewSpatiotemporal(mod, req.shape.hier)
		if err != nil {
			res.err = err
			return res
		}
		if _, err := st.Leaves(ctx, 0); err != nil { // computes the qualities
			res.err = err
			return res
		}
		res.phases[1] = req.now().Sub(began) - res.phases[0]
		parts, truncated, err := st.SignificantWith(ctx, aggregate.SignificantOptions{Threshold: spatialThreshold,
			MaxCalls: req.maxCalls, Workers: req.workers})
		if err != nil {
			res.err = err
			return res
		}
		res.truncated = truncated
		for _, p := range parts {
			res.parts = append(res.parts, ovPartition{p: p.P, Quality: p.Quality, areas: p.Areas})
		}
	}
	res.def = kneeOf(res.parts)
	res.elapsed = req.now().Sub(began)
	res.phases[2] = res.elapsed - res.phases[0] - res.phases[1]
	return res
}

// kneeOf picks the partition shown first: the one furthest above the
// diagonal of the normalised gain and loss curves (both grow with p, from
// 0 at p = 0 to their maximum at p = 1), the best trade of complexity
// reduction against information loss without choosing p.
func kneeOf(parts []ovPartition) int {
	if len(parts) == 0 {
		return 0
	}
	last := parts[len(parts)-1]
	best, bestV := len(parts)-1, math.Inf(-1)
	for i, p := range parts {
		g, l := 0.0, 0.0
		if last.Gain > 0 {
			g = p.Gain / last.Gain
		}
		if last.Loss > 0 {
			l = p.Loss / last.Loss
		}
		if v := g - l; v > bestV+1e-12 {
			best, bestV = i, v
		}
	}
	return best
}
