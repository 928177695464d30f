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

// TestUserSpaceInTmux drives the built binary (--ascii, so that the
// Gantt's glyphs show in capture-pane) on application traces: the call
// tree of clang's -ftime-trace, Chrome's async lanes, counters and a flow
// followed with its key, and the symbols of the shared cyg-profile trace
// (the mapping file beside it) in the call-stack rows and the call tree.
func TestUserSpaceInTmux(t *testing.T) {
	tmux := needTmux(t)
	bin := coretest.Binary(t)
	open := func(t *testing.T, trace string) *tmuxSession {
		t.Helper()
		tmp := t.TempDir()
		env := privateEnv(tmp)
		s := startTmux(t, tmux, 100, 30, env, fmt.Sprintf("%q --ascii %q; echo \"[exit $?]\"; sleep 600", bin, trace))
		if s.waitFor(60*time.Second, "Control Flow", "[exit") == "[exit" {
			t.Fatalf("tracetui exited:\n%s", s.screen())
		}
		s.waitFor(10*time.Second, " events") // the table: the first frame is in
		return s
	}
	// goTo types a time into the goto prompt.
	goTo := func(s *tmuxSession, at string) {
		s.send(":")
		s.text(at)
		s.send("Enter")
		s.waitFor(waitKey, "cur "+at)
	}
	// find selects the first row matching re and waits for the details
	// line to name it (the find answers in the background: keys sent
	// before would go to its prompt).
	find := func(s *tmuxSession, re, row string) {
		s.send("/")
		s.text(re)
		s.send("Enter")
		s.waitFor(waitKey, "\n"+row+" . ")
	}
	quit := func(s *tmuxSession) {
		s.send("q")
		s.waitFor(waitKey, "[exit 0]")
	}

	t.Run("call_tree", func(t *testing.T) {
		s := open(t, filepath.Join("..", "testdata", "chrome", "clang-ftime-trace.json"))
		find(s, "4242:4242", "clang-17 4242:4242") // the compiler thread
		s.send("F")
		s.waitFor(10*time.Second, "Call tree of clang-17 4242:4242")
		s.waitFor(waitKey, "- ExecuteCompiler") // the outermost function open
		s.waitFor(waitKey, "|Frontend")         // the icicle
		s.send("j")                             // Frontend
		s.send("l")
		s.waitFor(waitKey, "- Frontend")
		s.waitFor(waitKey, "ParseClass")
		s.send("h")
		s.waitFor(waitKey, "+ Frontend")
		s.send("Enter") // select and frame Frontend's longest call in Control Flow
		s.waitFor(waitKey, "selected the longest call of Frontend (3ms) +1ms-+4ms")
		s.waitFor(waitKey, "sel 3ms")
		quit(s)
	})

	t.Run("chrome_tracks", func(t *testing.T) {
		s := open(t, filepath.Join("..", "testdata", "chrome", "catapult-tracks.json"))
		// A process with async work only has a row, with its lanes.
		s.waitFor(waitKey, "network service 7")
		s.waitFor(waitKey, "net/URLRequest 2")
		s.waitFor(waitKey, "disk/Read")
		s.waitFor(waitKey, "9999999") // the async slice Read#9, 12-16 us
		// Counters: block heights (ASCII levels), value at the cursor.
		s.waitFor(waitKey, "......@@@@@@")
		find(s, "heap", "memory/heap")
		goTo(s, "+30us")
		s.waitFor(waitKey, "memory/heap . 2048 +25us")
		// The flow ipc/post#5: from its last step (8:81 at 45 us) back
		// to its first (8:80), then forward to its middle step (7:70)
		// and on to the last.
		find(s, "8:81", "81 8:81")
		goTo(s, "+45us")
		s.waitFor(waitKey, "flow in ipc/post#5 from 7:70 at 33000")
		s.send("e")
		s.waitFor(waitKey, "the flow's first step (from its last): 8:80 at +18us")
		s.waitFor(waitKey, "80 8:80 . Task")
		s.send("e")
		s.waitFor(waitKey, "the flow's next step: 7:70 at +33us")
		s.waitFor(waitKey, "70 7:70 . no state +0ns>+50us (50.001us) . exec 70 . flow in ipc/post#5 from 8:80")
		s.send("e")
		s.waitFor(waitKey, "the flow's next step: 8:81 at +45us")
		quit(s)
	})

	t.Run("cyg_profile_symbols", func(t *testing.T) {
		trace := filepath.Join(coretest.SharedTraces(t), "ctf", "cyg-profile")
		if _, err := os.Stat(filepath.Join(trace, "cyg-profile-mapping.txt")); err != nil {
			t.Skipf("no mapping file beside the shared cyg-profile trace: %v", err)
		}
		s := open(t, trace)
		s.waitFor(10*time.Second, "glxgears 16073 . main ") // the thread's outermost frame, by name
		s.send("Enter")                                     // its call stack rows
		s.send("j", "j")
		s.waitFor(waitKey, "*   depth 2")
		goTo(s, "+170ms")
		s.waitFor(waitKey, "depth 2 . init +139.551ms")
		s.send("k", "k") // the thread: its whole call tree
		s.send("F")
		s.waitFor(10*time.Second, "Call tree of glxgears 16073")
		s.waitFor(10*time.Second, "- main")
		s.waitFor(waitKey, "init")
		s.send("Escape") // back to the Gantt: its call-stack rows name the calls (issue 30 item 5)
		s.waitFor(waitKey, "? help * q quit")
		s.send(":")
		s.text("+2s +2.0002s")
		s.send("Enter")
		s.waitFor(waitKey, "draw_frame")
		var rows []string
		for _, l := range strings.Split(s.screen(), "\n") {
			if strings.Contains(l, "    depth ") {
				rows = append(rows, l)
			}
		}
		if len(rows) < 3 || !strings.Contains(rows[1], "event_loop") || !strings.Contains(rows[2], "draw_frame") || strings.Contains(s.screen(), "0x4") {
			t.Errorf("the call-stack rows do not name main, event_loop, draw_frame:\n%s", s.screen())
		}
		quit(s)
	})
}
