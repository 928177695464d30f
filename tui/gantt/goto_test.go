package gantt

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// TestParseGoToRange: one time, or two separated by ".." or a space, each
// relative or absolute as the table prints times, in either order.
func TestParseGoToRange(t *testing.T) {
	const start = core.Time(1412670961_000000000)
	for _, c := range []struct {
		text    string
		t0, t1  core.Time
		isRange bool
	}{
		{"+600ms", start + 600e6, start + 600e6, false},
		{"+600ms +601ms", start + 600e6, start + 601e6, true},
		{"600ms..601ms", start + 600e6, start + 601e6, true},
		{" +601ms .. +600ms ", start + 600e6, start + 601e6, true},
		{"1412670961.6..1412670961.601", start + 600e6, start + 601e6, true},
		{"+0.6 1412670961.601", start + 600e6, start + 601e6, true},
	} {
		t0, t1, isRange, err := parseGoToRange(c.text, start)
		if err != nil || t0 != c.t0 || t1 != c.t1 || isRange != c.isRange {
			t.Errorf("%q: %d %d %v %v; want %d %d %v", c.text, t0, t1, isRange, err, c.t0, c.t1, c.isRange)
		}
	}
	for text, want := range map[string]string{
		"+1ms soon":     `bad time "soon"`,
		"later..+1ms":   `bad time "later"`,
		"+1ms +2ms +3m": "one time or two, not more",
		"..":            `bad time ""`,
	} {
		_, _, _, err := parseGoToRange(text, start)
		if err == nil || err.Error() != want || !errors.Is(err, core.ErrBadTime) {
			t.Errorf("%q: error %v, want %q wrapping ErrBadTime", text, err, want)
		}
	}
}

// TestGoToRangeZooms: ':' with a range zooms the view to it, cursor at
// its start; the label's examples are times of this trace; an error keeps
// the prompt open on one line that fits 80 columns.
func TestGoToRangeZooms(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 80, 24, false)
	b := hs.b()
	start, end := b.win.Start, b.win.End
	hs.press("goto")
	label := ansi.Strip(b.prompt.View())
	inner := label[strings.Index(label, "(")+1 : strings.LastIndex(label, ")")]
	examples := strings.Split(inner, ", ")
	if len(examples) != 3 || frame.Cells(label) > 50 {
		t.Fatalf("label %q: want 3 examples in under 50 columns", label)
	}
	for _, ex := range examples {
		t0, t1, _, err := parseGoToRange(ex, start)
		if err != nil || t0 < start || t1 > end {
			t.Errorf("example %q of %q reads %d..%d, %v: want a time of the trace [%d, %d]", ex, label, t0, t1, err, start, end)
		}
	}
	hs.keys("esc")

	hs.goTo("+2ms +3ms")
	if b.prompt.Active() || b.win.T0 != start+2_000_000 || b.win.T1 != start+3_000_000 || b.cursor != start+2_000_000 {
		t.Errorf("after +2ms +3ms: window %d..%d cursor %d (prompt %v), want %d..%d", b.win.T0, b.win.T1, b.cursor,
			b.prompt.Active(), start+2_000_000, start+3_000_000)
	}
	hs.goTo("+4ms..+1000h") // clipped to the trace
	if b.prompt.Active() || b.win.T0 != start+4_000_000 || b.win.T1 != end {
		t.Errorf("after +4ms..+1000h: window %d..%d, want %d..%d", b.win.T0, b.win.T1, start+4_000_000, end)
	}
	for _, c := range []struct{ text, want string }{
		{"+1ms whenever-it-suits-you", `bad time "whenever-it-s..."`},
		{"+1000h +1001h", "outside the trace"},
	} {
		hs.goTo(c.text)
		line := ""
		for _, l := range strings.Split(ansi.Strip(hs.view()), "\n") {
			if strings.Contains(l, "go to: ") {
				line = l
			}
		}
		if !b.prompt.Active() || !strings.Contains(line, c.want) || frame.Cells(line) > 80 {
			t.Errorf("%q: prompt line %q (%d columns): want it open with %q in 80 columns", c.text, line, frame.Cells(line), c.want)
		}
		hs.keys("esc")
	}
}
