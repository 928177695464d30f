package gantt

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/screens/compare"
	"github.com/tracetui/tracetui/tui/ui"
	"github.com/tracetui/tracetui/tui/ui/headless"
)

// closeCount is a trace that counts its closes.
type closeCount struct {
	frame.Trace
	closed *int
}

func (c closeCount) Close() error { *c.closed++; return nil }

// touch makes an empty file in dir and returns its path.
func touch(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOpenNewPrompt: the compare key with nothing to compare asks for a
// trace's path; a missing file keeps the prompt open with "no such
// file"; "~/" is the home directory; the trace opened (a fake opener
// reporting progress) becomes NEW, so the compare key then compares the
// two; the Gantt closes it when it closes.
func TestOpenNewPrompt(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	touch(t, home, "new.dat")
	var closed int
	var asked string
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	hs.b().SetOpenPath(func(ctx context.Context, path string, progress func(int64, int64)) (frame.Trace, error) {
		asked = path
		progress(45, 100)
		return closeCount{frametest.NewDemoTrace(), &closed}, nil
	})
	hs.keys("D")
	if !hs.b().prompt.Active() || !strings.Contains(hs.view(), "compare with the trace (path): ") {
		t.Fatalf("D with nothing to compare: no prompt:\n%s", hs.view())
	}
	hs.typeText(filepath.Join(home, "absent.dat"))
	hs.keys("enter")
	if !hs.b().prompt.Active() || !strings.Contains(hs.view(), "no such file") || asked != "" {
		t.Fatalf("a missing file: prompt closed or no error (opener asked %q):\n%s", asked, hs.view())
	}
	hs.typeText("~/new.dat") // the rejected text is selected: typing replaces it
	hs.keys("enter")
	if want := filepath.Join(home, "new.dat"); asked != want {
		t.Fatalf("opened %q, want %q", asked, want)
	}
	if hs.b().prompt.Active() || hs.b().other == nil || !strings.Contains(hs.b().note, "comparing with NEW demo") {
		t.Fatalf("after opening: prompt %v, other %v, note %q", hs.b().prompt.Active(), hs.b().other, hs.b().note)
	}
	hs.keys("D")
	if s := topView[*compare.Screen](hs.b()); s == nil || !strings.Contains(hs.view(), "new: NEW demo") {
		t.Fatalf("D after opening NEW:\n%s", hs.view())
	}
	hs.keys("esc")
	hs.b().Close()
	if closed != 1 || hs.b().other != nil {
		t.Fatalf("the Gantt closed its NEW %d times, want 1", closed)
	}
}

// TestOpenNewFails: an opener's error shows on the prompt again, with
// the path typed; nothing is compared.
func TestOpenNewFails(t *testing.T) {
	p := touch(t, t.TempDir(), "bad.dat")
	hs := newHarness(t, frametest.NewDemoTrace(), 200, 30, true)
	hs.b().SetOpenPath(func(context.Context, string, func(int64, int64)) (frame.Trace, error) {
		return nil, errors.New("unknown format")
	})
	hs.keys("D")
	hs.typeText(p)
	hs.keys("enter")
	if !hs.b().prompt.Active() || hs.b().prompt.Value() != p || !strings.Contains(hs.view(), "compare with: "+p+"_  cannot open: unknown format") {
		t.Fatalf("failed opening:\n%s", hs.view())
	}
	if hs.b().other != nil {
		t.Fatal("a failed opening is compared with")
	}
	hs.keys("esc")
	if hs.b().prompt.Active() {
		t.Fatal("esc left the prompt open")
	}
}

// startOpening types a path at the prompt and returns the command that
// opens it, not run: the test runs it on a goroutine, as Bubble Tea does.
func startOpening(t *testing.T, hs *harness, path string) tea.Cmd {
	t.Helper()
	hs.keys("D")
	hs.typeText(path)
	_, cmd := hs.m.Update(headless.Key("enter"))
	done := cmd()
	if _, ok := done.(ui.PromptDoneMsg); !ok {
		t.Fatalf("enter gave %T", done)
	}
	_, cmd = hs.m.Update(done)
	return cmd
}

// TestOpenNewCancel: the opening runs in the background, its progress
// on the note (the compare key meanwhile says so); esc cancels it (its context is done, nothing is
// compared), and so does closing the Gantt.
func TestOpenNewCancel(t *testing.T) {
	p := touch(t, t.TempDir(), "slow.dat")
	for _, how := range []string{"esc", "close"} {
		t.Run(how, func(t *testing.T) {
			hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
			stopped := make(chan struct{})
			hs.b().SetOpenPath(func(ctx context.Context, _ string, progress func(int64, int64)) (frame.Trace, error) {
				progress(45, 100)
				<-ctx.Done()
				close(stopped)
				return nil, ctx.Err()
			})
			cmd := startOpening(t, hs, p)
			msgs := make(chan tea.Msg, 1)
			go func() { msgs <- cmd() }()
			_, next := hs.m.Update(<-msgs) // the progress report
			if v := hs.view(); !strings.Contains(v, "indexing NEW slow.dat… 45%") {
				t.Fatalf("no progress:\n%s", v)
			}
			go func() { msgs <- next() }() // waits for the next report
			hs.keys("D")                   // while it opens: says so, no second prompt
			if hs.b().prompt.Active() || !strings.Contains(hs.b().note, "indexing NEW slow.dat… 45% (esc cancels)") {
				t.Fatalf("D while opening: prompt %v, note %q", hs.b().prompt.Active(), hs.b().note)
			}
			if how == "esc" {
				hs.keys("esc")
				if !strings.Contains(hs.b().note, "opening NEW slow.dat cancelled") {
					t.Fatalf("note after esc: %q", hs.b().note)
				}
			} else {
				hs.b().Close()
			}
			<-stopped
			if m := <-msgs; m != nil {
				t.Fatalf("a cancelled opening reported %T", m)
			}
			if hs.b().other != nil || hs.b().opening.job.Running() {
				t.Fatal("a cancelled opening is compared with, or still running")
			}
		})
	}
}
