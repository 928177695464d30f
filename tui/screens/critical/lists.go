package critical

import (
	"cmp"
	"regexp"
	"slices"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/critpath"
	"github.com/tracetui/tracetui/tui/ui"
)

// The view's tables: the segments listed (all, or one thread's or one
// state's), and the time on the path per thread and per state.

// segList is the segments listed: indices into the path's segments.
type segList struct {
	idx      []int
	only     string // what the list is limited to ("" all)
	sel, top int
}

// allSegments lists every segment of p.
func allSegments(p *critpath.Path) segList {
	l := segList{idx: make([]int, len(p.Segments))}
	for i := range l.idx {
		l.idx[i] = i
	}
	return l
}

// selected is the selected segment.
func (l *segList) selected(p *critpath.Path) (critpath.Segment, bool) {
	if l.sel >= len(l.idx) {
		return critpath.Segment{}, false
	}
	return p.Segments[l.idx[l.sel]], true
}

// showAll lists every segment again, the selected one still selected.
func (l *segList) showAll(p *critpath.Path) {
	cur := -1
	if l.sel < len(l.idx) {
		cur = l.idx[l.sel]
	}
	*l = allSegments(p)
	l.sel = max(cur, 0)
}

// showOnly lists the segments of r's thread or state.
func (l *segList) showOnly(p *critpath.Path, r sumRow) {
	*l = segList{only: r.label}
	for i, s := range p.Segments {
		if (r.byState && s.State == r.state) || (!r.byState && s.Worker == r.worker) {
			l.idx = append(l.idx, i)
		}
	}
}

// sumRow is one line of a summary: a thread or a state, its time on the
// path and number of segments.
type sumRow struct {
	label   string
	worker  critpath.Worker
	state   critpath.State
	byState bool
	time    core.Time
	count   int
}

// sumList is a sortable summary.
type sumList struct {
	rows     []sumRow
	total    core.Time // the path's time
	col      int       // sort column: 0 name, 1 time, 2 segments
	asc      bool
	sel, top int
}

// Summary columns.
var sumCols = []string{"name", "time", "segments"}

// threadSums is the time on p per thread (rows gives their labels).
func threadSums(p *critpath.Path, rows []critRow) sumList {
	l := sumList{col: 1}
	at := map[critpath.Worker]int{}
	for _, r := range rows {
		at[r.worker] = len(l.rows)
		l.rows = append(l.rows, sumRow{label: r.label, worker: r.worker})
	}
	for _, s := range p.Segments {
		i, ok := at[s.Worker]
		if !ok {
			continue
		}
		l.rows[i].time += s.End - s.Start
		l.rows[i].count++
		l.total += s.End - s.Start
	}
	l.rows = slices.DeleteFunc(l.rows, func(r sumRow) bool { return r.count == 0 })
	l.sort()
	return l
}

// stateSums is the time on p per state.
func stateSums(p *critpath.Path) sumList {
	l := sumList{col: 1}
	var by [16]sumRow
	for _, s := range p.Segments {
		if int(s.State) >= len(by) {
			continue
		}
		by[s.State].time += s.End - s.Start
		by[s.State].count++
		l.total += s.End - s.Start
	}
	for _, st := range critpath.States() {
		if int(st) < len(by) && by[st].count > 0 {
			r := by[st]
			r.label, r.state, r.byState = critGlyphs[st]+" "+st.String(), st, true
			l.rows = append(l.rows, r)
		}
	}
	l.sort()
	return l
}

// sort orders the rows by the sort column (time and segments
// descending unless reversed; names ascending).
func (l *sumList) sort() {
	slices.SortStableFunc(l.rows, func(a, b sumRow) int {
		var c int
		switch l.col {
		case 0:
			c = cmp.Compare(a.label, b.label)
		case 1:
			c = -cmp.Compare(a.time, b.time)
		default:
			c = -cmp.Compare(a.count, b.count)
		}
		if l.asc {
			c = -c
		}
		return c
	})
	l.sel, l.top = 0, 0
}

// sortNext sorts by the next column.
func (l *sumList) sortNext() {
	l.col, l.asc = (l.col+1)%len(sumCols), false
	l.sort()
}

// reverse reverses the order.
func (l *sumList) reverse() {
	l.asc = !l.asc
	l.sort()
}

// segmentText is what a search matches in a segment's line: its start,
// thread, state and reason.
func (v *Screen) segmentText(s critpath.Segment) string {
	return v.startText(s.Start) + " " + v.label(s.Worker) + " " + s.State.String() + " " + s.Reason
}

// searchDone starts a search for the typed regex from the selection.
func (v *Screen) searchDone(text string) ui.Step {
	re, err := regexp.Compile(text)
	if err != nil {
		return ui.Step{Cmd: v.find.Fail(err)}
	}
	v.find.Close()
	v.reFor = re
	v.tab = tabSegments
	return v.searchFrom(v.segs.sel, 1)
}

// search moves to the next (dir 1) or previous (-1) match.
func (v *Screen) search(dir int) ui.Step {
	if v.reFor == nil {
		return ui.Step{Note: "no search yet: " + ui.K(v.sh.Keys.Find) + " finds a segment"}
	}
	v.tab = tabSegments
	return v.searchFrom(v.segs.sel+dir, dir)
}

// searchFrom selects the first listed segment matching the search from
// line i on in direction dir, wrapping around.
func (v *Screen) searchFrom(i, dir int) ui.Step {
	n := len(v.segs.idx)
	for k := range n {
		j := ((i+dir*k)%n + n) % n
		if v.reFor.MatchString(v.segmentText(v.Path.Segments[v.segs.idx[j]])) {
			v.segs.sel = j
			return ui.Step{Note: "/" + v.reFor.String() + "/: segment " + itoa(j+1) + " of " + itoa(n)}
		}
	}
	return ui.Step{Note: "/" + v.reFor.String() + "/: no segment matches", Warn: true}
}
