package compare

import (
	"context"
	"github.com/tracetui/tracetui/ingest/query/calltree"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/query/diff"
	"github.com/tracetui/tracetui/ingest/trace"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/ui"
	"github.com/tracetui/tracetui/tui/ui/headless"
)

func shared(w, h int, ascii bool) *ui.Shared {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	r.SetHasDarkBackground(true)
	return &ui.Shared{Width: w, Height: h, Styles: ui.NewStyles(r, ascii), Keys: keymap.Default()}
}

// open indexes a trace into a temporary file and returns its history.
func open(tb testing.TB, path string) core.History {
	tb.Helper()
	t, err := trace.Open(context.Background(), path, index.Options{IndexPath: filepath.Join(tb.TempDir(), "index")})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { t.Close() })
	return t.History()
}

// run executes a command and what it leads to on the screen, in order.
func run(s *Screen, cmd tea.Cmd) {
	for cmd != nil {
		msg := cmd()
		if msg == nil {
			return
		}
		cmd = s.Update(msg).Cmd
	}
}

// randomSides are two random ranges of h.
func randomSides(t *testing.T, h core.History) (diff.Side, diff.Side) {
	rng := coretest.Rand(t)
	start, end := h.Bounds()
	side := func(name string) diff.Side {
		a, b := start+core.Time(rng.Int64N(int64(end-start))), start+core.Time(rng.Int64N(int64(end-start)))
		return diff.Side{Name: name, History: h, From: min(a, b), To: max(a, b) + 1}
	}
	return side("A"), side("B")
}

// wantTimes are diff's time rows as the screen's lines.
func sameTimes(t *testing.T, table string, got []Line, want []diff.TimeRow) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d lines, diff.Compute has %d", table, len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Name != w.Name || g.Base != w.BaseNS || g.New != w.NewNS || g.Delta != w.DeltaNS || (g.Ratio == nil) != (w.Ratio == nil) ||
			g.Ratio != nil && *g.Ratio != *w.Ratio {
			t.Fatalf("%s line %d: %+v, diff.Compute: %+v", table, i, g, w)
		}
	}
}

// TestNumbersAreDiffs: the screen's tables are diff.Compute's rows on
// the same sides, line for line in the same order (largest change first),
// on a generated kernel trace's two random ranges; the call tree's on
// the shared cyg-profile trace (call stacks).
func TestNumbersAreDiffs(t *testing.T) {
	ctx := context.Background()
	h := open(t, gentest.Trace(t, 300))
	a, b := randomSides(t, h)
	s, cmd := New(ctx, shared(100, 30, true), Input{Base: a, New: b, What: "test"})
	defer s.Close()
	next := s.Update(cmd()).Cmd // the CPU times first, the other tables still computing
	if s.Tables[Processes].status != "" || s.Tables[Threads].status != "" || s.Tables[Syscalls].status != "computing…" || s.Tables[Latency].status != "computing…" {
		t.Fatalf("first report: statuses %q %q %q %q", s.Tables[Processes].status, s.Tables[Threads].status, s.Tables[Syscalls].status, s.Tables[Latency].status)
	}
	run(s, next)
	want, err := diff.Compute(ctx, a, b, diff.Options{Top: MaxRows})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Threads) == 0 || len(want.Syscalls) == 0 {
		t.Fatalf("nothing to compare: %d threads, %d system calls", len(want.Threads), len(want.Syscalls))
	}
	sameTimes(t, "processes", s.Tables[Processes].Lines, want.Processes)
	sameTimes(t, "threads", s.Tables[Threads].Lines, want.Threads)
	sameTimes(t, "latency", s.Tables[Latency].Lines, want.SchedLatency)
	sameTimes(t, "irqs", s.Tables[IRQs].Lines, want.IRQs)
	calls := s.Tables[Syscalls].Lines
	if len(calls) != len(want.Syscalls) {
		t.Fatalf("%d system call lines, diff.Compute has %d", len(calls), len(want.Syscalls))
	}
	for i, w := range want.Syscalls {
		g := calls[i]
		if g.Name != w.Name || g.Base != w.Base.TotalNS || g.New != w.New.TotalNS || g.Delta != w.DeltaTotalNS || g.BaseN != w.Base.Count || g.NewN != w.New.Count {
			t.Fatalf("system call line %d: %+v, diff.Compute: %+v", i, g, w)
		}
	}
	for i, l := range s.Tables[Threads].Lines {
		if id, ok := want.BaseIDs.Threads[l.Name]; l.inB != ok || ok && l.baseID != id {
			t.Fatalf("thread line %d %q: base tid %d %v, want %d %v", i, l.Name, l.baseID, l.inB, id, ok)
		}
	}

	t.Run("calltree", func(t *testing.T) {
		h := open(t, filepath.Join(coretest.SharedTraces(t), "ctf", "cyg-profile"))
		a, b := randomSides(t, h)
		a.From, a.To = 0, 0 // the whole trace against a part: some paths differ
		s, cmd := New(ctx, shared(100, 30, true), Input{Base: a, New: b, What: "test"})
		defer s.Close()
		run(s, cmd)
		if s.Tables[CallTree].status != "computing…" {
			t.Fatalf("call tree computed before its tab is shown: %q", s.Tables[CallTree].status)
		}
		for range CallTree {
			run(s, s.Update(headless.Key("tab")).Cmd)
		}
		want, err := diff.Compute(ctx, a, b, diff.Options{Top: MaxRows, CallTree: true})
		if err != nil {
			t.Fatal(err)
		}
		got := s.Tables[CallTree].Lines
		if len(want.CallTree) == 0 || len(got) != len(want.CallTree) {
			t.Fatalf("%d call tree lines, diff.Compute has %d", len(got), len(want.CallTree))
		}
		for i, w := range want.CallTree {
			if g := got[i]; g.Name != w.Path || g.Base != w.BaseSelf || g.New != w.NewSelf || g.Delta != w.DeltaSelf {
				t.Fatalf("call path line %d: %+v, diff.Compute: %+v", i, g, w)
			}
		}
	})
}

