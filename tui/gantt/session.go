package gantt

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
)

// The view of a trace lasts from one session to the next: the named marks
// (A and B included), the window, the cursor, the pane, the selected
// thread and the table's filters are written on quit to a small file
// beside the trace's index (<index>.view.json, private: 0600, written to
// a temporary file then renamed, so a crash leaves the old one whole) and
// read back when the trace opens again. A file that cannot be read, or
// that describes another build of the trace (other bounds), is ignored
// with a note: the browser opens as new.

// viewVersion is the view file's format; another is ignored.
const viewVersion = 1

// maxViewFile bounds the view file read (it holds a few dozen values).
const maxViewFile = 64 << 10

// viewState is the view file.
type viewState struct {
	Version int               `json:"version"`
	Start   core.Time         `json:"start"` // the trace's bounds, to tell a rebuilt trace
	End     core.Time         `json:"end"`
	T0      core.Time         `json:"t0"` // the window
	T1      core.Time         `json:"t1"`
	Cursor  core.Time         `json:"cursor"`
	Pane    int               `json:"pane"`
	Thread  string            `json:"thread,omitempty"`  // tid of the selected Control Flow row
	Marks   map[string]int64  `json:"marks,omitempty"`   // letter -> time
	Filters map[string]string `json:"filters,omitempty"` // column name -> regex
}

// viewPath is where the view of the trace is kept ("" when the trace has
// no index file).
func (b *Gantt) viewPath() string {
	if b.info.Index == "" {
		return ""
	}
	return b.info.Index + ".view.json"
}

// saveView writes the view file. Errors are returned for the tests: on
// quit there is no screen left to say them on.
func (b *Gantt) saveView() error {
	path := b.viewPath()
	if path == "" {
		return nil
	}
	v := viewState{Version: viewVersion, Start: b.win.Start, End: b.win.End, T0: b.win.T0, T1: b.win.T1,
		Cursor: b.cursor, Pane: b.pane}
	if t := b.panes[frame.PaneControlFlow].tree; t != nil {
		if n := t.Selected(); n >= 0 {
			v.Thread = t.Node(n).Tid
		}
	}
	for r, t := range b.marks.at {
		if v.Marks == nil {
			v.Marks = map[string]int64{}
		}
		v.Marks[string(r)] = int64(t)
	}
	for c, p := range b.table.pattern {
		if p != "" {
			if v.Filters == nil {
				v.Filters = map[string]string{}
			}
			v.Filters[frame.EventColumn(c).String()] = p
		}
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writePrivate(path, append(data, '\n'))
}

// writePrivate replaces path with data atomically, readable by the user
// only.
func writePrivate(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp") // 0600
	if err != nil {
		return fmt.Errorf("saving the view: %w", err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("saving the view: %w", err)
	}
	return nil
}

// loadView reads the view file: (nil, nil) when there is none.
func loadView(path string, start, end core.Time) (*viewState, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxViewFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxViewFile {
		return nil, fmt.Errorf("larger than %d bytes", maxViewFile)
	}
	var v viewState
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	switch {
	case v.Version != viewVersion:
		return nil, fmt.Errorf("version %d, not %d", v.Version, viewVersion)
	case v.Start != start || v.End != end:
		return nil, errors.New("of another build of the trace (other bounds)")
	case v.T0 < start || v.T1 > end || v.T0 > v.T1 || v.Cursor < start || v.Cursor > end:
		return nil, errors.New("window or cursor outside the trace")
	case v.Pane != frame.PaneControlFlow && v.Pane != frame.PaneResources:
		return nil, fmt.Errorf("unknown pane %d", v.Pane)
	}
	for k, t := range v.Marks {
		r := []rune(k)
		if len(r) != 1 || r[0] > unicode.MaxASCII || !unicode.IsLetter(r[0]) || core.Time(t) < start || core.Time(t) > end {
			return nil, fmt.Errorf("bad mark %q at %d", k, t)
		}
	}
	return &v, nil
}

// restoreView applies the view file at open (before the rows are read):
// window, cursor, pane, marks and filters; the thread waits for the rows
// (restoreThread). It returns the command starting the filter.
func (b *Gantt) restoreView() tea.Cmd {
	path := b.viewPath()
	if path == "" {
		return nil
	}
	v, err := loadView(path, b.win.Start, b.win.End)
	if err != nil {
		b.setNote(noteError, fmt.Sprintf("view of the last session ignored (%s: %v)", path, err))
		return nil
	}
	if v == nil {
		return nil
	}
	b.win = b.win.WithRange(v.T0, v.T1-v.T0+1)
	b.cursor, b.pane, b.restoreTID = v.Cursor, v.Pane, v.Thread
	for k, t := range v.Marks {
		if b.marks.at == nil {
			b.marks.at = map[rune]core.Time{}
		}
		b.marks.at[[]rune(k)[0]] = core.Time(t)
	}
	var filters []string
	for c := range frame.NumColumns {
		p, ok := v.Filters[c.String()]
		if !ok {
			continue
		}
		if _, err := regexp.Compile(p); err != nil || b.table.setPattern(c, p) != nil {
			continue // a filter that no longer compiles is dropped
		}
		filters = append(filters, c.String()+" /"+p+"/")
	}
	sort.Strings(filters)
	what := []string{fmt.Sprintf("%d marks", len(v.Marks))}
	if len(filters) > 0 {
		what = append(what, "filter "+strings.Join(filters, ", "))
	}
	b.setNote(noteInfo, "view of the last session restored: "+strings.Join(what, ", "))
	if len(filters) == 0 {
		return nil
	}
	return b.table.startFilter(b.ctx, b.cursor)
}

// restoreThread selects the thread of the view file once the rows are
// read (a thread no longer in the trace is let go).
func (b *Gantt) restoreThread(t *frame.RowTree) {
	if b.restoreTID == "" {
		return
	}
	if n, ok := t.ByTID(b.restoreTID); ok {
		t.SelectNode(n)
	}
	b.restoreTID = ""
}
