package history

import (
	"context"
	"slices"

	"github.com/tracetui/tracetui/core"
)

// Rows collects the result of a 2D query in the order of keys: rows[i]
// holds the intervals of keys[i] in time order (a repeated key gets the
// same row). It works with any [core.History]; the streaming form is the
// query itself.
func Rows(ctx context.Context, h core.History, keys []core.Key, t0, t1 core.Time) ([][]core.Interval, core.QueryStats, error) {
	return collectRows(keys, func(fn func(core.Interval) bool) (core.QueryStats, error) {
		return h.Query2D(ctx, keys, t0, t1, fn)
	})
}

// RowsAt is [Rows] for a 2D query at a list of times ([core.History.Query2DTimes]).
func RowsAt(ctx context.Context, h core.History, keys []core.Key, times []core.Time) ([][]core.Interval, core.QueryStats, error) {
	return collectRows(keys, func(fn func(core.Interval) bool) (core.QueryStats, error) {
		return h.Query2DTimes(ctx, keys, times, fn)
	})
}

func collectRows(keys []core.Key, query func(func(core.Interval) bool) (core.QueryStats, error)) ([][]core.Interval, core.QueryStats, error) {
	row := make(map[core.Key]int, len(keys))
	for i, k := range keys {
		if _, ok := row[k]; !ok {
			row[k] = i
		}
	}
	rows := make([][]core.Interval, len(keys))
	st, err := query(func(iv core.Interval) bool {
		if i, ok := row[iv.Key]; ok {
			rows[i] = append(rows[i], iv)
		}
		return true
	})
	if err != nil {
		return nil, st, err
	}
	for i, k := range keys {
		if j := row[k]; j != i {
			rows[i] = rows[j]
			continue
		}
		slices.SortFunc(rows[i], core.CompareIntervals)
	}
	return rows, st, nil
}
