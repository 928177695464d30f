package model

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/aggregate"
)

// The overview's microscopic model (Dosimont's thesis, chapter 5.1): the
// overview's time range cut into |T| equal slices, the rows of the view
// (threads in Control Flow, CPUs in Resources) as resources, their state
// values as types, and mu(s, t, j) the time row s spent in state j during
// slice t, in ticks of 1/ticksPerSlice slice (a row in one state for a
// whole slice adds ticksPerSlice). Counting whole ticks (state time
// rounded to 1/64 of a slice, far below what a cell shows) lets the
// temporal qualities read n*log2(n) from a table instead of computing a
// logarithm per rectangle: half their cost.
//
// It is read with 2D queries of the rows' status attributes over the
// range, by chunks of rows so the working memory is a few MB whatever
// the number of rows, on every core: each worker streams the intervals of
// its chunk into a dense chunk buffer (no allocation per interval), then
// hands each row to its own temporal accumulator and adds it to its leaf.
// Nothing per row is kept: only the accumulators (O(|T|^2)) and the
// leaves' amounts (at most maxLeaves x |T| x |J|).

const (
	// TicksPerSlice is the model's unit of time: 1/64 of a slice.
	TicksPerSlice = 64
	// MaxTypes bounds |J|: kernel thread statuses need 7 (CPU statuses
	// 6); string-valued rows (user-space, Chrome) keep their first
	// maxTypes-1 distinct values and count the rest as one "other values"
	// type. Every type costs a pass over each row.
	MaxTypes = 8
	// MaxLeaves bounds the leaves of the spatiotemporal hierarchy (and the
	// drawn groups): beyond it threads are summed into their process, and
	// processes into groups of consecutive processes (the thesis's
	// pre-aggregation of the lowest levels, 6.4.4). A terminal shows a few
	// dozen lines: the browser asks for no more leaves than it has lines
	// (finer leaves would share lines, hatched wherever they split
	// differently), and this is the bound on the tallest screens.
	MaxLeaves = 256
	// chunkBytes is the size of a worker's chunk buffer.
	chunkBytes = 4 << 20
)

// Leaf is one leaf of the overview's hierarchy: a row, or (over
// maxLeaves) a process or a group of processes summed.
type Leaf struct {
	Label string
	Node  int32 // the tree node enter selects
	Rows  int   // rows summed
	Depth int   // indentation (a thread under its process)
}

// Shape is the overview's resources and hierarchy, built from the row
// tree on the UI goroutine (cheap: linear in the rows) and then read only.
type Shape struct {
	Leaves   []Leaf
	Hier     *aggregate.Hierarchy // node 0 is the root; a leaf's resource is its index
	First    []int                // per hierarchy node: its first leaf
	Last     []int                // per hierarchy node: its last leaf
	NodeTree []int32              // per hierarchy node: the tree node enter selects (-1: none)
	NodeRows []int                // per hierarchy node: rows under it
	RowKeys  []core.Key           // the status attribute of every row
	RowLeaf  []int32              // the leaf each row adds to
	Grouped  string               // how rows were grouped over maxLeaves ("" if not)
}

// valueIDs gives state values dense type ids, shared by the workers
// (each keeps its own cache, so the lock is taken once per value and
// worker).
type valueIDs struct {
	mu     sync.Mutex
	ids    map[core.Value]int
	values []core.Value // by id; the last id of maxTypes stands for the others
	other  bool         // some value went to "other values"
}

func (v *valueIDs) id(val core.Value) int {
	v.mu.Lock()
	defer v.mu.Unlock()
	if id, ok := v.ids[val]; ok {
		return id
	}
	if len(v.values) == MaxTypes-1 {
		v.other = true
		return MaxTypes - 1
	}
	id := len(v.values)
	v.ids[val] = id
	v.values = append(v.values, val)
	return id
}

// localIDs is a worker's cache of valueIDs.
type localIDs struct {
	shared *valueIDs
	small  [64]int16 // kernel statuses: id+1, 0 unknown
	m      map[core.Value]int
}

