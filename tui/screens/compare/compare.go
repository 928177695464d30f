package compare

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/diff"
	"github.com/tracetui/tracetui/ingest/query/stats"
	"github.com/tracetui/tracetui/tui/ui"
)

// MaxRows bounds each table (diff.Options.Top).
const MaxRows = 500

// The tables, in tab order.
const (
	Processes = iota
	Threads
	Syscalls
	Latency
	IRQs
	CallTree
	NumTables
)

// kind is what a line names, for enter.
type kind uint8

const (
	kindOther kind = iota
	kindThread
	kindProcess
)

// Line is one row of a table: a name and its figures on both sides.
type Line struct {
	Name      string
	Base, New int64    // ns (call tree: ns or samples)
	Delta     int64    // New - Base
	Ratio     *float64 // New / Base, nil when Base is 0
	BaseN     int64    // system calls: counts
	NewN      int64
	kind      kind
	baseID    int32 // the thread or process on each side (kind != kindOther)
	newID     int32
	inB, inN  bool
}

// Sort keys, in the order the sort key cycles through them.
const (
	SortDelta = iota // absolute delta, largest first
	SortNew
	SortBase
	SortRatio
	SortName
	numSorts
)

var sortNames = [numSorts]string{"change", "new", "base", "ratio", "name"}

// Table is one table with its order and scroll position.
type Table struct {
	Title  string
	Lines  []Line
	SortBy int
	Asc    bool
	Cur    int
	top    int
	status string // "computing…", an error; "" when complete
}

// Sort orders the lines by the sort key (numbers largest first, names
// ascending), ties by name.
func (t *Table) Sort() {
	slices.SortStableFunc(t.Lines, func(a, b Line) int {
		var r int
		switch t.SortBy {
		case SortDelta:
			r = -cmp.Compare(absI(a.Delta), absI(b.Delta))
		case SortNew:
			r = -cmp.Compare(a.New, b.New)
		case SortBase:
			r = -cmp.Compare(a.Base, b.Base)
		case SortRatio:
			r = -cmp.Compare(ratioKey(a), ratioKey(b))
		case SortName:
			r = cmp.Compare(a.Name, b.Name)
		}
		if t.Asc {
			r = -r
		}
		if r == 0 {
			r = cmp.Compare(a.Name, b.Name)
		}
		return r
	})
}

// ratioKey sorts a line only on the new side above every ratio.
func ratioKey(l Line) float64 {
	if l.Ratio == nil {
		if l.New == 0 {
			return 0
		}
		return 1e300
	}
	return *l.Ratio
}

