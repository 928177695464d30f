package tui

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/aggregate"
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
	// ticksPerSlice is the model's unit of time: 1/64 of a slice.
	ticksPerSlice = 64
	// maxTypes bounds |J|: kernel thread statuses need 7 (CPU statuses
	// 6); string-valued rows (user-space, Chrome) keep their first
	// maxTypes-1 distinct values and count the rest as one "other values"
	// type. Every type costs a pass over each row.
	maxTypes = 8
	// maxLeaves bounds the leaves of the spatiotemporal hierarchy (and the
	// drawn groups): beyond it threads are summed into their process, and
	// processes into groups of consecutive processes (the thesis's
	// pre-aggregation of the lowest levels, 6.4.4). A terminal shows a few
	// dozen lines: finer leaves would only be drawn merged.
	maxLeaves = 256
	// chunkBytes is the size of a worker's chunk buffer.
	chunkBytes = 4 << 20
)

// ovLeaf is one leaf of the overview's hierarchy: a row, or (over
// maxLeaves) a process or a group of processes summed.
type ovLeaf struct {
	label string
	node  int32 // the tree node enter selects
	rows  int   // rows summed
	depth int   // indentation (a thread under its process)
}

// ovShape is the overview's resources and hierarchy, built from the row
// tree on the UI goroutine (cheap: linear in the rows) and then read only.
type ovShape struct {
	leaves   []ovLeaf
	hier     *aggregate.Hierarchy // node 0 is the root; a leaf's resource is its index
	first    []int                // per hierarchy node: its first leaf
	last     []int                // per hierarchy node: its last leaf
	nodeTree []int32              // per hierarchy node: the tree node enter selects (-1: none)
	nodeRows []int                // per hierarchy node: rows under it
	rowKeys  []core.Key           // the status attribute of every row
	rowLeaf  []int32              // the leaf each row adds to
	grouped  string               // how rows were grouped over maxLeaves ("" if not)
}

// ovEntry is a top-level row of the tree with the rows under it.
type ovEntry struct {
	node int32
	rows []int32 // tree nodes with a status key
}

