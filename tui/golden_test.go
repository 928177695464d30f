package tui

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/trace"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/ui/headless"
)

// Golden screens: the browser runs in a real Bubble Tea program (teatest)
// at a fixed size with the colour profile pinned (ANSI 256, or ASCII), the
// keys are sent, and once every command has finished the final model's
// screen is compared with testdata/TestGoldenScreens/<name>.golden.
// Regenerate with: go test ./tui -run Golden -update

// settled wraps a model and counts the work in flight (messages sent and
// not yet handled, commands not yet finished, batches included), so a test
// can wait until the program is quiescent instead of sleeping.
type settled struct {
	tea.Model
	pending atomic.Int64
	handled atomic.Int64 // messages sent by the test and handled
}

// sent marks a message counted as pending until Update handles it.
type sent struct {
	msg    tea.Msg
	byTest bool
}

// wrap counts cmd as pending until its message has been handled by
// Update (or, for batches and nil, until its sub-commands are counted).
func (s *settled) wrap(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	s.pending.Add(1)
	return func() tea.Msg {
		msg := cmd()
		switch m := msg.(type) {
		case tea.BatchMsg:
			for i := range m {
				m[i] = s.wrap(m[i])
			}
		case nil, tea.QuitMsg:
		default:
			return sent{msg, false} // Update decrements once it is handled
		}
		s.pending.Add(-1)
		return msg
	}
}

func (s *settled) Init() tea.Cmd { return s.wrap(s.Model.Init()) }

func (s *settled) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m, ok := msg.(sent); ok {
		defer s.pending.Add(-1)
		if m.byTest {
			defer s.handled.Add(1)
		}
		msg = m.msg
	}
	_, cmd := s.Model.Update(msg)
	return s, s.wrap(cmd)
}

func (s *settled) send(tm *teatest.TestModel, msg tea.Msg) {
	s.pending.Add(1)
	tm.Send(sent{msg, true})
}

func (s *settled) idle() bool { return s.pending.Load() == 0 }

// goldenCase is one screen.
type goldenCase struct {
	name  string
	w, h  int
	ascii bool
	keys  []string
	other frame.Trace // the NEW trace (tracetui BASE NEW), nil: one trace
	// openPath: the browser can open a second trace (Opener.OpenPath;
	// these screens never get as far as opening one).
	openPath bool
}

