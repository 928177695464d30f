package trace

import (
	"context"
	"fmt"
	"slices"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/history"
)

// QueryResult is the answer to [Query]: for each attribute matched by the
// globs, in key order, its intervals in time order.
type QueryResult struct {
	Attributes []QueryAttribute
	Stats      core.QueryStats
}

// QueryAttribute is one attribute's part of a [QueryResult].
type QueryAttribute struct {
	Key       core.Key
	Path      string
	Intervals []core.Interval
}

// QueryRequest says what to query: attributes by glob, and either a time
// range or Samples evenly spaced timestamps over it.
type QueryRequest struct {
	Globs    []string
	From, To core.Time
	Samples  int
}

// Query runs one 2D query for the attributes matching the globs (a glob
// matching nothing is an error, so typos are not silent).
func Query(ctx context.Context, h core.History, req QueryRequest) (QueryResult, error) {
	var res QueryResult
	tree := h.Attributes()
	var keys []core.Key
	for _, g := range req.Globs {
		if err := core.CheckGlob(g); err != nil {
			return res, err
		}
		ks := tree.Glob(g)
		if len(ks) == 0 && tree.Len() == 0 {
			return res, fmt.Errorf("the index holds no states: no analysis applies to this trace's events (list them with 'tracetui dump TRACE')")
		}
		if len(ks) == 0 {
			return res, fmt.Errorf("no attribute matches %q (try 'tracetui query TRACE \"*\"' to list the top level)", g)
		}
		keys = append(keys, ks...)
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	if req.To < req.From {
		return res, fmt.Errorf("the range ends (%d) before it starts (%d)", req.To, req.From)
	}
	var rows [][]core.Interval
	var err error
	if req.Samples > 0 {
		rows, res.Stats, err = history.RowsAt(ctx, h, keys, SampleTimes(req.From, req.To, req.Samples))
	} else {
		rows, res.Stats, err = history.Rows(ctx, h, keys, req.From, req.To)
	}
	if err != nil {
		return res, err
	}
	for i, k := range keys {
		res.Attributes = append(res.Attributes, QueryAttribute{Key: k, Path: tree.Path(k), Intervals: rows[i]})
	}
	return res, nil
}

// SampleTimes returns n timestamps evenly spaced over [from, to], both
// ends included (one when n is 1: from).
func SampleTimes(from, to core.Time, n int) []core.Time {
	out := make([]core.Time, n)
	for i := range out {
		if n > 1 {
			out[i] = from + core.Time(float64(to-from)*float64(i)/float64(n-1))
		} else {
			out[i] = from
		}
	}
	return out
}
