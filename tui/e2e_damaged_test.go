package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core/coretest"
)

// TestIndexTruncatedUnderBrowserInTmux: the index is truncated (`: > x.tti`)
// while the built binary browses it. The next query says the index is
// damaged instead of the process dying of SIGBUS; q then exits 0 with the
// terminal's modes as they were; the next run rebuilds the index and
// browses again.
func TestIndexTruncatedUnderBrowserInTmux(t *testing.T) {
	tmux := needTmux(t)
	bin := coretest.Binary(t)
	tmp := t.TempDir()
	cache := filepath.Join(tmp, "cache")
	env := privateEnv(tmp, "NO_COLOR=1")
	shell := fmt.Sprintf(`modes=$(stty -g); %q; echo "[first $?]"; `+
		`if [ "$(stty -g)" = "$modes" ]; then echo "[modes kept]"; else echo "[modes changed]"; fi; `+
		`read line; %q; echo "[exit $?]"; sleep 600`, bin, bin)
	s := startTmux(t, tmux, 100, 30, env, shell)
	if s.waitFor(60*time.Second, "Control Flow", "[first") == "[first" {
		t.Fatalf("tracetui exited:\n%s", s.screen())
	}
	s.waitFor(10*time.Second, "events")
	indexes, _ := filepath.Glob(filepath.Join(cache, "tracetui", "*.tti"))
	if len(indexes) != 1 {
		t.Fatalf("indexes %v, want one", indexes)
	}
	if err := os.Truncate(indexes[0], 0); err != nil {
		t.Fatal(err)
	}
	s.send("w", "w", "l", "l") // new windows: queries that read the truncated file
	s.waitFor(waitKey, "the index is damaged")
	s.send("q")
	if got := s.waitFor(waitKey, "[modes kept]", "[modes changed]"); got != "[modes kept]" {
		t.Errorf("terminal modes after the damaged session: %s\n%s", got, s.screen())
	}
	s.waitFor(waitKey, "[first 0]")

	s.send("Enter") // the second run: the truncated index is rebuilt
	if s.waitFor(60*time.Second, "Control Flow", "[exit") == "[exit" {
		t.Fatalf("the second run exited:\n%s", s.screen())
	}
	s.waitFor(10*time.Second, "events")
	if fi, err := os.Stat(indexes[0]); err != nil || fi.Size() == 0 {
		t.Errorf("index after the second run: %v (%v), want it rebuilt", fi, err)
	}
	s.send("q")
	s.waitFor(waitKey, "[exit 0]")
}