func (l *localIDs) id(val core.Value) int {
	n := val.Int()
	if val.Kind() == core.KindInt32 && n >= 0 && n < int64(len(l.small)) {
		if id := l.small[n]; id > 0 {
			return int(id - 1)
		}
		id := l.shared.id(val)
		l.small[n] = int16(id + 1)
		return id
	}
	if id, ok := l.m[val]; ok {
		return id
	}
	id := l.shared.id(val)
	l.m[val] = id
	return id
}

// ModelRequest is what a model build reads (copied from the browser).
type ModelRequest struct {
	Hist     core.History
	Shape    *Shape
	From, To core.Time
	Slices   int
	Temporal bool // feed the temporal accumulator (else: leaves only)
	coarse   bool // the temporal resources are the leaves, not the rows (over budget)
	Workers  int
	Chunk    int                   // rows per query (0: what chunkBytes holds)
	progress func(done, total int) // chunks read; may be nil
}

// Model is a built model.
type Model struct {
	T, J     int
	Starts   []core.Time  // slice starts, T+1 entries (the last is to+1)
	Values   []core.Value // type id -> value
	Other    bool         // the last type stands for other values
	leaves   []float64    // per leaf, slice and type (L*T*J)
	Temporal *aggregate.TemporalAccumulator
}

// LeafRow returns the amounts of leaf l (T*J, slice-major).
func (m *Model) LeafRow(l int) []float64 {
	n := m.T * m.J
	return m.leaves[l*n : (l+1)*n]
}

// ovWorker is one goroutine's share of a model build.
type ovWorker struct {
	req    *ModelRequest
	m      *Model
	ids    localIDs
	slot   []int32 // key -> row index, shared read-only
	buf    []float64
	cells  [][]int32 // per chunk row: the cells of buf it touched
	base   int       // first row of the chunk
	n      int       // rows in the chunk
	acc    *aggregate.TemporalAccumulator
	leaves []float64
}

// sliceStart is the first instant of slice k of [from, to] cut into n
// slices (k = n: to+1), as the Gantt cuts its columns, so a slice of an
// overview as wide as the screen is a column.
func sliceStart(from, to core.Time, k, n int) core.Time {
	hi, lo := bits.Mul64(uint64(to-from+1), uint64(k))
	q, _ := bits.Div64(hi, lo, uint64(n))
	return from + core.Time(q)
}

