package flame

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/calltree"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/ui"
)

// The call tree (F): the call stacks of the selected thread or process
// (every thread with a call stack when no such row is selected) over the
// selection or the visible range, aggregated by ingest/query/calltree in a
// background job. An icicle (flame graph, callers on top, each function
// as wide as its total time) above an expandable call-tree table
// (function, calls, total, self, min, max). enter zooms Control Flow to
// the longest call of the function under the cursor. A profile of
// samples (perf.data: Request.Samples) shows sample counts and
// percentages instead of times.

// Screen is the call tree screen. Opened from the comparison screen it
// holds both sides (Request.Other): the Focus key swaps them.
type Screen struct {
	sh *ui.Shared
	*side
	other *side // the other side of a comparison; nil: none
}

// side is one call tree with its table's state.
type side struct {
	job      ui.Job
	what     string // "thread 42 over the selection"
	start    core.Time
	from, to core.Time
	pane     int
	node     int32    // the row to select when zooming (-1: none)
	path     []string // the call path to open and select when the tree is in
	noZoom   bool     // not the Gantt's trace: enter does not zoom

	root   *calltree.Node
	Status string
	open   map[*calltree.Node]bool
	lines  []flameLine // the table's visible lines
	cur    int
	top    int
}

// flameLine is one line of the table.
type flameLine struct {
	n     *calltree.Node
	depth int
}

// callTreeMsg is the result of the aggregation of one side.
type callTreeMsg struct {
	to   *side
	seq  uint64
	root *calltree.Node
	err  error
}

// icicleLines is the most lines the icicle takes (one per depth).
const icicleLines = 8

// Request is what the call tree aggregates: the call stacks of
// Threads (nil: every thread with a call stack) over [From, To], and
// where Control Flow goes back to.
type Request struct {
	Hist     core.History
	Label    func(thread core.Key, v core.Value) string // a frame's function name
	Start    core.Time                                  // the trace start, for offsets
	From, To core.Time
	Pane     int
	Node     int32 // the row to select when zooming (-1: none)
	Threads  []core.Key
	What     string // "thread 42 over the selection"
	// Samples, if set, aggregates the sampled stacks of threads (nil:
	// all) over [from, to) (perf.data profiles); a nil tree (no samples)
	// falls back to the call stacks of Hist.
	Samples func(ctx context.Context, from, to core.Time, threads []core.Key) (*calltree.Node, error)
	// Path, if set, is the call path (outermost function first) whose
	// callers are expanded and on which the cursor is put when the tree
	// is in (the comparison screen's enter on a call path).
	Path []string
	// NoZoom: the tree is not of the Gantt's trace (NEW of two traces),
	// so enter cannot zoom Control Flow to a call.
	NoZoom bool
	// Other, if set, is the other side of a comparison (BASE when this
	// is NEW), computed at once and shown by the Focus key.
	Other *Request
}

// New opens the call tree screen and returns the command that
// aggregates it (and Other) in the background.
func New(ctx context.Context, sh *ui.Shared, r Request) (*Screen, tea.Cmd) {
	v := &Screen{sh: sh}
	var cmd tea.Cmd
	v.side, cmd = newSide(ctx, r)
	if r.Other != nil {
		var other tea.Cmd
		v.other, other = newSide(ctx, *r.Other)
		cmd = tea.Batch(cmd, other)
	}
	return v, cmd
}

// newSide starts aggregating one side.
func newSide(ctx context.Context, r Request) (*side, tea.Cmd) {
	v := &side{start: r.Start, from: r.From, to: r.To, pane: r.Pane, node: r.Node, what: r.What, path: r.Path, noZoom: r.NoZoom,
		open: map[*calltree.Node]bool{}, Status: "computing…"}
	hist, from, to, threads, label, samples := r.Hist, v.from, v.to+1, r.Threads, r.Label, r.Samples
	ctx, seq := v.job.Start(ctx)
	return v, func() tea.Msg {
		if samples != nil {
			root, err := samples(ctx, from, to, threads)
			if err != nil || root != nil {
				return callTreeMsg{to: v, seq: seq, root: root, err: err}
			}
		}
		root, err := calltree.Compute(ctx, hist, calltree.Options{From: from, To: to, Threads: threads, Label: label})
		return callTreeMsg{to: v, seq: seq, root: root, err: err}
	}
}

// Close cancels the aggregations.
func (v *Screen) Close() {
	v.job.Stop()
	if v.other != nil {
		v.other.job.Stop()
	}
}

// Update handles a key or the result.
func (v *Screen) Update(msg tea.Msg) ui.Step {
	switch msg := msg.(type) {
	case callTreeMsg:
		if msg.to == v.side || msg.to == v.other {
			msg.to.got(msg)
		}
		return ui.Step{}
	case tea.KeyMsg:
		return v.key(msg)
	}
	return ui.Step{}
}

