package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core/coretest"
)

// TestViewLastsInTmux: marks and a filter set in one run of the built
// binary (on the demo trace) are there in the next run, from the view
// file written beside the index (private).
func TestViewLastsInTmux(t *testing.T) {
	tmux := needTmux(t)
	bin := coretest.Binary(t)
	tmp := t.TempDir()
	cache := filepath.Join(tmp, "cache")
	env := privateEnv(tmp, "NO_COLOR=1")
	s := startTmux(t, tmux, 100, 30, env, fmt.Sprintf("%q || echo \"[first $?]\"; %q; echo \"[exit $?]\"; sleep 600", bin, bin))
	if s.waitFor(60*time.Second, "Control Flow", "[first") == "[first" {
		t.Fatalf("tracetui exited:\n%s", s.screen())
	}
	s.waitFor(10*time.Second, "events")
	s.send("l", "l", "m", "a")
	s.waitFor(waitKey, "mark a set at")
	s.send("l", "l", "l", "m", "B")
	s.waitFor(waitKey, "mark B set at")
	s.prompt("f", "sched_wakeup", "match")
	s.waitGone(20*time.Second, "%") // the filter's scan is over
	s.send("q")                     // the second run starts at once (its screen covers "[first 0]")
	s.waitFor(60*time.Second, "view of the last session restored: 2 marks, filter Event /sched_wakeup/")
	s.send("'", "?")
	s.waitFor(waitKey, "go to mark: B +")
	if scr := s.screen(); !strings.Contains(scr, " a +") {
		t.Errorf("mark a missing from the list:\n%s", scr)
	}
	s.send("a")
	// Copy in tmux's default configuration (the session's, -f /dev/null):
	// through tmux's buffer, which the test reads back.
	s.send("y")
	s.waitFor(waitKey, "copied the cursor time to tmux's buffer")
	buf, err := s.cmd("show-buffer")
	if err != nil || !strings.Contains(s.screen(), "pastes): "+strings.TrimSpace(buf)) || strings.TrimSpace(buf) == "" {
		t.Errorf("tmux buffer %q (%v), not the copied time on screen:\n%s", buf, err, s.screen())
	}
	s.send("q")
	s.waitFor(waitKey, "[exit 0]")

	views, _ := filepath.Glob(filepath.Join(cache, "*", "*.view.json"))
	if more, _ := filepath.Glob(filepath.Join(cache, "*", "*", "*.view.json")); len(more) > 0 {
		views = append(views, more...)
	}
	if len(views) != 1 {
		t.Fatalf("view files %v, want one beside the index", views)
	}
	if fi, err := os.Stat(views[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("view file %v (%v), want mode 0600", fi, err)
	}
}