func goldenCases() []goldenCase {
	return []goldenCase{
		{name: "controlflow_80x24", w: 80, h: 24},
		{name: "controlflow_80x24_ascii", w: 80, h: 24, ascii: true},
		{name: "zoomed_selection_100x30", w: 100, h: 30, keys: []string{":", "+", "2", "m", "s", "enter", "w", "w", "w", "space", "l", "l", "l", "l", "l", "space", "j", "j"}},
		{name: "zoomed_selection_100x30_ascii", w: 100, h: 30, ascii: true, keys: []string{":", "+", "2", "m", "s", "enter", "w", "w", "w", "space", "l", "l", "l", "l", "l", "space", "j", "j"}},
		{name: "resources_100x30", w: 100, h: 30, keys: []string{"2", "enter", "j", "w", "w"}},
		// Resources at the coarsest zoom in plain text: idle and busy
		// columns told apart by their longest state's glyph (issue 30).
		{name: "resources_whole_80x24_ascii", w: 80, h: 24, ascii: true, keys: []string{"2"}},
		{name: "resources_names_120x30_ascii", w: 120, h: 30, ascii: true, keys: []string{"2", "w", "w", "w", "w"}},
		{name: "legend_80x24", w: 80, h: 24, keys: []string{"c"}},
		{name: "help_80x24_ascii", w: 80, h: 24, ascii: true, keys: []string{"?"}},
		{name: "help_160x50", w: 160, h: 50, keys: []string{"?"}},
		{name: "help_80x24", w: 80, h: 24, keys: []string{"?"}},
		{name: "help_end_80x24_ascii", w: 80, h: 24, ascii: true, keys: []string{"?", "G"}}, // the notes, after scrolling
		{name: "table_focus_80x24", w: 80, h: 24, keys: []string{"tab"}},                    // the hint follows the focus
		{name: "table_filter_100x30_ascii", w: 100, h: 30, ascii: true, keys: []string{"f", "s", "c", "h", "e", "d", "_", "s", "w", "enter", "}", "j", "j"}},
		{name: "table_scrolled_100x30_ascii", w: 100, h: 30, ascii: true, keys: []string{"tab", "j", ")", ")"}},
		{name: "filter_error_80x24_ascii", w: 80, h: 24, ascii: true, keys: []string{"f", "(", "enter"}},
		{name: "too_small_39x12", w: 39, h: 12},
		// The details pane: a sched_switch's fields untruncated, the row's
		// attributes at the cursor; scrolled on a short screen.
		{name: "details_100x30_ascii", w: 100, h: 30, ascii: true, keys: []string{"f", "s", "c", "h", "e", "d", "_", "s", "w", "enter", "j", "l", "l", "i"}},
		{name: "details_scrolled_60x16", w: 60, h: 16, keys: []string{"2", "j", "i", "j", "j"}},
		// The density strip is on every screen above. Statistics:
		{name: "stats_80x24_ascii", w: 80, h: 24, ascii: true, keys: []string{"j", "j", "j", "S"}},
		{name: "stats_selection_100x30", w: 100, h: 30, keys: []string{"w", "space", "l", "l", "l", "l", "l", "l", "space", "S", "tab", ">"}},
		// The aggregated overview: temporal, spatiotemporal (merged
		// leaves hatched on a short screen), legend, Resources.
		{name: "overview_temporal_100x30", w: 100, h: 30, keys: []string{"o", "j", "j", "l", "l"}},
		{name: "overview_temporal_80x24_ascii", w: 80, h: 24, ascii: true, keys: []string{"o", "-", "l"}},
		{name: "overview_st_100x30", w: 100, h: 30, keys: []string{"O", "j", "l"}},
		{name: "overview_st_80x16_ascii", w: 80, h: 16, ascii: true, keys: []string{"O", "w", "w", "w", "w", "w", "w", "w", "w", "j"}},
		{name: "overview_legend_100x30", w: 100, h: 30, keys: []string{"o", "c"}},
		{name: "overview_resources_80x24_ascii", w: 80, h: 24, ascii: true, keys: []string{"2", "o", "j"}},
		// The critical path of a thread (its Gantt, legend and segments).
		{name: "critpath_100x30", w: 100, h: 30, keys: []string{"j", "j", "j", "P", "j", "j"}},
		{name: "critpath_100x30_ascii", w: 100, h: 30, ascii: true, keys: []string{"j", "j", "j", "P", "j", "j"}},
		// ':' (issue 30 item 6): its label's examples are the trace's
		// times; a range zooms; an error fits the 80-column line.
		{name: "goto_prompt_80x24_ascii", w: 80, h: 24, ascii: true, keys: []string{":"}},
		{name: "goto_range_80x24", w: 80, h: 24, keys: []string{":", "+", "2", "m", "s", " ", "+", "3", "m", "s", "enter"}},
		{name: "goto_error_80x24_ascii", w: 80, h: 24, ascii: true, keys: []string{":", "+", "1", "m", "s", ".", ".", "s", "o", "o", "n", "enter"}},
	}
}

func TestGoldenScreens(t *testing.T) {
	tr := frametest.NewDemoTrace()
	for _, c := range goldenCases() {
		t.Run(c.name, func(t *testing.T) { runGolden(t, tr, c) })
	}
}

