package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/term"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// Options are the browser's command-line settings.
type Options struct {
	// ASCII draws states with characters only (--ascii). NO_COLOR in the
	// environment does the same (Run reads it).
	ASCII bool
	// Keys are the key bindings; the zero value loads
	// $XDG_CONFIG_HOME/tracetui/keys.json over the defaults
	// (keymap.LoadDefault), failing on a bad file.
	Keys *keymap.KeyMap
	// Input and Output default to the terminal (stdin, stdout).
	Input  io.Reader
	Output io.Writer
	// FocusTID, if not 0, is the thread (or process) whose Control Flow
	// row is selected and shown first at open: the command that
	// `tracetui record` ran.
	FocusTID int
}

// Run shows the browser full-screen until the user quits. It opens the
// trace with o (showing the indexing screen unless o.Indexed) and returns
// nil after a normal quit, context.Canceled when the user cancelled the
// indexing, or the error that stopped it (a bad keys.json, a trace that
// cannot be opened).
func Run(ctx context.Context, o Opener, opts Options) error {
	var km keymap.KeyMap
	if opts.Keys != nil {
		km = *opts.Keys
	} else {
		var err error
		if km, err = keymap.LoadDefault(); err != nil {
			return err
		}
	}
	out := opts.Output
	if out == nil {
		out = os.Stdout
	}
	in := opts.Input
	if in == nil {
		in = os.Stdin
	}
	if err := needTerminal(in, out); err != nil {
		return err
	}
	noColor := os.Getenv("NO_COLOR") != "" // no-color.org: set and not empty
	styles := ui.NewStyles(lipgloss.NewRenderer(out), opts.ASCII || noColor)
	styles.SevenBit = opts.ASCII
	m := New(ctx, o, Settings{Styles: styles, Keys: km, Clipboard: out, TmuxCopy: tmuxCopy(), FocusTID: opts.FocusTID})
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out), tea.WithAltScreen())
	_, err := p.Run()
	closeErr := m.close()
	if err != nil {
		return fmt.Errorf("browser: %w", err)
	}
	if err := m.Err(); err != nil {
		return err
	}
	return closeErr
}

// ErrNoTerminal is returned by Run when its input or output is a file
// descriptor that is not a terminal (a script, a pipe, /dev/null).
var ErrNoTerminal = errors.New("the browser needs a terminal; use the dump, query or info commands in scripts")

// needTerminal refuses an input or output that is an open file but not a
// terminal, before Bubble Tea fails on it with an obscure message
// ("error creating cancelreader ... epoll").
func needTerminal(in io.Reader, out io.Writer) error {
	for _, f := range []any{in, out} {
		if fd, ok := f.(interface{ Fd() uintptr }); ok && !term.IsTerminal(fd.Fd()) {
			return ErrNoTerminal
		}
	}
	return nil
}

// Opener opens a trace for the browser. When Indexed is false the browser
// shows the indexing screen (a progress bar with an estimate, q to cancel)
// while Open runs; when true it goes straight to the browser.
type Opener struct {
	// Name is shown on the indexing screen before the trace is open.
	Name string
	// Indexed reports that an up-to-date index exists, so Open is quick.
	Indexed bool
	// Open opens the trace, building its index if needed and reporting the
	// build's progress as bytes of the trace read so far and in all (the
	// screen prints them as sizes and estimates the time left from the
	// rate). It must
	// return promptly with ctx.Err() once ctx is cancelled (q on the
	// indexing screen), leaving no index file that opens as valid.
	Open func(ctx context.Context, progress func(done, total int64)) (frame.Trace, error)
	// OpenNew, if not nil, opens a second trace after the first, the NEW
	// one the first (BASE) is compared with (`tracetui BASE NEW`): the
	// Gantt shows BASE and the compare key opens the comparison of the
	// two. Its progress is reported as Open's.
	OpenNew func(ctx context.Context, progress func(done, total int64)) (frame.Trace, error)
	// OpenPath, if not nil, opens another trace by path, as Open does
	// (building its index in the cache if needed): the compare key with
	// nothing to compare asks for a path and compares with that trace,
	// which the browser closes when it ends.
	OpenPath func(ctx context.Context, path string, progress func(done, total int64)) (frame.Trace, error)
}
