package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/gantt"
	"github.com/tracetui/tracetui/tui/screens/help"
	"github.com/tracetui/tracetui/tui/ui"
)

// screen is which screen the root model shows.
type screen uint8

const (
	screenOpening screen = iota // indexing or opening
	screenBrowser
	screenFailed
)

// Model is the root Bubble Tea model: it opens the trace (showing the
// indexing screen), then routes every message to the stack of views whose
// bottom is the Gantt (ui.Stack's rule). The views share the terminal
// size, styles and key bindings through one ui.Shared.
type Model struct {
	sh       *ui.Shared
	opener   Opener
	ctx      context.Context
	cancel   context.CancelFunc
	screen   screen
	indexing indexing
	opening  ui.Job       // Opener.Open
	gantt    *gantt.Gantt // the main screen, the bottom of views
	views    *ui.Stack
	trace    frame.Trace // the opened trace, closed with the model
	other    frame.Trace // the NEW trace compared with it (Opener.OpenNew), closed with it
	err      error
	clock    func() time.Time
	focus    int // Settings.FocusTID
}

// Settings configure a Model.
type Settings struct {
	// Styles to draw with; nil: NewStyles(lipgloss.DefaultRenderer(), false).
	Styles *ui.Styles
	// Keys are the bindings; the zero KeyMap means keymap.Default().
	Keys keymap.KeyMap
	// Clock returns the time for the indexing estimate and the query
	// timings of the status line; nil: time.Now. Tests pin it.
	Clock func() time.Time
	// Clipboard receives the copy key's OSC 52 sequences: the terminal
	// the program draws on; nil: copying says it is unavailable.
	Clipboard io.Writer
	// TmuxCopy, if not nil, copies through tmux (see ui.Shared.TmuxCopy).
	TmuxCopy func(text string) error
	// FocusTID: see Options.FocusTID.
	FocusTID int
}

// New returns the root model for a trace. ctx bounds every query and the
// index build; cancelling it stops them.
func New(ctx context.Context, o Opener, s Settings) *Model {
	if s.Styles == nil {
		s.Styles = ui.NewStyles(lipgloss.DefaultRenderer(), false)
	}
	if len(s.Keys.Quit.Keys()) == 0 && len(s.Keys.Up.Keys()) == 0 {
		s.Keys = keymap.Default()
	}
	if s.Clock == nil {
		s.Clock = time.Now
	}
	ctx, cancel := context.WithCancel(ctx)
	sh := &ui.Shared{Width: 80, Height: 24, Styles: s.Styles, Keys: s.Keys, Clipboard: s.Clipboard, TmuxCopy: s.TmuxCopy}
	return &Model{sh: sh, opener: o, ctx: ctx, cancel: cancel, clock: s.Clock, focus: s.FocusTID,
		indexing: newIndexing(sh, o, s.Clock())}
}

// Err returns why the browser stopped (nil after a normal quit,
// context.Canceled when the indexing was cancelled).
func (m *Model) Err() error { return m.err }

// openedMsg ends the opening.
type openedMsg struct {
	trace, other frame.Trace
	err          error
}

// Init starts opening the trace, reporting progress through a channel
// that a command listens on (the re-arm pattern of ui.Job).
func (m *Model) Init() tea.Cmd {
	ch := make(chan progressMsg, 1)
	ctx, _ := m.opening.Start(m.ctx)
	open, openNew, clock := m.opener.Open, m.opener.OpenNew, m.clock
	openCmd := func() tea.Msg {
		progress := func(done, total int64) {
			select { // drop a report when the UI is behind: the next one supersedes it
			case ch <- progressMsg{done: done, total: total, at: clock()}:
			default:
			}
		}
		defer close(ch)
		tr, err := open(ctx, progress)
		if err != nil || openNew == nil {
			return openedMsg{trace: tr, err: err}
		}
		other, err := openNew(ctx, progress)
		if err != nil {
			return openedMsg{trace: tr, err: fmt.Errorf("opening NEW: %w", err)}
		}
		return openedMsg{trace: tr, other: other}
	}
	return tea.Batch(openCmd, ui.WaitReport(ch))
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if keys, ok := ui.SplitKeys(msg); ok {
		cmds := make([]tea.Cmd, 0, len(keys))
		for _, k := range keys {
			_, cmd := m.Update(k)
			cmds = append(cmds, cmd)
		}
		return m, tea.Batch(cmds...)
	}
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		m.sh.Width, m.sh.Height = ws.Width, ws.Height
	}
	switch m.screen {
	case screenOpening:
		return m, m.updateOpening(msg)
	case screenFailed:
		if k, ok := msg.(tea.KeyMsg); ok && (m.sh.Quits(k) || k.Type == tea.KeyEsc || k.Type == tea.KeyEnter) {
			return m, tea.Quit
		}
		return m, nil
	}
	return m, m.views.Route(msg)
}

func (m *Model) updateOpening(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case progressMsg:
		m.indexing.update(msg)
		return ui.WaitReport(msg.ch)
	case openedMsg:
		m.opening.Finish()
		m.trace, m.other = msg.trace, msg.other
		if m.indexing.cancelled {
			m.err = context.Canceled
			return tea.Quit
		}
		if msg.err != nil {
			m.err = msg.err
			m.screen = screenFailed
			return nil
		}
		m.screen = screenBrowser
		m.gantt = gantt.New(m.ctx, m.sh, msg.trace, m.clock)
		if msg.other != nil {
			m.gantt.SetCompare(msg.other)
		}
		m.gantt.SetOpenPath(m.opener.OpenPath)
		if m.focus != 0 {
			m.gantt.Focus(m.focus)
		}
		m.views = ui.NewStack(m.sh, m.gantt, func() ui.View { return help.New(m.sh) })
		m.gantt.SetViews(m.views)
		return m.gantt.Init()
	case tea.KeyMsg:
		if m.sh.Quits(msg) || msg.Type == tea.KeyEsc {
			m.indexing.cancelled = true
			m.opening.Stop() // Open returns ctx.Err(); openedMsg then quits
		}
	}
	return nil
}

// View implements tea.Model: the screen, in plain text when asked
// (--ascii, NO_COLOR: ui.Styles.Plain).
func (m *Model) View() string { return m.sh.Styles.Plain(m.view()) }

// view draws the screen.
func (m *Model) view() string {
	st := m.sh.Styles
	if m.sh.TooSmall() {
		return m.sh.TooSmallScreen()
	}
	switch m.screen {
	case screenOpening:
		return m.indexing.view()
	case screenFailed:
		msg := st.Error.Render(ui.Printable("cannot open "+m.opener.Name)) + "\n" + ui.Fit(errText(m.err), m.sh.Width-2) + "\n\n" + st.Dim.Render("press q to quit")
		return lipgloss.Place(m.sh.Width, m.sh.Height, lipgloss.Center, lipgloss.Center, msg)
	}
	return m.gantt.Render()
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	if errors.Is(err, context.Canceled) {
		return "cancelled"
	}
	return err.Error()
}

// close cancels everything still running and closes the trace (after the
// program ends).
func (m *Model) close() error {
	if m.gantt != nil {
		m.views.CloseAll()
		m.gantt.Close()
	}
	m.opening.Stop()
	m.cancel()
	var errs []error
	for _, tr := range []*frame.Trace{&m.trace, &m.other} {
		if *tr == nil {
			continue
		}
		if err := (*tr).Close(); err != nil {
			errs = append(errs, fmt.Errorf("closing %s: %w", (*tr).Name(), err))
		}
		*tr = nil
	}
	return errors.Join(errs...)
}