// TestGoldenScreensDemo shows the main screens on the real demo trace
// (what `tracetui` opens with no argument: index.DemoTrace), read through
// the real pipeline (CTF reader, kernel analysis, R-SHT, event index).
// A change of the generator or the analyses changes them: regenerate with
// -update after checking the new screens.
func TestGoldenScreensDemo(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir, err := index.DemoTrace()
	if err != nil {
		t.Fatal(err)
	}
	it, err := trace.Open(context.Background(), dir, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { it.Close() })
	tr := frametest.IngestTrace{Trace: it}
	gen, err := trace.Open(context.Background(), gentest.Trace(t, 300), index.Options{IndexPath: filepath.Join(t.TempDir(), "index")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gen.Close() })
	other := frametest.IngestTrace{Trace: gen}
	for _, c := range []goldenCase{
		{name: "controlflow_80x24", w: 80, h: 24},
		{name: "controlflow_120x40_ascii", w: 120, h: 40, ascii: true, keys: []string{"j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "w", "w", "l", "l"}},
		{name: "resources_100x30", w: 100, h: 30, keys: []string{"2", "enter", "j", "j"}},
		{name: "table_filter_100x30_ascii", w: 100, h: 30, ascii: true, keys: []string{"f", "s", "c", "h", "e", "d", "_", "s", "w", "enter", "}", "j", "j"}},
		{name: "stats_100x30_ascii", w: 100, h: 30, ascii: true, keys: []string{"S"}},
		// Issue 30 item 8: the table searched (matches marked, none
		// hidden), the rows idle in a zoomed window hidden, all collapsed,
		// the process tree.
		{name: "table_search_100x30", w: 100, h: 30, keys: append([]string{"}", "}", "tab", "/"}, append(strings.Split("sched_wakeup", ""), "enter", "n")...)},
		{name: "table_search_100x30_ascii", w: 100, h: 30, ascii: true, keys: append([]string{"}", "}", "tab", "/"}, append(strings.Split("sched_wakeup", ""), "enter", "n")...)},
		{name: "hide_idle_100x30_ascii", w: 100, h: 30, ascii: true, keys: []string{"w", "w", "w", "w", "w", "x"}},
		{name: "collapse_all_80x24_ascii", w: 80, h: 24, ascii: true, keys: []string{"C"}},
		{name: "process_tree_100x30_ascii", w: 100, h: 30, ascii: true, keys: []string{"p"}},
		// The system calls with their top line's histogram; the N slowest.
		{name: "stats_syscalls_100x30", w: 100, h: 30, keys: []string{"S", "tab", "tab"}},
		{name: "stats_slowest_100x30_ascii", w: 100, h: 30, ascii: true, keys: []string{"S", "tab", "tab", "tab", "tab", "tab", "tab", "tab", "tab", "tab"}},
		{name: "overview_temporal_100x30", w: 100, h: 30, keys: []string{"o"}},
		{name: "critpath_120x40_ascii", w: 120, h: 40, ascii: true, keys: []string{"j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "P"}},
		// The comparison (issue 34) of two selections: processes, then
		// threads sorted by the new side; system calls in ASCII.
		{name: "compare_selections_100x30", w: 100, h: 30, keys: compareKeys("tab", ">")},
		{name: "compare_selections_100x30_ascii", w: 100, h: 30, ascii: true, keys: compareKeys("tab", "tab", "j")},
		// tracetui BASE NEW: the demo against a generated trace.
		{name: "compare_traces_100x30", w: 100, h: 30, other: other, keys: []string{"D"}},
		{name: "compare_traces_120x30_ascii", w: 120, h: 30, ascii: true, other: other, keys: []string{"D", "tab", "j", "j"}},
		// Both traces' Control Flow aligned at their starts, zoomed and
		// panned together, NEW's rows active.
		{name: "sidebyside_100x30", w: 100, h: 30, other: other, keys: []string{"V", "w", "w", "d", "tab", "j", "j"}},
		{name: "sidebyside_100x30_ascii", w: 100, h: 30, ascii: true, other: other, keys: []string{"V", "w", "j", "enter"}},
		// Aligned at mark a: BASE's set in the Gantt at +5ms, NEW's set
		// side by side six columns later; NEW shifted so both are under
		// the cursor.
		{name: "sidebyside_aligned_100x30", w: 100, h: 30, other: other, keys: []string{":", "+", "5", "m", "s", "enter", "m", "a", "V", "w",
			"l", "l", "l", "l", "l", "l", "m", "a", "A", "a"}},
		// D with nothing to compare asks for a trace's path; a missing
		// one keeps the prompt open with the error.
		{name: "open_prompt_100x30", w: 100, h: 30, openPath: true, keys: append(append([]string{"D"}, strings.Split("absent.dat", "")...), "enter")},
	} {
		t.Run(c.name, func(t *testing.T) { runGolden(t, tr, c) })
	}
}

// compareKeys makes two selections on the demo trace, opens their
// comparison and types more.
func compareKeys(more ...string) []string {
	return append([]string{"w", "space", "l", "l", "l", "l", "space", "l", "space", "l", "l", "l", "l", "l", "l", "l", "space", "D"}, more...)
}

// runGolden drives one golden screen of tr and compares it.
func runGolden(t *testing.T, tr frame.Trace, c goldenCase) {
	clock := &fixedClock{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	// The trace opens once the size is known, so the frames asked
	// (and so the query modes) are the same on every run.
	sized := make(chan struct{})
	opener := openerOf(tr)
	open := opener.Open
	opener.Open = func(ctx context.Context, p func(int64, int64)) (frame.Trace, error) {
		<-sized
		return open(ctx, p)
	}
	if c.other != nil {
		opener.OpenNew = openerOf(c.other).Open
	}
	if c.openPath {
		opener.OpenPath = func(context.Context, string, func(int64, int64)) (frame.Trace, error) {
			return nil, errors.New("not in golden screens")
		}
	}
	m := New(context.Background(), opener, Settings{Styles: testStyles(c.ascii), Keys: keymap.Default(), Clock: clock.now})
	t.Cleanup(func() {
		if err := m.close(); err != nil {
			t.Error(err)
		}
	})
	s := &settled{Model: m}
	tm := teatest.NewTestModel(t, s)
	waitUntil := func(cond func() bool) {
		teatest.WaitFor(t, tm.Output(), func([]byte) bool { return cond() },
			teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(time.Millisecond))
	}
	wait := func() { waitUntil(s.idle) }
	s.send(tm, tea.WindowSizeMsg{Width: c.w, Height: c.h})
	waitUntil(func() bool { return s.handled.Load() == 1 })
	close(sized)
	wait()
	for _, k := range c.keys {
		s.send(tm, headless.Key(k))
		wait()
	}
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*settled)
	golden.RequireEqual(t, []byte(final.View()))
}

// TestIndexingScreen shows the progress bar and estimate while the index
// is built, and q cancels the build.
func TestIndexingScreen(t *testing.T) {
	tr := frametest.NewDemoTrace()
	began := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var calls atomic.Int64
	clock := func() time.Time { return began.Add(time.Duration(calls.Add(1)-1) * 10 * time.Second) }
	reported := make(chan struct{})
	opener := Opener{Name: "big-trace", Open: func(ctx context.Context, progress func(int64, int64)) (frame.Trace, error) {
		progress(400<<20, 1000<<20)
		close(reported)
		<-ctx.Done() // a long build, until cancelled
		return tr, ctx.Err()
	}}
	m := New(context.Background(), opener, Settings{Styles: testStyles(true), Keys: keymap.Default(), Clock: clock})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	<-reported
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("left")) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(time.Millisecond))
	screen := m.indexing.view() // the UI goroutine is idle: the open blocks
	golden.RequireEqual(t, []byte(screen))
	tm.Send(headless.Key("q"))
	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
	if final.Err() != context.Canceled {
		t.Errorf("Err() = %v after cancelling, want context.Canceled", final.Err())
	}
}

// TestOpenFailure shows why the trace could not be opened.
func TestOpenFailure(t *testing.T) {
	opener := Opener{Name: "broken", Indexed: true, Open: func(context.Context, func(int64, int64)) (frame.Trace, error) {
		return nil, errString("metadata: unexpected token at line 3")
	}}
	m := New(context.Background(), opener, Settings{Styles: testStyles(true), Keys: keymap.Default()})
	hs := &harness{Driver: &headless.Driver{M: m}, m: m, t: t}
	hs.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	hs.Run(m.Init())
	if v := hs.view(); !bytes.Contains([]byte(v), []byte("cannot open broken")) || !bytes.Contains([]byte(v), []byte("unexpected token")) {
		t.Errorf("failure screen:\n%s", v)
	}
	hs.keys("q")
	if !hs.Quit || m.Err() == nil {
		t.Error("q must quit and Err must return the open error")
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// TestGoldenScreensTraceDat shows a trace.dat event in the details pane
// (issue 30 item 2): the table's contents name the raw system call, and
// each field has a line of its own.
func TestGoldenScreensTraceDat(t *testing.T) {
	it, err := trace.Open(context.Background(), filepath.Join("..", "ingest", "tracedat", "testdata", "pipes-v7-zstd.dat"),
		index.Options{IndexPath: filepath.Join(t.TempDir(), "index"), Arch: "x86_64"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { it.Close() })
	runGolden(t, frametest.IngestTrace{Trace: it}, goldenCase{name: "details_tracedat_100x30_ascii", w: 100, h: 30, ascii: true,
		keys: []string{":", "+", "5", "u", "s", "enter", "tab", "i"}})
}
