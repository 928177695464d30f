package gantt

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// Opening a second trace from the browser (issue 34): the compare key
// with nothing to compare asks for a trace's path; the Gantt opens it in
// the background through the root's OpenPath (indexing it if needed, its
// progress on the note and status lines; esc cancels), then compares
// with it as `tracetui BASE NEW` does (SetCompare), and closes it when it
// closes.

// OpenPath opens a trace by path for the browser, indexing it if needed
// and reporting the indexing's progress as bytes read and in all; it
// returns ctx.Err() promptly once ctx is cancelled.
type OpenPath func(ctx context.Context, path string, progress func(done, total int64)) (frame.Trace, error)

// newOpening is the opening of a NEW trace from the prompt.
type newOpening struct {
	open  OpenPath    // nil: the browser cannot open a second trace
	job   ui.Job      // the opening in flight
	name  string      // its trace's name, for the notes
	path  string      // as typed, for the prompt again after a failure
	done  float64     // its progress, 0 to 1 (negative: unknown)
	owned frame.Trace // the NEW trace the Gantt opened: it closes it
}

// openNewMsg is a report of the opening: progress, then the trace or why
// it failed (last).
type openNewMsg struct {
	seq         uint64
	done, total int64
	last        bool
	tr          frame.Trace
	err         error
	ch          <-chan openNewMsg
}

// On tags the report with its channel (ui.WaitReport).
func (m openNewMsg) On(ch <-chan openNewMsg) openNewMsg { m.ch = ch; return m }

// SetOpenPath lets the compare key open a second trace (nil: it cannot).
func (b *Gantt) SetOpenPath(open OpenPath) { b.opening.open = open }

// askNewTrace opens the prompt for the path of a trace to compare with,
// or says what the compare key needs when the browser cannot open one.
func (b *Gantt) askNewTrace(need string) tea.Cmd {
	if b.opening.open == nil {
		b.setNote(noteInfo, need)
		return nil
	}
	if b.opening.job.Running() {
		b.setNote(noteInfo, b.openingText()+" (esc cancels)")
		return nil
	}
	return b.openPrompt(ui.PromptOpen, "compare with the trace (path): ", "")
}

// expandHome replaces a leading "~/" with the home directory.
func expandHome(path string) (string, error) {
	if path != "~" && !strings.HasPrefix(path, "~/") {
		return path, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no home directory for ~: %w", err)
	}
	return filepath.Join(home, path[1:]), nil
}

// openNewDone starts opening the path typed; a path that does not exist
// keeps the prompt open with the error.
func (b *Gantt) openNewDone(text string) tea.Cmd {
	path, err := expandHome(strings.TrimSpace(text))
	if err == nil && path == "" {
		err = errors.New("type a trace's path (esc cancels)")
	}
	if err == nil {
		if _, serr := os.Stat(path); errors.Is(serr, fs.ErrNotExist) {
			err = &shortErr{"no such file", serr}
		} else if serr != nil {
			err = serr
		}
	}
	if err != nil {
		return b.prompt.Fail(err)
	}
	b.prompt.Close()
	ctx, seq := b.opening.job.Start(b.ctx)
	b.opening.name, b.opening.path, b.opening.done = filepath.Base(filepath.Clean(path)), text, -1
	b.setNote(noteInfo, b.openingText()+" (esc cancels)")
	open := b.opening.open
	return ui.Spawn(1, func(ch chan<- openNewMsg) {
		tr, err := open(ctx, path, func(done, total int64) {
			select { // drop a report when the UI is behind: the next one supersedes it
			case ch <- openNewMsg{seq: seq, done: done, total: total}:
			default:
			}
		})
		if ctx.Err() != nil { // cancelled, or the browser closed: nobody takes it
			if tr != nil {
				_ = tr.Close()
			}
			return
		}
		select {
		case ch <- openNewMsg{seq: seq, last: true, tr: tr, err: err}:
		case <-ctx.Done():
			if tr != nil {
				_ = tr.Close()
			}
		}
	})
}

// openingText says what the opening is doing.
func (b *Gantt) openingText() string {
	name := ui.Printable(b.opening.name)
	if b.opening.done < 0 {
		return "opening NEW " + name + "…"
	}
	return fmt.Sprintf("indexing NEW %s… %.0f%%", name, 100*b.opening.done)
}

// gotOpenNew takes a report of the opening: progress on the note, then
// the trace compared with, or the prompt again with the error.
func (b *Gantt) gotOpenNew(m openNewMsg) tea.Cmd {
	if !b.opening.job.Current(m.seq) {
		if m.tr != nil {
			_ = m.tr.Close() // a cancelled opening that finished anyway
		}
		return ui.WaitReport(m.ch)
	}
	if !m.last {
		if m.total > 0 {
			b.opening.done = float64(min(max(m.done, 0), m.total)) / float64(m.total)
		}
		if b.views == nil || b.views.Line() == "" { // not over a prompt the user types in
			b.setNote(noteInfo, b.openingText()+" (esc cancels)")
		}
		return ui.WaitReport(m.ch)
	}
	b.opening.job.Finish()
	if m.err != nil {
		// A short label, as the go-to prompt's after an error, so more of
		// the error fits.
		cmd := b.openPrompt(ui.PromptOpen, "compare with: ", b.opening.path)
		b.prompt.Fail(fmt.Errorf("cannot open: %w", m.err))
		return cmd
	}
	b.closeOwned()
	b.opening.owned = m.tr
	b.SetCompare(m.tr)
	return nil
}

// cancelOpenNew stops the opening in flight, if any.
func (b *Gantt) cancelOpenNew() bool {
	if !b.opening.job.Running() {
		return false
	}
	b.opening.job.Stop()
	b.setNote(noteInfo, "opening NEW "+ui.Printable(b.opening.name)+" cancelled")
	return true
}

// closeOwned closes the NEW trace the Gantt opened, if any.
func (b *Gantt) closeOwned() {
	if b.opening.owned == nil {
		return
	}
	b.other, b.otherNames = nil, nil // owned is always the NEW compared with
	_ = b.opening.owned.Close()      // nothing left to show a failure on
	b.opening.owned = nil
}