func absI(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// Input is what is compared.
type Input struct {
	Base, New diff.Side
	// TwoTraces: the sides are two traces (the Gantt shows Base), not two
	// ranges of one.
	TwoTraces bool
	// What says what the sides are, for the title ("selection 2 against
	// selection 1").
	What string
}

// Screen is the comparison screen, a view.
type Screen struct {
	sh     *ui.Shared
	in     Input
	ctx    context.Context
	job    ui.Job
	treeJb ui.Job
	Tables [NumTables]Table
	Focus  int
	asked  bool       // the call tree's computation started
	flame  *flameNode // the differential flame graph (nil before the call tree is in)
	unit   string     // the call tree's: diff.UnitNS or diff.UnitSamples
}

// Msg is a report of the computation: the tables but the call tree, or
// the call tree.
type Msg struct {
	seq   uint64
	tree  bool
	last  bool // the tables are complete
	res   *diff.Result
	trees *diff.Trees
	err   error
	ch    <-chan Msg
}

// On returns the report carrying the channel it came from (ui.WaitReport).
func (m Msg) On(ch <-chan Msg) Msg { m.ch = ch; return m }

// newTables are the tables, empty and computing.
func newTables() [NumTables]Table {
	titles := [NumTables]string{"CPU time per process", "CPU time per thread", "System calls (total time)",
		"Wake-up latency per thread", "Interrupt time", "Call tree (self per call path)"}
	var ts [NumTables]Table
	for i := range ts {
		ts[i] = Table{Title: titles[i], status: "computing…"}
	}
	return ts
}

// New opens the comparison and returns the command computing its tables.
func New(ctx context.Context, sh *ui.Shared, in Input) (*Screen, tea.Cmd) {
	s := &Screen{sh: sh, in: in, ctx: ctx}
	s.Tables = newTables()
	jctx, seq := s.job.Start(ctx)
	base, next := in.Base, in.New
	return s, ui.Spawn(2, func(ch chan<- Msg) {
		// The CPU times first (the first tables, sooner), then every
		// table, which replaces them.
		for _, parts := range []stats.Part{stats.PartCPU, stats.AllParts} {
			r, err := diff.Compute(jctx, base, next, diff.Options{Top: MaxRows, Parts: parts})
			select {
			case ch <- Msg{seq: seq, res: r, err: err, last: parts == stats.AllParts || err != nil}:
			case <-jctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	})
}

// Close cancels the computations.
func (s *Screen) Close() {
	s.job.Stop()
	s.treeJb.Stop()
}

// Update handles a key or a report.
func (s *Screen) Update(msg tea.Msg) ui.Step {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return s.key(msg)
	case Msg:
		return ui.Step{Cmd: s.got(msg)}
	}
	return ui.Step{}
}

// got applies a report.
func (s *Screen) got(m Msg) tea.Cmd {
	if m.tree {
		if !s.treeJb.Current(m.seq) {
			return nil
		}
		s.treeJb.Finish()
		t := &s.Tables[CallTree]
		if m.err != nil {
			t.status = "failed: " + m.err.Error()
			return nil
		}
		t.Lines, t.status, s.unit = pathLines(m.trees.Rows), "", m.trees.Unit
		if s.unit == diff.UnitSamples {
			t.Title = "Call tree (self samples per call path)"
		}
		t.Sort()
		s.flame = diffFlame(m.trees.Base, m.trees.New)
		return nil
	}
	if !s.job.Current(m.seq) {
		return nil
	}
	if m.last {
		s.job.Finish()
	}
	if m.err != nil {
		for i := range s.Tables {
			s.Tables[i].status = "failed: " + m.err.Error()
		}
		return nil
	}
	r := m.res
	s.Tables[Processes].Lines = timeLines(r.Processes, kindProcess, r.BaseIDs.Processes, r.NewIDs.Processes)
	s.Tables[Threads].Lines = timeLines(r.Threads, kindThread, r.BaseIDs.Threads, r.NewIDs.Threads)
	for i := range Syscalls {
		s.Tables[i].status = ""
		s.Tables[i].Sort()
	}
	if !m.last {
		return ui.WaitReport(m.ch)
	}
	s.Tables[Syscalls].Lines = nil
	s.Tables[Latency].Lines = timeLines(r.SchedLatency, kindThread, r.BaseIDs.Threads, r.NewIDs.Threads)
	s.Tables[IRQs].Lines = timeLines(r.IRQs, kindOther, nil, nil)
	for _, c := range r.Syscalls {
		l := Line{Name: c.Name, Base: c.Base.TotalNS, New: c.New.TotalNS, Delta: c.DeltaTotalNS, BaseN: c.Base.Count, NewN: c.New.Count}
		if l.Base != 0 {
			l.Ratio = new(float64(l.New) / float64(l.Base))
		}
		s.Tables[Syscalls].Lines = append(s.Tables[Syscalls].Lines, l)
	}
	for i := Syscalls; i < CallTree; i++ {
		s.Tables[i].status = ""
		s.Tables[i].Sort()
	}
	return s.askTree()
}

// timeLines turns a table of diff into lines, with each side's thread or
// process for enter.
func timeLines(rows []diff.TimeRow, k kind, baseIDs, newIDs map[string]int32) []Line {
	out := make([]Line, 0, len(rows))
	for _, r := range rows {
		l := Line{Name: r.Name, Base: r.BaseNS, New: r.NewNS, Delta: r.DeltaNS, Ratio: r.Ratio, kind: k}
		l.baseID, l.inB = baseIDs[r.Name]
		l.newID, l.inN = newIDs[r.Name]
		out = append(out, l)
	}
	return out
}

func pathLines(rows []diff.PathRow) []Line {
	out := make([]Line, 0, len(rows))
	for _, r := range rows {
		l := Line{Name: r.Path, Base: r.BaseSelf, New: r.NewSelf, Delta: r.DeltaSelf}
		if l.Base != 0 {
			l.Ratio = new(float64(l.New) / float64(l.Base))
		}
		out = append(out, l)
	}
	return out
}

// askTree starts the call tree's computation once its tab is shown.
func (s *Screen) askTree() tea.Cmd {
	if s.Focus != CallTree || s.asked || s.job.Running() {
		return nil
	}
	s.asked = true
	ctx, seq := s.treeJb.Start(s.ctx)
	base, next := s.in.Base, s.in.New
	return ui.Spawn(1, func(ch chan<- Msg) {
		tr, err := diff.CallTree(ctx, base, next, MaxRows)
		select {
		case ch <- Msg{seq: seq, tree: true, trees: tr, err: err}:
		case <-ctx.Done():
		}
	})
}

// GoToMsg asks the main screen to select a compared thread or process:
// its ID on each side (ok false: not on that side).
type GoToMsg struct {
	Name              string
	Process           bool
	BaseID, NewID     int32
	InBase, InNew     bool
	BaseName, NewName string // the sides' names
	TwoTraces         bool
	// Base and New ranges (To <= From: the whole trace).
	BaseFrom, BaseTo, NewFrom, NewTo core.Time
}

// PathMsg asks the main screen to open the call trees of both sides at a
// call path (enter on a call tree line), above the comparison.
type PathMsg struct {
	Path      []string // outermost function first
	Base, New diff.Side
	TwoTraces bool
}

// key handles a key.
func (s *Screen) key(msg tea.KeyMsg) ui.Step {
	km := &s.sh.Keys
	t := &s.Tables[s.Focus]
	page := max(s.bodyLines()-1, 1)
	switch {
	case msg.Type == tea.KeyEsc || key.Matches(msg, km.Compare):
		return ui.Step{Done: true}
	case key.Matches(msg, km.Focus):
		s.Focus = (s.Focus + 1) % NumTables
		return ui.Step{Cmd: s.askTree()}
	case key.Matches(msg, km.SortNext):
		t.SortBy = (t.SortBy + 1) % numSorts
		t.Asc = false
		t.Sort()
		return ui.Step{Note: "sorted by " + sortNames[t.SortBy]}
	case key.Matches(msg, km.SortReverse):
		t.Asc = !t.Asc
		t.Sort()
	case msg.Type == tea.KeyEnter:
		return s.goTo()
	default:
		d, ok := ui.LineMove(km, msg, int64(page))
		if !ok {
			return ui.Step{Note: "comparison: " + s.Help()}
		}
		t.Cur = int(max(0, min(int64(t.Cur)+d, int64(len(t.Lines)-1))))
	}
	t.top = min(t.top, t.Cur) // the selected line stays in view
	t.top = max(t.top, t.Cur-page+1, 0)
	return ui.Step{}
}

// goTo closes the screen and asks for the selected line's thread or
// process.
func (s *Screen) goTo() ui.Step {
	t := &s.Tables[s.Focus]
	if s.Focus == CallTree && t.Cur < len(t.Lines) {
		p := PathMsg{Path: strings.Split(t.Lines[t.Cur].Name, ";"), Base: s.in.Base, New: s.in.New, TwoTraces: s.in.TwoTraces}
		return ui.Step{Cmd: func() tea.Msg { return p }} // the comparison stays below the call trees
	}
	if t.Cur >= len(t.Lines) || t.Lines[t.Cur].kind == kindOther {
		return ui.Step{Note: "no thread or call path on this line: enter goes to the thread or process of a CPU time or wake-up latency line, or to both call trees at a call path"}
	}
	l := t.Lines[t.Cur]
	g := GoToMsg{Name: l.Name, Process: l.kind == kindProcess, BaseID: l.baseID, NewID: l.newID, InBase: l.inB, InNew: l.inN,
		BaseName: s.in.Base.Name, NewName: s.in.New.Name, TwoTraces: s.in.TwoTraces,
		BaseFrom: s.in.Base.From, BaseTo: s.in.Base.To, NewFrom: s.in.New.From, NewTo: s.in.New.To}
	return ui.Step{Done: true, Cmd: func() tea.Msg { return g }}
}

// Describe says where a GoToMsg's row is, for the main screen's note.
func (g GoToMsg) Describe() string {
	what := "thread"
	if g.Process {
		what = "process"
	}
	side := func(name string, in bool, id int32) string {
		if !in {
			return "absent from " + name
		}
		return fmt.Sprintf("%s %d in %s", what, id, name)
	}
	return ui.Printable(g.Name) + ": " + side(g.BaseName, g.InBase, g.BaseID) + ", " + side(g.NewName, g.InNew, g.NewID)
}