// got applies a side's result.
func (v *side) got(msg callTreeMsg) {
	if !v.job.Current(msg.seq) {
		return
	}
	v.job.Finish()
	switch {
	case msg.err != nil && msg.err != context.Canceled:
		v.Status = "failed: " + msg.err.Error()
	case msg.err == nil:
		v.root, v.Status = msg.root, ""
		if len(msg.root.Children) == 0 {
			v.Status = "no call stack in this range"
		}
		for _, c := range msg.root.Children { // the outermost functions open
			v.open[c] = true
		}
		v.relist()
		if v.path != nil {
			v.selectPath(v.path)
		}
	}
}

// selectPath opens the callers of the call path (outermost first) and
// puts the cursor on it, or on its deepest caller in the tree.
func (v *side) selectPath(path []string) {
	n, found := v.root, 0
	for _, f := range path {
		var next *calltree.Node
		for _, c := range n.Children {
			if c.Name == f {
				next = c
				break
			}
		}
		if next == nil {
			break
		}
		if found > 0 {
			v.open[n] = true
		}
		n, found = next, found+1
	}
	if found < len(path) && len(n.Children) > 0 {
		v.open[n] = true // what the caller calls here instead
	}
	v.relist()
	for i, l := range v.lines {
		if l.n == n {
			v.cur = i
		}
	}
	if found < len(path) {
		v.what += " (the call path is not on this side: its deepest caller here is selected)"
	}
}

// CursorPath returns the call path of the line under the cursor
// (outermost function first; nil before the tree is in).
func (v *Screen) CursorPath() []string {
	if v.cur >= len(v.lines) {
		return nil
	}
	path := []string{v.lines[v.cur].n.Name}
	for i, d := v.cur-1, v.lines[v.cur].depth; i >= 0 && d > 0; i-- {
		if v.lines[i].depth == d-1 { // the nearest line above one level up: the caller
			path = append(path, v.lines[i].n.Name)
			d--
		}
	}
	slices.Reverse(path)
	return path
}

// key handles the screen's keys.
func (v *Screen) key(msg tea.KeyMsg) ui.Step {
	km := &v.sh.Keys
	switch {
	case msg.Type == tea.KeyEsc, key.Matches(msg, km.CallTree):
		return ui.Step{Done: true}
	case key.Matches(msg, km.Focus) && v.other != nil:
		v.side, v.other = v.other, v.side
	case key.Matches(msg, km.Up):
		v.cur = max(v.cur-1, 0)
	case key.Matches(msg, km.Down):
		v.cur = max(min(v.cur+1, len(v.lines)-1), 0)
	case key.Matches(msg, km.PageUp):
		v.cur = max(v.cur-v.tableHeight(), 0)
	case key.Matches(msg, km.PageDown):
		v.cur = max(min(v.cur+v.tableHeight(), len(v.lines)-1), 0)
	case key.Matches(msg, km.Right), key.Matches(msg, km.Left):
		if v.cur < len(v.lines) {
			n := v.lines[v.cur].n
			v.open[n] = key.Matches(msg, km.Right) && len(n.Children) > 0
			v.relist()
		}
	case key.Matches(msg, km.Toggle):
		if v.cur >= len(v.lines) {
			return ui.Step{}
		}
		n := v.lines[v.cur].n
		if n.Samples {
			return ui.Step{} // samples are instants: no call to zoom to
		}
		if v.noZoom {
			return ui.Step{Note: "this side's trace is not the one in Control Flow: no call to zoom to"}
		}
		z := ui.ZoomMsg{Pane: v.pane, Node: v.node, T0: n.LongestStart, T1: n.LongestEnd, Select: true,
			What: "the longest call of " + n.Name + " (" + core.FormatDuration(n.Max) + ")"}
		return ui.Step{Done: true, Cmd: func() tea.Msg { return z }}
	default:
		return ui.Step{}
	}
	return ui.Step{}
}

// relist flattens the open nodes into table lines.
func (v *side) relist() {
	v.lines = v.lines[:0]
	var walk func(n *calltree.Node, depth int)
	walk = func(n *calltree.Node, depth int) {
		for _, c := range n.Children {
			v.lines = append(v.lines, flameLine{c, depth})
			if v.open[c] {
				walk(c, depth+1)
			}
		}
	}
	if v.root != nil {
		walk(v.root, 0)
	}
	v.cur = max(min(v.cur, len(v.lines)-1), 0)
}

// tableHeight is the table's lines (its header excluded).
func (v *Screen) tableHeight() int {
	return max(v.sh.PanelLines()-2-v.icicleHeight(), 1)
}

// icicleHeight is the icicle's lines: the tree's depth, at most
// icicleLines, and at most a third of the panel.
func (v *Screen) icicleHeight() int {
	if v.root == nil {
		return 0
	}
	return min(depthOf(v.root), icicleLines, max(v.sh.PanelLines()/3, 1))
}

func depthOf(n *calltree.Node) int {
	d := 0
	for _, c := range n.Children {
		d = max(d, depthOf(c))
	}
	if n.Name == "" && d == 0 {
		return 0
	}
	return d + 1
}

