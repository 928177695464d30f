package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/lipgloss"
	"github.com/tracetui/tracetui/tui/ui"
)

// indexing is the screen shown while Opener.Open builds the index: a
// progress bar with the rate-based estimate of the time left.
type indexing struct {
	sh          *ui.Shared
	name        string
	build       bool // an index is being built (else: just opening)
	done, total int64
	began       time.Time
	now         time.Time // time of the last report (tests pin it)
	bar         progress.Model
	cancelled   bool
}

// progressMsg reports the build's progress.
type progressMsg struct {
	done, total int64
	at          time.Time
	ch          <-chan progressMsg
}

func (m progressMsg) On(ch <-chan progressMsg) progressMsg { m.ch = ch; return m }

func newIndexing(sh *ui.Shared, o Opener, now time.Time) indexing {
	bar := progress.New(progress.WithSolidFill("#5f87d7"), progress.WithColorProfile(sh.Styles.Renderer.ColorProfile()),
		progress.WithoutPercentage())
	if sh.Styles.ASCII {
		bar.Full, bar.Empty = '#', '.'
	}
	return indexing{sh: sh, name: o.Name, build: !o.Indexed, began: now, now: now, bar: bar}
}

func (x *indexing) update(m progressMsg) {
	x.done, x.total, x.now = m.done, m.total, m.at
}

// estimate is the time left at the average rate so far ("" when unknown).
func (x *indexing) estimate() string {
	elapsed := x.now.Sub(x.began)
	if x.done <= 0 || x.total <= x.done || elapsed <= 0 {
		return ""
	}
	left := time.Duration(float64(elapsed) * float64(x.total-x.done) / float64(x.done))
	return "about " + left.Round(time.Second).String() + " left"
}

func (x *indexing) view() string {
	st := x.sh.Styles
	w := min(x.sh.Width-4, 72)
	var lines []string
	if !x.build {
		lines = append(lines, st.Title.Render(ui.Trunc("Opening "+x.name+"…", w)))
	} else {
		lines = append(lines, st.Title.Render(ui.Trunc("Indexing "+x.name, w)), "",
			st.Dim.Render(ui.Fit("The state index is built once; later opens take milliseconds.", w)), "")
		frac := 0.0
		if x.total > 0 {
			frac = min(float64(x.done)/float64(x.total), 1)
		}
		x.bar.Width = max(w-7, 10)
		lines = append(lines, x.bar.ViewAs(frac)+fmt.Sprintf(" %3.0f%%", frac*100))
		info := fmt.Sprintf("%s of %s · %s elapsed", sizeText(x.done), sizeText(x.total), x.now.Sub(x.began).Round(time.Second))
		if e := x.estimate(); e != "" {
			info += " · " + e
		}
		lines = append(lines, st.Dim.Render(info))
	}
	lines = append(lines, "", st.Dim.Render("q cancels"))
	if x.cancelled {
		lines[len(lines)-1] = st.Warning.Render("cancelling…")
	}
	return lipgloss.Place(x.sh.Width, x.sh.Height, lipgloss.Center, lipgloss.Center, strings.Join(lines, "\n"),
		lipgloss.WithWhitespaceChars(" "))
}

// sizeText prints a byte count with a binary unit.
func sizeText(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
