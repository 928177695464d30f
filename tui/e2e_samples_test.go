package tui

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core/coretest"
)

// TestSamplesInTmux drives the built binary (--ascii) on a perf.data
// profile (ingest/perfdata's switch.perf, cpu-clock -g): the samples rows
// are under the threads, the details line of one says whose samples and
// how many, and F on it opens the call tree of that thread's samples.
func TestSamplesInTmux(t *testing.T) {
	tmux := needTmux(t)
	bin := coretest.Binary(t)
	trace := filepath.Join("..", "ingest", "perfdata", "testdata", "switch.perf")
	tmp := t.TempDir()
	env := privateEnv(tmp)
	s := startTmux(t, tmux, 100, 30, env, fmt.Sprintf("%q --ascii %q; echo \"[exit $?]\"; sleep 600", bin, trace))
	if s.waitFor(60*time.Second, "Control Flow", "[exit") == "[exit" {
		t.Fatalf("tracetui exited:\n%s", s.screen())
	}
	s.waitFor(10*time.Second, " events")
	s.waitFor(waitKey, "    samples ")
	s.send("j")
	s.waitFor(waitKey, "\nsamples of sh 22902 . ")
	s.waitFor(waitKey, " on screen . @ = ")
	s.send("F")
	s.waitFor(10*time.Second, "Call tree of sh 22902 over the visible range")
	s.waitFor(waitKey, "samples     total%")
	s.send("Escape")
	s.waitGone(waitKey, "Call tree of")
	s.send("q")
	s.waitFor(waitKey, "[exit 0]")
}
