package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/trace"
)

// openTrace opens a trace with its index, building it when needed with a
// progress line on stderr; Ctrl-C cancels the build and leaves no index.
func (e *Env) openTrace(path string, opts index.Options) (*trace.Trace, error) {
	ctx := e.Context()
	p := newProgressLine(e.Stderr)
	opts.Progress = p.update
	opts.Reclaim = Reclaim // the command line owns the process's memory policy
	opts.Waiting = func() { fmt.Fprintln(e.Stderr, "tracetui: another tracetui is indexing this trace; waiting for it") }
	t, err := trace.Open(ctx, path, opts)
	p.done()
	return t, err
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// progressLine prints the build's progress on one terminal line, at most
// ten times a second, and only when stderr is a terminal.
type progressLine struct {
	w     io.Writer
	tty   bool
	last  time.Time
	shown bool
}

func newProgressLine(w io.Writer) *progressLine {
	f, ok := w.(*os.File)
	tty := false
	if ok {
		st, err := f.Stat()
		tty = err == nil && st.Mode()&os.ModeCharDevice != 0
	}
	return &progressLine{w: w, tty: tty}
}

func (p *progressLine) update(done, total int64) {
	if !p.tty || time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last, p.shown = time.Now(), true
	pct := 100.0
	if total > 0 {
		pct = 100 * float64(done) / float64(total)
	}
	fmt.Fprintf(p.w, "\rindexing: %5.1f%% of %d MB", pct, total>>20)
}

func (p *progressLine) done() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