// fixed is a screen with known tables (no computation).
func fixed(t *testing.T) *Screen {
	r := new(float64(2))
	res := &diff.Result{
		Threads: []diff.TimeRow{{Name: "bash > make | make #0", BaseNS: 100, NewNS: 300, DeltaNS: 200, Ratio: r},
			{Name: "bash > make > cc1 | cc1 #0", NewNS: 50, DeltaNS: 50}},
		Syscalls: []diff.SyscallRow{{Name: "read", Base: diff.CallStats{Count: 2, TotalNS: 10, MaxNS: 6}, New: diff.CallStats{Count: 1, TotalNS: 4, MaxNS: 4}, DeltaTotalNS: -6}},
		BaseIDs:  diff.IDs{Threads: map[string]int32{"bash > make | make #0": 10}},
		NewIDs:   diff.IDs{Threads: map[string]int32{"bash > make | make #0": 20, "bash > make > cc1 | cc1 #0": 21}},
	}
	s := &Screen{sh: shared(100, 30, true), ctx: context.Background(), in: Input{Base: diff.Side{Name: "A"}, New: diff.Side{Name: "B"}}}
	s.Tables = newTables()
	_, seq := s.job.Start(context.Background())
	s.got(Msg{seq: seq, res: res, last: true})
	return s
}

