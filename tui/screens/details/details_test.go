package details

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// TestUserAttributesShown: an event's CTF 2 user attributes (LTTng's
// context under "lttng.org,2009") are lines of the details pane, and an
// event without any shows no such line.
func TestUserAttributesShown(t *testing.T) {
	sh := &ui.Shared{Width: 120, Height: 40, Styles: ui.NewStyles(lipgloss.NewRenderer(io.Discard), true), Keys: keymap.Default()}
	h := core.NewMemHistory(0)
	win := frame.Window{Start: 0, End: 100, Cols: 100}
	for _, c := range []struct {
		row  core.EventRow
		want []string
	}{
		{core.EventRow{Event: "ev", Contents: "{ x = 1 }", ClassAttributes: `{"lttng.org,2009":{"log-level":"warning"}}`, TraceAttributes: `{"lttng.org,2009":{"x":1}}`},
			[]string{"event attrs", `"log-level":"warning"`, "trace attrs"}},
		{core.EventRow{Event: "ev", Contents: "{ x = 1 }"}, nil},
	} {
		d, _ := New(context.Background(), sh, nil, h, win, 0, &c.row, nil)
		text := strings.Join(d.View(ui.Area{Width: 120, Height: 40}), "\n")
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("details of %+v lack %q:\n%s", c.row, w, text)
			}
		}
		if c.want == nil && strings.Contains(text, "attrs") {
			t.Errorf("details of an event without user attributes show some:\n%s", text)
		}
	}
}

// TestFieldsLabelled: an event whose contents are a format's text
// (trace.dat's "NR 202 (...)") shows that text as its Contents line, then
// one labelled line per field; braced contents are split as before.
func TestFieldsLabelled(t *testing.T) {
	sh := &ui.Shared{Width: 100, Height: 40, Styles: ui.NewStyles(lipgloss.NewRenderer(io.Discard), true), Keys: keymap.Default()}
	h := core.NewMemHistory(0)
	win := frame.Window{Start: 0, End: 100, Cols: 100}
	row := core.EventRow{Event: "sys_enter", CPU: 1, Contents: "futex: NR 202 (3c514d65c960, 80)",
		Fields: `{ NR = 202, args = "3c514d65c960, 80" }`}
	d, _ := New(context.Background(), sh, nil, h, win, 0, &row, nil)
	var got []string
	for _, l := range d.View(ui.Area{Width: 100, Height: 40}) {
		if l = strings.TrimRight(l, " "); strings.HasPrefix(l, "  Contents") || strings.HasPrefix(l, "  NR") || strings.HasPrefix(l, "  args") {
			got = append(got, l)
		}
	}
	want := []string{
		"  Contents         futex: NR 202 (3c514d65c960, 80)",
		"  NR               202",
		`  args             "3c514d65c960, 80"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("details lines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSamplesCount: a thread's running sample count (perf.data,
// Threads/<tid>/Samples) reads as the samples up to the cursor and the
// last one's time, under the thread's row and as the samples row's own
// attribute (not "state").
func TestSamplesCount(t *testing.T) {
	sh := &ui.Shared{Width: 100, Height: 40, Styles: ui.NewStyles(lipgloss.NewRenderer(io.Discard), true), Keys: keymap.Default()}
	h := core.NewMemHistory(0)
	at := h.Attributes()
	th := at.AddPath(core.AttrThreads, "7")
	s := at.AddPath(core.AttrThreads, "7", core.AttrSamples)
	for _, e := range []struct {
		k core.Key
		t core.Time
		v core.Value
	}{{th, 0, core.Int32(int32(core.ThreadRunUser))}, {s, 10, core.Int64(1)}, {s, 40, core.Int64(3)}, {s, 90, core.Int64(4)}} {
		if err := h.Modify(e.k, e.t, e.v); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Close(100); err != nil {
		t.Fatal(err)
	}
	win := frame.Window{Start: 0, End: 100, T0: 0, T1: 100, Cols: 101}
	const want = "Samples          3 samples up to the cursor, the last at +40ns"
	for _, n := range []frame.Node{
		{Label: "7", Kind: frame.KindThread, Key: th, Thread: th},
		{Label: "samples", Kind: frame.KindSamples, Key: s, Thread: th},
	} {
		d, cmd := New(context.Background(), sh, nil, h, win, 50, nil, &n)
		d.Update(cmd())
		text := strings.Join(d.View(ui.Area{Width: 100, Height: 40}), "\n")
		if !strings.Contains(text, want) || strings.Contains(text, "state ") && n.Kind == frame.KindSamples {
			t.Errorf("row %s: want %q, got\n%s", n.Label, want, text)
		}
	}
}
