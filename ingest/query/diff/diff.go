package diff

import (
	"cmp"
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/stats"
)

// Side is one of the two things compared: a history and a range of it.
type Side struct {
	// Name names the side in the output (the trace's file name, or the
	// range).
	Name    string
	History core.History
	// From and To bound the range [From, To); To <= From means the whole
	// history.
	From, To core.Time
	// Label names call-stack frames; nil uses calltree's default.
	Label core.FrameLabeler
	// Profile, if set, returns the side's sampled call stacks (perf.data:
	// ingest/trace's Profile, read in one pass the first time): when it
	// has samples, the side's call tree counts them (UnitSamples) instead
	// of timing History's call stacks.
	Profile func(ctx context.Context) (Profile, error)
	// Threads, if not nil, selects threads (by tid) to compare with the
	// other side's selection: thread A's figures against thread B's
	// (threads.go). Both sides select threads, or neither.
	Threads []int32
}

// Options select what Compute returns.
type Options struct {
	// Top is the most rows of each table: 0 means DefaultTop, at most
	// MaxTop.
	Top int
	// CallTree adds the call tree's difference (it reads every call
	// stack of both ranges).
	CallTree bool
	// Parts are the statistics to compare (stats.Options.Parts; 0: all):
	// the tables of the others are empty. PartCPU alone gives the
	// process and thread tables first.
	Parts stats.Part
}

// DefaultTop and MaxTop bound Options.Top.
const (
	DefaultTop = 20
	MaxTop     = 10_000
)

// Result is what Compute returns; its JSON form is what `tracetui diff
// --json` prints.
type Result struct {
	Base         string       `json:"base"`
	New          string       `json:"new"`
	Processes    []TimeRow    `json:"processes"`
	Threads      []TimeRow    `json:"threads"`
	Syscalls     []SyscallRow `json:"syscalls"`
	SchedLatency []TimeRow    `json:"sched_latency"`
	IRQs         []TimeRow    `json:"irqs"`
	CallTree     []PathRow    `json:"calltree,omitempty"`
	// CallTreeUnit is the unit of CallTree's figures: UnitNS (call
	// stacks, timed) or UnitSamples (sampled stacks, counted).
	CallTreeUnit string `json:"calltree_unit,omitempty"`
	// BaseIDs and NewIDs say which thread or process each row's name is
	// on each side (the browser's jump to a row); not printed.
	BaseIDs, NewIDs IDs `json:"-"`
}

// IDs are the thread and process IDs of a side's rows, by row name: a
// thread key's tid (its key is unique), a process place's lowest pid.
type IDs struct {
	Threads   map[string]int32
	Processes map[string]int32
}

// TimeRow is a time of one key on both sides.
type TimeRow struct {
	Name    string   `json:"name"`
	BaseNS  int64    `json:"base_ns"`
	NewNS   int64    `json:"new_ns"`
	DeltaNS int64    `json:"delta_ns"`
	Ratio   *float64 `json:"ratio,omitempty"` // new / base; absent when base is 0
}

// CallStats is a system call's figures on one side.
type CallStats struct {
	Count   int64 `json:"count"`
	TotalNS int64 `json:"total_ns"`
	MaxNS   int64 `json:"max_ns"`
}

// SyscallRow is a system call on both sides.
type SyscallRow struct {
	Name         string    `json:"name"`
	Base         CallStats `json:"base"`
	New          CallStats `json:"new"`
	DeltaTotalNS int64     `json:"delta_total_ns"`
}

// PathRow is a call path's self time on both sides.
type PathRow struct { // self time in ns, or self samples (Result.CallTreeUnit)
	Path      string `json:"path"` // the frames from the root, separated by ";"
	BaseSelf  int64  `json:"base_self"`
	NewSelf   int64  `json:"new_self"`
	DeltaSelf int64  `json:"delta_self"`
}