// buildShape lists the rows of a tree with their hierarchy (Control Flow:
// process > thread; Resources: CPUs), coarsened to at most limit leaves.
func buildShape(t *rowTree, limit int) *ovShape {
	var entries []ovEntry
	total := 0
	isRow := func(n *node) bool {
		return n.key >= 0 && (n.kind == kindThread || n.kind == kindProcess || n.kind == kindCPU)
	}
	for _, r := range t.roots {
		e := ovEntry{node: r}
		if isRow(&t.nodes[r]) {
			e.rows = append(e.rows, r)
		}
		if t.nodes[r].kind == kindProcess {
			for _, c := range t.nodes[r].children {
				if isRow(&t.nodes[c]) {
					e.rows = append(e.rows, c)
				}
			}
		}
		if len(e.rows) > 0 {
			entries = append(entries, e)
			total += len(e.rows)
		}
	}
	sh := &ovShape{hier: &aggregate.Hierarchy{Children: [][]int{nil}, Resource: []int{-1}}, nodeTree: []int32{-1}}
	newNode := func(parent int, tree int32) int {
		v := len(sh.hier.Children)
		sh.hier.Children = append(sh.hier.Children, nil)
		sh.hier.Resource = append(sh.hier.Resource, -1)
		sh.nodeTree = append(sh.nodeTree, tree)
		sh.hier.Children[parent] = append(sh.hier.Children[parent], v)
		return v
	}
	addLeaf := func(parent int, l ovLeaf, rows []int32) {
		v := newNode(parent, l.node)
		sh.hier.Resource[v] = len(sh.leaves)
		for _, r := range rows {
			sh.rowKeys = append(sh.rowKeys, t.nodes[r].key)
			sh.rowLeaf = append(sh.rowLeaf, int32(len(sh.leaves)))
		}
		l.rows = len(rows)
		sh.leaves = append(sh.leaves, l)
	}
	switch {
	case total <= limit: // every row is a leaf, under its process
		for _, e := range entries {
			if len(e.rows) == 1 {
				addLeaf(0, ovLeaf{label: t.nodes[e.rows[0]].label, node: e.rows[0]}, e.rows)
				continue
			}
			p := newNode(0, e.node)
			for _, r := range e.rows {
				d := 1
				if r == e.node {
					d = 0 // the leader thread is the process's own row
				}
				addLeaf(p, ovLeaf{label: t.nodes[r].label, node: r, depth: d}, []int32{r})
			}
		}
	case len(entries) <= limit: // processes are leaves
		for _, e := range entries {
			label := t.nodes[e.node].label
			if len(e.rows) > 1 {
				label += fmt.Sprintf(" (%d)", len(e.rows))
			}
			addLeaf(0, ovLeaf{label: label, node: e.node}, e.rows)
		}
		sh.grouped = fmt.Sprintf("%d rows summed into their %d processes", total, len(entries))
	default: // groups of consecutive processes are leaves
		for g := range limit {
			a, z := g*len(entries)/limit, (g+1)*len(entries)/limit
			var rows []int32
			for _, e := range entries[a:z] {
				rows = append(rows, e.rows...)
			}
			label := t.nodes[entries[a].node].label
			if z-a > 1 {
				label += fmt.Sprintf(" +%d", z-a-1)
			}
			addLeaf(0, ovLeaf{label: label, node: entries[a].node}, rows)
		}
		sh.grouped = fmt.Sprintf("%d rows summed into %d groups", total, limit)
	}
	n := len(sh.hier.Children)
	sh.first, sh.last, sh.nodeRows = make([]int, n), make([]int, n), make([]int, n)
	for v := n - 1; v >= 0; v-- { // children are created after their parent
		if r := sh.hier.Resource[v]; r >= 0 {
			sh.first[v], sh.last[v], sh.nodeRows[v] = r, r, sh.leaves[r].rows
			continue
		}
		sh.first[v], sh.last[v] = len(sh.leaves), -1
		for _, c := range sh.hier.Children[v] {
			sh.first[v], sh.last[v] = min(sh.first[v], sh.first[c]), max(sh.last[v], sh.last[c])
			sh.nodeRows[v] += sh.nodeRows[c]
		}
	}
	return sh
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
	if len(v.values) == maxTypes-1 {
		v.other = true
		return maxTypes - 1
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

// ovModelRequest is what a model build reads (copied from the browser).
type ovModelRequest struct {
	hist     core.History
	shape    *ovShape
	from, to core.Time
	slices   int
	temporal bool // feed the temporal accumulator (else: leaves only)
	coarse   bool // the temporal resources are the leaves, not the rows (over budget)
	workers  int
	chunk    int                   // rows per query (0: what chunkBytes holds)
	progress func(done, total int) // chunks read; may be nil
}

// ovModel is a built model.
type ovModel struct {
	T, J     int
	starts   []core.Time  // slice starts, T+1 entries (the last is to+1)
	values   []core.Value // type id -> value
	other    bool         // the last type stands for other values
	leaves   []float64    // per leaf, slice and type (L*T*J)
	temporal *aggregate.TemporalAccumulator
}

// leafRow returns the amounts of leaf l (T*J, slice-major).
func (m *ovModel) leafRow(l int) []float64 {
	n := m.T * m.J
	return m.leaves[l*n : (l+1)*n]
}

// ovWorker is one goroutine's share of a model build.
type ovWorker struct {
	req    *ovModelRequest
	m      *ovModel
	ids    localIDs
	slot   []int32 // key -> row index, shared read-only
	buf    []float64
	cells  [][]int32 // per chunk row: the cells of buf it touched
	base   int       // first row of the chunk
	n      int       // rows in the chunk
	acc    *aggregate.TemporalAccumulator
	leaves []float64
}

// buildModel reads the model: O(intervals in range + rows x |T| x |J|).
func buildModel(ctx context.Context, req ovModelRequest) (*ovModel, error) {
	T, J := req.slices, maxTypes
	sh := req.shape
	m := &ovModel{T: T, J: J, starts: make([]core.Time, T+1), leaves: make([]float64, len(sh.leaves)*T*J)}
	v := timeView{Start: req.from, End: req.to, T0: req.from, T1: req.to, Cols: T}
	for k := range m.starts {
		m.starts[k] = v.ColStart(k)
	}
	if m.starts[1] <= m.starts[0] {
		return nil, fmt.Errorf("overview: %d slices of a %s range: zoom out or use fewer slices", T, core.FormatDuration(req.to-req.from+1))
	}
	slot := make([]int32, req.hist.Attributes().Len())
	for i := range slot {
		slot[i] = -1
	}
	for i, k := range sh.rowKeys {
		slot[k] = int32(i)
	}
	rows := len(sh.rowKeys)
	chunk := req.chunk
	if chunk <= 0 {
		chunk = max(chunkBytes/(T*J*8), 16)
	}
	chunks := (rows + chunk - 1) / chunk
	workers := max(min(req.workers, chunks), 1)
	shared := &valueIDs{ids: map[core.Value]int{}}
	ws := make([]*ovWorker, workers)
	for i := range ws {
		w := &ovWorker{req: &req, m: m, ids: localIDs{shared: shared, m: map[core.Value]int{}}, slot: slot,
			buf: make([]float64, min(chunk, rows)*T*J), cells: make([][]int32, min(chunk, rows)),
			leaves: make([]float64, len(m.leaves))}
		if req.temporal {
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
		if !req.temporal {
			continue
		}
		if i == 0 {
			m.temporal = w.acc
		} else if err := m.temporal.Merge(w.acc); err != nil {
			return nil, err
		}
	}
	if req.temporal && req.coarse {
		for l := range sh.leaves {
			m.temporal.Add(m.leafRow(l), 1)
		}
	}
	m.values, m.other = shared.values, shared.other
	m.canonicalTypes()
	return m, nil
}

// canonicalTypes sorts the types by value (statuses in their numeric
// order), so types, colours' tie-breaks and the legend do not depend on
// which worker met a value first. The temporal accumulator's qualities do
// not depend on the order of types; the leaves' amounts are permuted.
func (m *ovModel) canonicalTypes() {
	n, fixed := len(m.values), 0
	if n < 2 {
		return
	}
	order := make([]int, n) // new id -> old id
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order[fixed:], func(a, b int) int { return compareValues(m.values[a], m.values[b]) })
	values := make([]core.Value, n)
	for nw, old := range order {
		values[nw] = m.values[old]
	}
	m.values = values
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
	if _, err := req.hist.Query2D(ctx, req.shape.rowKeys[a:b], req.from, req.to, w.visit); err != nil {
		return fmt.Errorf("reading the states for the overview: %w", err)
	}
	n := w.m.T * w.m.J
	for r := range w.n {
		// Only the cells the row's intervals touched: a thread is in a
		// few states per slice, not in all |J|.
		row, cells := w.buf[r*n:(r+1)*n], w.cells[r]
		leaf := w.leaves[int(req.shape.rowLeaf[a+r])*n:][:n]
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
	st := w.m.starts
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
		row[i] += float64(d) * ticksPerSlice / float64(st[k+1]-st[k])
	}
	return true
}

// defaultWorkers is how many goroutines a build uses: every core.
func defaultWorkers() int { return runtime.GOMAXPROCS(0) }
