package tui

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
)

// TestCompareInTmux: `tracetui BASE NEW` with the built binary, the
// shared kernel trace bug446190 against a generated one: the Gantt shows
// BASE, D compares the two, tab shows the threads, enter selects the
// first one's row (a thread only in BASE: the note says so); V shows both
// traces' Control Flow and w zooms them together.
func TestCompareInTmux(t *testing.T) {
	tmux := needTmux(t)
	base := filepath.Join(coretest.SharedTraces(t), "ctf", "bug446190")
	next := gentest.Trace(t, 300)
	bin := coretest.Binary(t)
	tmp := t.TempDir()
	env := privateEnv(tmp)
	s := startTmux(t, tmux, 120, 32, env, fmt.Sprintf("%q %q %q; echo \"[exit $?]\"; sleep 600", bin, base, next))

	const long = 60 * time.Second // a first open indexes both traces
	if s.waitFor(long, "comparing with NEW gen-300-seed1", "[exit") == "[exit" {
		t.Fatalf("tracetui exited:\n%s", s.screen())
	}
	s.waitFor(long, "BASE bug446190 (NEW gen-300-seed1)") // the status line: the Gantt shows BASE
	s.send("D")
	s.waitFor(20*time.Second, "CPU time per process (")
	s.waitFor(waitKey, "new: NEW gen-300-seed1")
	s.send("Tab")
	s.waitFor(waitKey, "CPU time per thread (")
	s.send("Enter")
	s.waitFor(waitKey, "lttng-sessiond #0: thread 482 in BASE bug446190, absent from NEW gen-300-seed1")
	s.waitGone(waitKey, "CPU time per thread (")
	// Both traces' Control Flow, from the Gantt's window; w zooms both.
	s.send("V")
	s.waitFor(10*time.Second, "aligned at their starts: +0ns for 6.006s")
	s.waitFor(10*time.Second, "NEW gen-300-seed1 (ended before this offset)", "NEW gen-300-seed1")
	s.send("w")
	s.waitFor(waitKey, "for 3.003s")
	s.send("Escape")
	s.waitGone(waitKey, "side by side")
	s.send("q")
	s.waitFor(waitKey, "[exit 0]")
}

// TestOpenSecondTraceInTmux: the built binary on one trace; D with
// nothing to compare asks for a path, a missing one keeps the prompt
// open, the generated trace typed (indexed in the background) becomes
// NEW, and D then compares the two.
func TestOpenSecondTraceInTmux(t *testing.T) {
	tmux := needTmux(t)
	base := filepath.Join(coretest.SharedTraces(t), "ctf", "bug446190")
	next := gentest.Trace(t, 300)
	bin := coretest.Binary(t)
	tmp := t.TempDir()
	env := privateEnv(tmp)
	s := startTmux(t, tmux, 160, 32, env, fmt.Sprintf("%q %q; echo \"[exit $?]\"; sleep 600", bin, base))

	const long = 60 * time.Second // a first open indexes the trace
	if s.waitFor(long, "bug446190 │", "[exit") == "[exit" {
		t.Fatalf("tracetui exited:\n%s", s.screen())
	}
	s.send("D")
	s.waitFor(waitKey, "compare with the trace (path): ")
	s.text(filepath.Join(tmp, "absent"))
	s.send("Enter")
	s.waitFor(waitKey, "no such file")
	s.text(next) // replaces the rejected path
	s.send("Enter")
	s.waitFor(long, "comparing with NEW gen-300-seed1")
	s.waitFor(waitKey, "BASE bug446190 (NEW gen-300-seed1)")
	s.send("D")
	s.waitFor(20*time.Second, "CPU time per process (")
	s.waitFor(waitKey, "new: NEW gen-300-seed1")
	s.send("Escape")
	s.waitGone(waitKey, "CPU time per process (")
	s.send("q")
	s.waitFor(waitKey, "[exit 0]")
}
