package gantt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/ingest/index/pstree"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// Finding a row ('/', 'n', 'N'). A find reads every row's label: there
// are millions in a large index, over 100 ms of work, so it runs in a
// background job. The key answers at once (the status line says what is
// being searched) and the match arrives as a findMsg; a newer find
// replaces a running one.

// findMsg is the answer of a find.
type findMsg struct {
	seq       uint64
	tree      *frame.RowTree // the rows searched: dropped if the pane changed since
	re        *regexp.Regexp
	n         int32 // the row found, -1 for none
	at, total int   // its position among the matches (from 1), how many match
	err       error
}

// findNext searches the rows with the last find regex, forward or back
// from the selected row.
func (b *Gantt) findNext(back bool) tea.Cmd {
	if b.findRe == nil {
		return b.openPrompt(ui.PromptFind, "find row (regex): ", "")
	}
	t, re := b.tree(), b.findRe
	ctx, seq := b.finds.Start(b.ctx)
	m, start := newRowMatcher(re), max(t.Selected(), 0)
	if !b.focusing {
		b.setNote(noteInfo, fmt.Sprintf("/%s/: searching %d rows", re, t.Len()))
	}
	return func() tea.Msg {
		n, at, total, err := findRow(ctx, t.Rows, m, start, back)
		return findMsg{seq: seq, tree: t, re: re, n: n, at: at, total: total, err: err}
	}
}

// found selects a find's match.
func (b *Gantt) found(m findMsg) tea.Cmd {
	if !b.finds.Current(m.seq) {
		return nil
	}
	b.finds.Finish()
	focus := b.focusing
	if focus { // Focus's find: no note, nothing left to repeat
		b.focusing, b.findRe = false, nil
	}
	switch {
	case m.tree != b.tree(): // another pane is shown: the match is not among its rows
		return nil
	case errors.Is(m.err, context.Canceled):
		return nil
	case m.err != nil:
		b.setNote(noteError, fmt.Sprintf("finding /%s/: %v", m.re, m.err))
		return nil
	case m.n < 0 && focus:
		return nil
	case m.n < 0:
		b.setNote(noteInfo, fmt.Sprintf("no row matches /%s/", m.re))
		return nil
	}
	t := m.tree
	t.SelectNode(m.n)
	if focus { // the row first
		t.Pin()
		return b.changed(false)
	}
	// The found row in the middle of the Gantt, not on its last line.
	l := b.sh.Layout(b.showTable, b.tableLines)
	t.Top = t.Sel - l.GanttRows/2
	b.setNote(noteInfo, fmt.Sprintf("/%s/: match %d of %d", m.re, m.at, m.total))
	return b.changed(false)
}

// findRow returns the next row (in depth-first order, after row start,
// wrapping; backwards when back) that m matches, or -1; its position among
// the rows that match (from 1) and how many match. One walk of the rows,
// read from the index; it stops with ctx's error when ctx is done.
func findRow(ctx context.Context, rows *pstree.Rows, m rowMatcher, start int32, back bool) (n int32, at, total int, err error) {
	type match struct {
		row  int32
		rank int
	}
	none := match{-1, 0}
	after, first, before, last := none, none, none, none
	err = rows.Containing(ctx, m.prefix, func(i int32, r pstree.RowInfo, label []byte) bool {
		if !m.matches(r, label) {
			return true
		}
		total++
		m := match{i, total}
		if first.row < 0 {
			first = m
		}
		if i > start && after.row < 0 {
			after = m
		}
		if i < start {
			before = m
		}
		last = m
		return true
	})
	if err != nil {
		return -1, 0, 0, err
	}
	found := after // forward: after the selection, else from the top
	if found.row < 0 {
		found = first
	}
	if back { // backward: before it, else from the bottom
		if found = before; found.row < 0 {
			found = last
		}
	}
	return found.row, found.rank, total, nil
}

// rowMatcher tells whether a row's label, or its tid alone, matches a
// find's regex. Three shortcuts give the same answers faster:
//   - every match starts with the regex's literal prefix, so only the rows
//     whose label contains it are tried ([pstree.Rows.Containing]);
//   - a regex that is a plain literal is a substring search;
//   - the tid (the label's end) is tried on its own only when the regex
//     has an assertion that depends on what precedes a match (^, \A, \b,
//     \B): without one, a match in the tid is also a match in the label.
type rowMatcher struct {
	re       *regexp.Regexp
	prefix   []byte // what every match starts with (may be empty)
	complete bool   // the regex is prefix itself
	tidToo   bool
}

func newRowMatcher(re *regexp.Regexp) rowMatcher {
	m := rowMatcher{re: re, tidToo: true}
	lit, complete := re.LiteralPrefix()
	m.prefix, m.complete = []byte(lit), complete && lit != ""
	if p, err := syntax.Parse(re.String(), syntax.Perl); err == nil {
		m.tidToo = looksBehind(p)
	}
	return m
}

// looksBehind reports whether re has an assertion about what comes
// before the position it is tried at.
func looksBehind(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	for _, s := range re.Sub {
		if looksBehind(s) {
			return true
		}
	}
	return false
}

// matches reports whether row r, labelled label, matches.
func (m rowMatcher) matches(r pstree.RowInfo, label []byte) bool {
	if m.complete {
		return bytes.Contains(label, m.prefix)
	}
	if m.re.Match(label) {
		return true
	}
	k := r.TIDLen()
	return m.tidToo && k > 0 && k <= len(label) && m.re.Match(label[len(label)-k:])
}

// Focus selects the row of thread (or process) tid once the Control Flow
// rows are read, and shows it first: a find of the tid alone, whose match
// goes to the top of the Gantt instead of its middle.
func (b *Gantt) Focus(tid int) {
	b.findRe = regexp.MustCompile("^" + strconv.Itoa(tid) + "$")
	b.focusing = true
}