// TestKeys: tab cycles the tables (starting the call tree's computation
// once, on reaching it), the sort keys cycle and reverse, the line keys
// stay in bounds, enter closes with the line's thread on each side (or
// says why not), esc and the compare key close.
func TestKeys(t *testing.T) {
	s := fixed(t)
	key := func(k string) ui.Step { return s.Update(headless.Key(k)) }
	if key("tab"); s.Focus != Threads {
		t.Fatalf("focus %d after tab, want Threads", s.Focus)
	}
	th := &s.Tables[Threads]
	if th.Lines[0].Delta != 200 {
		t.Fatalf("largest change not first: %+v", th.Lines)
	}
	key(">") // by new
	if th.SortBy != SortNew || th.Lines[0].New != 300 {
		t.Fatalf("sort by new: %d %+v", th.SortBy, th.Lines)
	}
	key("<")
	if !th.Asc || th.Lines[0].New != 50 {
		t.Fatalf("reversed: %+v", th.Lines)
	}
	for range numSorts - 1 {
		key(">")
	}
	if th.SortBy != SortDelta || th.Asc || th.Lines[0].Delta != 200 {
		t.Fatalf("sort cycle back to change: %d %v %+v", th.SortBy, th.Asc, th.Lines)
	}
	key("G")
	if th.Cur != 1 {
		t.Fatalf("G: line %d, want 1", th.Cur)
	}
	key("j")
	if th.Cur != 1 {
		t.Fatalf("j past the end: line %d", th.Cur)
	}
	st := key("enter")
	g, ok := st.Cmd().(GoToMsg)
	if !st.Done || !ok || g.InBase || !g.InNew || g.NewID != 21 || g.Process {
		t.Fatalf("enter on the cc1 line: %+v %+v", st, g)
	}
	if d := g.Describe(); !strings.Contains(d, "absent from A") || !strings.Contains(d, "thread 21 in B") {
		t.Errorf("describe: %q", d)
	}
	key("k")
	if g := key("enter").Cmd().(GoToMsg); !g.InBase || g.BaseID != 10 || g.NewID != 20 {
		t.Fatalf("enter on the make line: %+v", g)
	}
	key("tab") // system calls: no thread
	if st := key("enter"); st.Done || !strings.Contains(st.Note, "no thread") {
		t.Fatalf("enter on a system call: %+v", st)
	}
	if st := key("x"); st.Done || !strings.Contains(st.Note, "comparison:") {
		t.Fatalf("unknown key: %+v", st)
	}
	key("tab")
	key("tab")
	if st := key("tab"); s.Focus != CallTree || st.Cmd == nil {
		t.Fatalf("tab to the call tree: focus %d, no computation started", s.Focus)
	}
	s.Close() // cancels it; a second visit starts nothing
	key("tab")
	if st := key("tab"); st.Cmd != nil {
		t.Fatal("call tree computed twice")
	}
	for _, k := range []string{"esc", "D"} {
		if !key(k).Done {
			t.Errorf("%s does not close", k)
		}
	}
}

// TestStaleReports: a report of a cancelled run is dropped.
func TestStaleReports(t *testing.T) {
	s := fixed(t)
	_, seq := s.job.Start(context.Background())
	s.job.Stop()
	s.got(Msg{seq: seq, res: &diff.Result{}, last: true})
	if len(s.Tables[Threads].Lines) != 2 {
		t.Fatalf("stale report applied: %+v", s.Tables[Threads].Lines)
	}
}

// TestEnterCallPath: enter on a call tree line keeps the comparison open
// and asks for both sides' call trees at that path; a tree of samples
// prints counts, not times.
func TestEnterCallPath(t *testing.T) {
	s := fixed(t)
	s.Focus = CallTree
	_, seq := s.treeJb.Start(context.Background())
	rows := []diff.PathRow{{Path: "main;render;draw", BaseSelf: 3, NewSelf: 9, DeltaSelf: 6}, {Path: "main", BaseSelf: 2, NewSelf: 1, DeltaSelf: -1}}
	s.got(Msg{seq: seq, tree: true, trees: &diff.Trees{Base: &calltree.Node{}, New: &calltree.Node{}, Rows: rows, Unit: diff.UnitSamples}})
	st := s.Update(headless.Key("enter"))
	p, ok := st.Cmd().(PathMsg)
	if st.Done || !ok || !slices.Equal(p.Path, []string{"main", "render", "draw"}) || p.Base.Name != "A" || p.New.Name != "B" {
		t.Fatalf("enter on a call path: %+v, %+v", st, p)
	}
	view := strings.Join(s.View(ui.Area{Width: 100, Height: 25}), "\n")
	if !strings.Contains(view, "*main > render > draw                                             3           9           +6   3.00x") || strings.Contains(view, "ns ") {
		t.Fatalf("samples drawn as times:\n%s", view)
	}
	s.Update(headless.Key("j"))
	if p := s.Update(headless.Key("enter")).Cmd().(PathMsg); !slices.Equal(p.Path, []string{"main"}) {
		t.Fatalf("second line: %v", p.Path)
	}
}
