package gantt

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/ui"
)

// The go-to prompt (':'): a time moves the cursor there, a range
// ("+600ms +601ms", "600ms..601ms", "812.37..812.38" in absolute
// seconds) zooms the view to it, the cursor at its start. Its label's examples are times of the
// trace open, and its errors are short: label, entry and error fit one
// line of 80 columns.

// goToPrompt is the go-to prompt's label, with examples of the trace in
// [start, end]: a round offset about a third into it, a range a
// hundredth of the trace long from there, and that offset in absolute
// seconds with as many decimals as the range's length needs (absolute
// ranges are written the same way, with "..").
func goToPrompt(start, end core.Time) string {
	span := max(end-start, 100)
	off, width := roundDown(span/3), max(roundDown(span/100), 1)
	dec := max(0, 9-int(math.Log10(float64(width))))
	sec := func(t core.Time) string { return strconv.FormatFloat(float64(t)/1e9, 'f', dec, 64) }
	rel := func(d core.Time) string { return "+" + core.FormatDuration(d) }
	return fmt.Sprintf("go to (%s, %s..%s, %s): ", rel(off), rel(off), rel(off+width), sec(start+off))
}

// roundDown keeps d's leading digit: 143ms gives 100ms.
func roundDown(d core.Time) core.Time {
	if d <= 0 {
		return 0
	}
	p := core.Time(math.Pow10(int(math.Log10(float64(d)))))
	return d / p * p
}

// parseGoToRange reads the prompt: one time (t0 == t1, ok false) or two
// separated by ".." or spaces, each as parseGoTo reads it, in either order.
func parseGoToRange(text string, start core.Time) (t0, t1 core.Time, isRange bool, err error) {
	s := strings.TrimSpace(text)
	a, b, isRange := strings.Cut(s, "..")
	if !isRange {
		if f := strings.Fields(s); len(f) == 2 {
			a, b, isRange = f[0], f[1], true
		} else if len(f) > 2 {
			return 0, 0, false, &shortErr{"one time or two, not more", core.ErrBadTime}
		}
	}
	if t0, err = parseGoTo(a, start); err != nil {
		return 0, 0, false, shortTimeErr(a, err)
	}
	if !isRange {
		return t0, t0, false, nil
	}
	if t1, err = parseGoTo(b, start); err != nil {
		return 0, 0, false, shortTimeErr(b, err)
	}
	return min(t0, t1), max(t0, t1), true, nil
}

// shortErr is a short message wrapping its cause.
type shortErr struct {
	msg   string
	cause error
}

func (e *shortErr) Error() string { return e.msg }
func (e *shortErr) Unwrap() error { return e.cause }

// shortTimeErr says which part is not a time, in a few words.
func shortTimeErr(part string, err error) error {
	if len(part) > 16 {
		part = part[:13] + "..." // 7-bit: the prompt line is also --ascii's
	}
	return &shortErr{fmt.Sprintf("bad time %q", strings.TrimSpace(part)), err}
}

// goToDone applies the go-to prompt: the cursor to a time, or the view
// zoomed to a range (clipped to the trace). An invalid entry keeps the
// prompt open with a short label so the error fits.
func (b *Gantt) goToDone(text string) tea.Cmd {
	t0, t1, isRange, err := parseGoToRange(text, b.win.Start)
	if err == nil && (t1 < b.win.Start || t0 > b.win.End) {
		err = fmt.Errorf("outside the trace, %s..%s", b.RelTime(b.win.Start), b.RelTime(b.win.End))
	}
	if err != nil {
		b.prompt.Open(ui.PromptGoTo, "go to: ", text)
		return b.prompt.Fail(err)
	}
	b.prompt.Close()
	if !isRange {
		return b.moveCursor(t0, true)
	}
	t0, t1 = max(t0, b.win.Start), min(t1, b.win.End)
	return b.zoomTo(ui.ZoomMsg{Node: -1, T0: t0, T1: t1, What: "the range"})
}