// View draws the title, the icicle and the table.
func (v *Screen) View(a ui.Area) []string {
	st := v.sh.Styles
	w := a.Width
	title := "Call tree of " + v.what
	if v.other != nil { // before the path, which may be long
		title = "Call tree (" + v.sh.Keys.Focus.Help().Key + ": the other side) of " + v.what
	}
	lines := []string{v.sh.RangeTitle(title, v.start, v.from, v.to, w)}
	if v.Status != "" {
		lines = append(lines, st.Dim.Render(ui.Fit(v.Status, w)))
		return ui.FillLines(lines, a.Height)
	}
	var sel *calltree.Node
	if v.cur < len(v.lines) {
		sel = v.lines[v.cur].n
	}
	lines = append(lines, v.icicle(w, v.icicleHeight(), sel)...)
	header := flameRow("function", "calls", "total", "self", "min", "max", w)
	if v.root.Samples {
		header = flameRow("function", "samples", "total%", "self", "self%", "", w)
	}
	lines = append(lines, st.TableHeader.Render(ui.Fit(header, w)))
	h := v.tableHeight()
	if v.cur < v.top {
		v.top = v.cur
	} else if v.cur >= v.top+h {
		v.top = v.cur - h + 1
	}
	for i := v.top; i < len(v.lines) && i < v.top+h; i++ {
		l := v.lines[i]
		mark := "  "
		if len(l.n.Children) > 0 {
			mark = "▸ "
			if v.open[l.n] {
				mark = "▾ "
			}
			if st.ASCII {
				mark = strings.NewReplacer("▸", "+", "▾", "-").Replace(mark)
			}
		}
		name := strings.Repeat("  ", l.depth) + mark + l.n.Name
		if i == v.cur && st.ASCII { // reverse video does not show in ASCII
			name = ui.SelMarker + name
		}
		row := flameRow(name, strconv.FormatInt(l.n.Calls, 10),
			core.FormatDuration(l.n.Total), core.FormatDuration(l.n.Self), core.FormatDuration(l.n.Min), core.FormatDuration(l.n.Max), w)
		if l.n.Samples {
			row = flameRow(name, strconv.FormatInt(int64(l.n.Total), 10), percent(l.n.Total, v.root.Total),
				strconv.FormatInt(int64(l.n.Self), 10), percent(l.n.Self, v.root.Total), "", w)
		}
		text := ui.Fit(row, w)
		if i == v.cur {
			text = st.TableSelected.Render(text)
		}
		lines = append(lines, text)
	}
	return ui.FillLines(lines, a.Height)
}

// percent prints part's share of whole ("12.34%").
func percent(part, whole core.Time) string {
	return strconv.FormatFloat(calltree.Percent(part, whole), 'f', 2, 64) + "%"
}

// flameRow lays out one table line: the function gets what the five
// numeric columns leave.
func flameRow(fn, calls, total, self, mn, mx string, w int) string {
	nums := ui.PadLeft(calls, 9) + ui.PadLeft(total, 11) + ui.PadLeft(self, 11) + ui.PadLeft(mn, 11) + ui.PadLeft(mx, 11)
	return ui.Fit(fn, max(w-len(nums), 8)) + nums
}

// icicle draws h levels of the tree: each function's cell as wide as
// its share of its caller's total, its name inside, cells separated by
// a bar; the functions on the path to sel are highlighted.
func (v *Screen) icicle(w, h int, sel *calltree.Node) []string {
	st := v.sh.Styles
	bar := "▏"
	if st.ASCII {
		bar = "|"
	}
	onPath := map[*calltree.Node]bool{}
	var find func(n *calltree.Node) bool
	find = func(n *calltree.Node) bool {
		if n == sel {
			onPath[n] = true
			return true
		}
		for _, c := range n.Children {
			if find(c) {
				onPath[n] = true
				return true
			}
		}
		return false
	}
	find(v.root)
	type span struct {
		n      *calltree.Node
		x0, x1 int
	}
	level := []span{{v.root, 0, w}}
	var out []string
	for range h {
		var next []span
		var sb strings.Builder
		x := 0
		for _, s := range level {
			cx := s.x0
			var acc core.Time
			for _, c := range s.n.Children {
				acc += c.Total
				x1 := s.x0 + int(int64(s.x1-s.x0)*int64(acc)/max(int64(s.n.Total), 1))
				if x1 <= cx {
					continue // narrower than a cell
				}
				if cx > x {
					sb.WriteString(strings.Repeat(" ", cx-x))
				}
				cell := ui.Fit(bar+c.Name, x1-cx)
				if x1-cx < 3 { // too narrow for a name: the bar alone
					cell = ui.Fit(bar, x1-cx)
				}
				if onPath[c] {
					cell = st.Reverse.Render(cell)
				}
				sb.WriteString(cell)
				next = append(next, span{c, cx, x1})
				cx, x = x1, x1
			}
		}
		out = append(out, ui.PadStyled(sb.String(), w))
		level = next
	}
	return out
}

// Help is the call tree's help line.
func (v *Screen) Help() string {
	return v.sh.Hint(keymap.FocusCallTree)
}
