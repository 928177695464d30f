package model

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/aggregate"
)

// Overview sizes (the thesis's: ~100 slices temporal, ~30 spatiotemporal;
// never more slices than columns, so every slice gets a column).
const (
	TemporalSlices = 100
	SpatialSlices  = 30
	MinSlices      = 10
	// SpatialCalls bounds the spatiotemporal dichotomy (each call costs
	// O(|H| |T|^3)); the temporal one is cheap and runs to the end.
	SpatialCalls     = 48
	spatialThreshold = 1e-3
	// DefaultBudget is the work (aggregate.TemporalWork and
	// SpatiotemporalWork steps, plus the model's reading) allowed before
	// |T| is reduced. Measured on the 50 k-thread benchmark trace, a step
	// costs 2 to 4 ns of CPU: 5e8 steps is about a second on 2 cores.
	DefaultBudget = 5e8
)

// Request is a copy of what an overview computation reads.
type Request struct {
	Seq      uint64
	Spatial  bool
	Pane     int
	Hist     core.History
	Shape    *Shape
	From, To core.Time
	Slices   int     // wanted; the plan may use fewer
	Budget   float64 // the cost guard's budget, in elementary steps
	Workers  int
	MaxCalls int
	Now      func() time.Time
}

// Partition is one significant partition: its p, qualities and areas
// (temporal parts are areas of the root).
type Partition struct {
	P float64
	aggregate.Quality
	Areas []aggregate.Area
}

// Result is a computed overview.
type Result struct {
	Req       Request
	Model     *Model
	Parts     []Partition // increasing p
	Def       int         // the partition shown first
	Truncated bool        // the dichotomy's budget cut its list short
	Elapsed   time.Duration
	Phases    [3]time.Duration // model (and temporal qualities), qualities, p values
	Plan      Plan             // what the cost guard decided
	Err       error
}