// BuildModel reads the model: O(intervals in range + rows x |T| x |J|).
func BuildModel(ctx context.Context, req ModelRequest) (*Model, error) {
	T, J := req.Slices, MaxTypes
	sh := req.Shape
	m := &Model{T: T, J: J, Starts: make([]core.Time, T+1), leaves: make([]float64, len(sh.Leaves)*T*J)}
	for k := range m.Starts {
		m.Starts[k] = sliceStart(req.From, req.To, k, T)
	}
	if m.Starts[1] <= m.Starts[0] {
		return nil, fmt.Errorf("overview: %d slices of a %s range: zoom out or use fewer slices", T, core.FormatDuration(req.To-req.From+1))
	}
	slot := make([]int32, req.Hist.Attributes().Len())
	for i := range slot {
		slot[i] = -1
	}
	for i, k := range sh.RowKeys {
		slot[k] = int32(i)
	}
	rows := len(sh.RowKeys)
	chunk := req.Chunk
	if chunk <= 0 {
		chunk = max(chunkBytes/(T*J*8), 16)
	}
	chunks := (rows + chunk - 1) / chunk
	workers := max(min(req.Workers, chunks), 1)
	shared := &valueIDs{ids: map[core.Value]int{}}
	ws := make([]*ovWorker, workers)
	for i := range ws {
		w := &ovWorker{req: &req, m: m, ids: localIDs{shared: shared, m: map[core.Value]int{}}, slot: slot,
			buf: make([]float64, min(chunk, rows)*T*J), cells: make([][]int32, min(chunk, rows)),
			leaves: make([]float64, len(m.leaves))}
		if req.Temporal {
			w.acc, _ = aggregate.NewTemporalAccumulator(T, J)
		}
		ws[i] = w
	}
	var done atomic.Int64
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for i, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A fixed share of the chunks: the sums (and so the last bits
			// of the qualities) do not depend on scheduling.
			for c := i; c < chunks; c += workers {
				if err := w.chunk(ctx, c*chunk, min((c+1)*chunk, rows)); err != nil {
					errs[i] = err
					return
				}
				if d := done.Add(1); req.progress != nil {
					req.progress(int(d), chunks)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	for i, w := range ws {
		for j, x := range w.leaves {
			m.leaves[j] += x
		}
		if !req.Temporal {
			continue
		}
		if i == 0 {
			m.Temporal = w.acc
		} else if err := m.Temporal.Merge(w.acc); err != nil {
			return nil, err
		}
	}
	if req.Temporal && req.coarse {
		for l := range sh.Leaves {
			m.Temporal.Add(m.LeafRow(l), 1)
		}
	}
	m.Values, m.Other = shared.values, shared.other
	m.canonicalTypes()
	return m, nil
}

// canonicalTypes sorts the types by value (statuses in their numeric
// order), so types, colours' tie-breaks and the legend do not depend on
// which worker met a value first. The temporal accumulator's qualities do
// not depend on the order of types; the leaves' amounts are permuted.
func (m *Model) canonicalTypes() {
	n, fixed := len(m.Values), 0
	if n < 2 {
		return
	}
	order := make([]int, n) // new id -> old id
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order[fixed:], func(a, b int) int { return compareValues(m.Values[a], m.Values[b]) })
	values := make([]core.Value, n)
	for nw, old := range order {
		values[nw] = m.Values[old]
	}
	m.Values = values
	tmp := make([]float64, n)
	for cell := 0; cell < len(m.leaves); cell += m.J {
		for nw, old := range order {
			tmp[nw] = m.leaves[cell+old]
		}
		copy(m.leaves[cell:cell+n], tmp)
	}
}

// compareValues orders values by kind, then number, then string.
func compareValues(a, b core.Value) int {
	if a.Kind() != b.Kind() {
		return cmp.Compare(a.Kind(), b.Kind())
	}
	if c := cmp.Compare(a.Float(), b.Float()); c != 0 {
		return c
	}
	return cmp.Compare(a.Str(), b.Str())
}

// chunk reads rows [a, b) and adds them to the worker's sums.
func (w *ovWorker) chunk(ctx context.Context, a, b int) error {
	w.base, w.n = a, b-a
	req := w.req
	if _, err := req.Hist.Query2D(ctx, req.Shape.RowKeys[a:b], req.From, req.To, w.visit); err != nil {
		return fmt.Errorf("reading the states for the overview: %w", err)
	}
	n := w.m.T * w.m.J
	for r := range w.n {
		// Only the cells the row's intervals touched: a thread is in a
		// few states per slice, not in all |J|.
		row, cells := w.buf[r*n:(r+1)*n], w.cells[r]
		leaf := w.leaves[int(req.Shape.RowLeaf[a+r])*n:][:n]
		for _, i := range cells {
			row[i] = math.Round(row[i])
			leaf[i] += row[i]
		}
		if w.acc != nil && !req.coarse {
			w.acc.AddSparse(row, cells, 1)
		}
		for _, i := range cells {
			row[i] = 0
		}
		w.cells[r] = cells[:0]
	}
	return ctx.Err()
}

// visit adds one interval's time, per slice, in slice units.
func (w *ovWorker) visit(iv core.Interval) bool {
	if iv.Value.IsNull() || int(iv.Key) >= len(w.slot) {
		return true
	}
	r := int(w.slot[iv.Key]) - w.base
	if r < 0 || r >= w.n {
		return true
	}
	st := w.m.Starts
	s, e := max(iv.Start, st[0]), min(iv.End, st[len(st)-1]-1)
	if s > e {
		return true
	}
	id := w.ids.id(iv.Value)
	T, J := w.m.T, w.m.J
	k := sort.Search(T, func(k int) bool { return st[k+1] > s })
	row := w.buf[r*T*J:]
	for ; k < T && st[k] <= e; k++ {
		d := min(e, st[k+1]-1) - max(s, st[k]) + 1
		i := k*J + id
		if row[i] == 0 {
			w.cells[r] = append(w.cells[r], int32(i))
		}
		row[i] += float64(d) * TicksPerSlice / float64(st[k+1]-st[k])
	}
	return true
}

// DefaultWorkers is how many goroutines a build uses: every core.
func DefaultWorkers() int { return runtime.GOMAXPROCS(0) }
