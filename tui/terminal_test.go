package tui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// TestRunNeedsATerminal: with a file as input (a script, </dev/null),
// Run says the browser needs a terminal instead of Bubble Tea's
// cancelreader error (issue 18).
func TestRunNeedsATerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "in"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	km := keymap.Default()
	err = Run(context.Background(), openerOf(frametest.NewDemoTrace()), Options{Input: f, Output: f, Keys: &km})
	if !errors.Is(err, ErrNoTerminal) {
		t.Errorf("Run on a file = %v, want ErrNoTerminal", err)
	}
}