// SameAs reports whether two requests ask for the same overview.
func (r Request) SameAs(o Request) bool {
	return r.Spatial == o.Spatial && r.Pane == o.Pane && r.From == o.From && r.To == o.To &&
		r.Slices == o.Slices && r.Budget == o.Budget && len(r.Shape.RowKeys) == len(o.Shape.RowKeys) &&
		len(r.Shape.Leaves) == len(o.Shape.Leaves)
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
func planFor(ctx context.Context, req Request) (Plan, error) {
	rows := req.Shape.RowKeys
	step := max(len(rows)/changeSamples, 1)
	var sample []core.Key
	for i := 0; i < len(rows); i += step {
		sample = append(sample, rows[i])
	}
	var n int
	if _, err := req.Hist.Query2D(ctx, sample, req.From, req.To, func(core.Interval) bool { n++; return true }); err != nil {
		return Plan{}, err
	}
	changes := float64(n) / float64(max(len(sample), 1))
	return PlanOf(req.Spatial, len(rows), len(req.Shape.Leaves), len(req.Shape.Hier.Children), req.Slices, changes, req.Budget), nil
}

// planOverview is the cost guard's decision.
type Plan struct {
	Slices int
	Coarse bool
	Note   string
}

// planOverview estimates the work of an overview of rows (grouped into
// leaves, in a hierarchy of nodes) at slices slices, each row meeting
// about changes state changes in the range (< 0: unknown), and reduces
// the slices (then, for the temporal overview, sums rows into their
// groups) until it fits the budget.
func PlanOf(spatial bool, rows, leaves, nodes, slices int, changes, budget float64) Plan {
	work := func(T int, resources int) float64 {
		n := changes
		if n < 0 {
			n = float64(T)
		}
		read := float64(rows) * (n + float64(T*MaxTypes)) // intervals and chunk rows
		if !spatial {
			return read + aggregate.TemporalWork(resources, T, 8, changes)
		}
		calls := 1 + float64(SpatialCalls)/float64(max(DefaultWorkers(), 1))
		return read + aggregate.SpatiotemporalWork(nodes, T, MaxTypes)*calls
	}
	p := Plan{Slices: slices}
	T := slices
	for T > MinSlices && work(T, rows) > budget {
		T = max(T*4/5, MinSlices)
	}
	if !spatial && work(T, rows) > budget && leaves < rows {
		p.Coarse = true
		T = slices
		for T > MinSlices && work(T, leaves) > budget {
			T = max(T*4/5, MinSlices)
		}
	}
	p.Slices = min(T, slices)
	switch {
	case p.Coarse:
		p.Note = fmt.Sprintf("work budget: rows summed into %d groups", leaves)
		if p.Slices < slices {
			p.Note += fmt.Sprintf(", |T| cut from %d", slices)
		}
	case p.Slices < slices:
		p.Note = fmt.Sprintf("work budget: |T| cut from %d", slices)
	}
	return p
}

// Compute builds the model, the qualities and the significant
// partitions.
func Compute(ctx context.Context, req Request, progress func(string)) *Result {
	began := req.Now()
	res := &Result{Req: req}
	plan, err := planFor(ctx, req)
	if err != nil {
		res.Err = err
		return res
	}
	res.Plan = plan
	m, err := BuildModel(ctx, ModelRequest{Hist: req.Hist, Shape: req.Shape, From: req.From, To: req.To,
		Slices: plan.Slices, Temporal: !req.Spatial, coarse: plan.Coarse, Workers: req.Workers,
		progress: func(done, total int) { progress(fmt.Sprintf("reading the states %d%%", done*100/total)) }})
	if err != nil {
		res.Err = err
		return res
	}
	res.Model = m
	progress("aggregating…")
	res.Phases[0] = req.Now().Sub(began)
	if !req.Spatial {
		tq := m.Temporal.Temporal()
		res.Phases[1] = req.Now().Sub(began) - res.Phases[0]
		parts, _, err := tq.SignificantWith(ctx, aggregate.SignificantOptions{Workers: req.Workers})
		if err != nil {
			res.Err = err
			return res
		}
		for _, p := range parts {
			op := Partition{P: p.P, Quality: p.Quality}
			for _, x := range p.Parts {
				op.Areas = append(op.Areas, aggregate.Area{Node: 0, Start: x.Start, End: x.End})
			}
			res.Parts = append(res.Parts, op)
		}
	} else {
		mod, err := aggregate.NewModel(len(req.Shape.Leaves), m.T, m.J)
		if err != nil {
			res.Err = err
			return res
		}
		for l := range req.Shape.Leaves {
			row := m.LeafRow(l)
			for t := range m.T {
				for j := range m.J {
					if v := row[t*m.J+j]; v > 0 {
						mod.Add(l, t, j, v)
					}
				}
			}
		}
		st, err := aggregate.NewSpatiotemporal(mod, req.Shape.Hier)
		if err != nil {
			res.Err = err
			return res
		}
		if _, err := st.Leaves(ctx, 0); err != nil { // computes the qualities
			res.Err = err
			return res
		}
		res.Phases[1] = req.Now().Sub(began) - res.Phases[0]
		parts, truncated, err := st.SignificantWith(ctx, aggregate.SignificantOptions{Threshold: spatialThreshold,
			MaxCalls: req.MaxCalls, Workers: req.Workers})
		if err != nil {
			res.Err = err
			return res
		}
		res.Truncated = truncated
		for _, p := range parts {
			res.Parts = append(res.Parts, Partition{P: p.P, Quality: p.Quality, Areas: p.Areas})
		}
	}
	res.Def = kneeOf(res.Parts)
	res.Elapsed = req.Now().Sub(began)
	res.Phases[2] = res.Elapsed - res.Phases[0] - res.Phases[1]
	return res
}

// kneeOf picks the partition shown first: the one furthest above the
// diagonal of the normalised gain and loss curves (both grow with p, from
// 0 at p = 0 to their maximum at p = 1), the best trade of complexity
// reduction against information loss without choosing p.
func kneeOf(parts []Partition) int {
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