// Compute compares base with next.
func Compute(ctx context.Context, base, next Side, o Options) (*Result, error) {
	top := o.Top
	if top == 0 {
		top = DefaultTop
	}
	if top < 1 || top > MaxTop {
		return nil, fmt.Errorf("diff: top %d: want 1 to %d", top, MaxTop)
	}
	// The two sides at once (two cores halve the wait), each with its
	// process tree: one tree when both are ranges of one history.
	if (base.Threads == nil) != (next.Threads == nil) {
		return nil, fmt.Errorf("diff: one side selects threads and the other not: select threads on both sides, or on neither")
	}
	sides := [2]Side{base, next}
	shared := sameHistory(base.History, next.History)
	var sums [2]*sideSums
	var reps [2]*stats.Report
	var trees [2]*tree
	var errs [2]error
	var wg sync.WaitGroup
	for i, s := range sides {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = computeSide(ctx, s, o, i == 0 || !shared, &reps[i], &trees[i])
		}()
	}
	wg.Wait()
	if err := cmp.Or(errs[0], errs[1]); err != nil {
		return nil, err
	}
	if shared {
		trees[1] = trees[0]
	}
	for i, sd := range sides {
		if sd.Threads != nil {
			sums[i] = sumSelected(trees[i], reps[i], sd.Threads)
		} else {
			sums[i] = sum(trees[i], reps[i])
		}
	}
	var unit string
	if o.CallTree {
		roots, u, err := callTrees(ctx, base, next)
		if err != nil {
			return nil, err
		}
		unit = u
		for i := range sides {
			sums[i].paths = selfByPath(roots[i])
		}
	}
	b, n := sums[0], sums[1]
	r := &Result{Base: base.Name, New: next.Name,
		Processes:    timeRows(b.processes, n.processes, top),
		Threads:      timeRows(b.threads, n.threads, top),
		SchedLatency: timeRows(b.latency, n.latency, top),
		IRQs:         timeRows(b.irqs, n.irqs, top),
		Syscalls:     syscallRows(b.syscalls, n.syscalls, top),
		BaseIDs:      b.ids, NewIDs: n.ids,
	}
	if o.CallTree {
		r.CallTree, r.CallTreeUnit = pathRows(b.paths, n.paths, top), unit
	}
	if base.Threads != nil {
		relabel(r, b, n)
	}
	return r, nil
}

// computeSide runs one side's statistics and, if asked, reads its
// process tree.
func computeSide(ctx context.Context, s Side, o Options, withTree bool, rep **stats.Report, tr **tree) error {
	var err error
	if *rep, err = stats.Compute(ctx, s.History, stats.Options{From: s.From, To: s.To, Parts: o.Parts}); err != nil {
		return fmt.Errorf("diff: statistics of %s: %w", s.Name, err)
	}
	if withTree {
		if *tr, err = readTree(ctx, s.History); err != nil {
			return fmt.Errorf("diff: process tree of %s: %w", s.Name, err)
		}
	}
	return nil
}

// sameHistory reports whether a and b are one history (never panicking
// on a history type that == cannot compare).
func sameHistory(a, b core.History) bool {
	ta := reflect.TypeOf(a)
	return ta == reflect.TypeOf(b) && ta != nil && ta.Comparable() && a == b
}

// timeRows lines up two sides' times by key, largest change first (ties
// by name), cut to top rows.
func timeRows(base, next map[string]int64, top int) []TimeRow {
	rows := make([]TimeRow, 0, len(base)+len(next))
	for k, b := range base {
		rows = append(rows, TimeRow{Name: k, BaseNS: b, NewNS: next[k]})
	}
	for k, n := range next {
		if _, ok := base[k]; !ok {
			rows = append(rows, TimeRow{Name: k, NewNS: n})
		}
	}
	for i := range rows {
		rows[i].DeltaNS = rows[i].NewNS - rows[i].BaseNS
	}
	slices.SortFunc(rows, func(x, y TimeRow) int {
		return cmp.Or(cmp.Compare(abs(y.DeltaNS), abs(x.DeltaNS)), strings.Compare(x.Name, y.Name))
	})
	rows = rows[:min(top, len(rows))]
	for i, r := range rows { // the ratios of the rows kept only
		if r.BaseNS != 0 {
			rows[i].Ratio = new(float64(r.NewNS) / float64(r.BaseNS))
		}
	}
	return rows
}

func syscallRows(base, next map[string]CallStats, top int) []SyscallRow {
	rows := []SyscallRow{}
	for _, k := range keysOf(base, next) {
		b, n := base[k], next[k]
		rows = append(rows, SyscallRow{Name: k, Base: b, New: n, DeltaTotalNS: n.TotalNS - b.TotalNS})
	}
	slices.SortStableFunc(rows, func(x, y SyscallRow) int { return cmp.Compare(abs(y.DeltaTotalNS), abs(x.DeltaTotalNS)) })
	return rows[:min(top, len(rows))]
}

// pathRows lines up two sides' self figures by call path, largest change
// first; a path with no self figure on either side is left out.
func pathRows(base, next map[string]int64, top int) []PathRow {
	rows := []PathRow{}
	for _, k := range keysOf(base, next) {
		b, n := base[k], next[k]
		if b == 0 && n == 0 {
			continue // a caller only, on both sides: nothing to say
		}
		rows = append(rows, PathRow{Path: k, BaseSelf: b, NewSelf: n, DeltaSelf: n - b})
	}
	slices.SortStableFunc(rows, func(x, y PathRow) int { return cmp.Compare(abs(y.DeltaSelf), abs(x.DeltaSelf)) })
	return rows[:min(top, len(rows))]
}

// keysOf returns the keys of both maps, sorted (so that equal changes
// keep a stable order).
func keysOf[V any](a, b map[string]V) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
