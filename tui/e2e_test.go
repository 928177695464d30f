package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core/coretest"
)

// The end-to-end test: the built binary opens a real kernel trace in a
// detached tmux session of fixed size; keys are sent with send-keys and the
// screen read with capture-pane, polled until an expected string appears
// or a deadline passes (no sleeps as synchronisation).

// tmuxSession is a tmux server of the test's own (private socket), so the
// test never touches the user's sessions.
type tmuxSession struct {
	t      *testing.T
	tmux   string
	socket string
}

func (s *tmuxSession) cmd(args ...string) (string, error) {
	c := exec.Command(s.tmux, append([]string{"-L", s.socket}, args...)...)
	c.Env = append(coretest.TerminalEnv(), "TMUX=") // not nested in the caller's tmux
	out, err := c.CombinedOutput()
	return string(out), err
}

// start runs shellCmd in a detached w x h session.
// needTmux skips t in -short runs (it drives tracetui in tmux) and where
// tmux is missing, and returns tmux's path.
func needTmux(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("drives tracetui in tmux")
	}
	return coretest.NeedCommand(t, "tmux", "tmux")
}

// privateEnv is a user's environment of its own under dir, for the
// binary run in tmux: its cache (dir/cache) and config (dir/config), a
// 256-colour terminal, and extra.
func privateEnv(dir string, extra ...string) []string {
	return append([]string{"XDG_CACHE_HOME=" + filepath.Join(dir, "cache"), "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "TERM=xterm-256color"}, extra...)
}

func startTmux(t *testing.T, tmux string, w, h int, env []string, shellCmd string) *tmuxSession {
	t.Helper()
	s := &tmuxSession{t: t, tmux: tmux, socket: fmt.Sprintf("tracetui-e2e-%d-%d", os.Getpid(), time.Now().UnixNano())}
	args := []string{"-f", "/dev/null", "new-session", "-d", "-s", "e2e", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h)}
	for _, e := range env {
		args = append(args, "-e", e)
	}
	args = append(args, shellCmd)
	if out, err := s.cmd(args...); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() { s.cmd("kill-server") })
	return s
}

// screen returns the visible pane.
func (s *tmuxSession) screen() string {
	out, err := s.cmd("capture-pane", "-p", "-J", "-t", "e2e") // -J: wrapped lines joined
	if err != nil {
		s.t.Fatalf("tmux capture-pane: %v\n%s", err, out)
	}
	return out
}

// send types keys (tmux key names: "Enter", "Escape", "Tab", or text with -l).
func (s *tmuxSession) send(keys ...string) {
	s.t.Helper()
	if out, err := s.cmd(append([]string{"send-keys", "-t", "e2e"}, keys...)...); err != nil {
		s.t.Fatalf("tmux send-keys %v: %v\n%s", keys, err, out)
	}
}

// prompt opens a prompt with key, types txt, enters it and waits for want.
func (s *tmuxSession) prompt(key, txt, want string) {
	s.send(key)
	s.text(txt)
	s.send("Enter")
	s.waitFor(waitKey, want)
}

// text types literal text.
func (s *tmuxSession) text(txt string) { s.send("-l", txt) }

// waitFor polls the screen until one of wants appears and returns it; it
// fails after the deadline, showing the last screen.
func (s *tmuxSession) waitFor(deadline time.Duration, wants ...string) string {
	s.t.Helper()
	end := time.Now().Add(deadline)
	var last string
	for time.Now().Before(end) {
		last = s.screen()
		for _, w := range wants {
			if strings.Contains(last, w) {
				return w
			}
		}
		time.Sleep(20 * time.Millisecond) // poll interval, not synchronisation
	}
	s.t.Fatalf("none of %q on screen after %s; screen:\n%s", wants, deadline, last)
	return ""
}

// waitGone polls until text is no longer on screen.
func (s *tmuxSession) waitGone(deadline time.Duration, text string) {
	s.t.Helper()
	end := time.Now().Add(deadline)
	for time.Now().Before(end) {
		if !strings.Contains(s.screen(), text) {
			return
		}
		time.Sleep(20 * time.Millisecond) // poll interval, not synchronisation
	}
	s.t.Fatalf("%q still on screen after %s; screen:\n%s", text, deadline, s.screen())
}

// TestEndToEndInTmux browses the shared kernel trace bug446190 with the
// built binary at 100x30.
func TestEndToEndInTmux(t *testing.T) {
	tmux := needTmux(t)
	trace := filepath.Join(coretest.SharedTraces(t), "ctf", "bug446190")
	bin := coretest.Binary(t)
	tmp := t.TempDir()
	env := privateEnv(tmp)
	s := startTmux(t, tmux, 100, 30, env, fmt.Sprintf("%q %q; echo \"[exit $?]\"; sleep 600", bin, trace))

	const long = 60 * time.Second // a first open indexes the trace
	if s.waitFor(long, "Control Flow", "[exit") == "[exit" {
		t.Fatalf("tracetui exited:\n%s", s.screen())
	}
	s.waitFor(long, "events") // the table's header: the first frame is in

	s.send("2")
	s.waitFor(waitKey, "CPU 0")
	s.send("1")
	s.waitFor(waitKey, "Control Flow")

	s.prompt(":", "+10ms", "cur +10ms")

	s.send("w")
	s.waitFor(waitKey, "×2")

	// Each step waits for what only the key's effect shows, not for
	// text the typed prompt or the filter already put on screen: the
	// find's note, the filter's count, the cursor's new time (the table's
	// selected sched_switch, the first after the cursor, at +11.511 ms).
	// Mutation caught: a go-to-event that leaves the cursor where it was
	// fails here (tried by hand); waiting for "sched_switch" did not, the
	// filter had put it on screen.
	s.send("/")
	s.text("swapper")
	s.send("Enter")
	s.waitFor(waitKey, "/swapper/: match 1 of")

	s.send("f")
	s.text("sched_switch")
	s.send("Enter")
	s.waitFor(20*time.Second, "1052/31556 match")
	s.send("Enter") // go to the event: cursor moves
	s.waitFor(waitKey, "cur +11.511ms")

	s.send("P") // the critical path of the selected thread
	s.waitFor(20*time.Second, "segments on")
	s.send("Enter") // the segment in Control Flow, selected; B comes back
	s.waitFor(waitKey, "B or esc comes back to the critical path")
	s.waitGone(waitKey, "segments on")
	s.send("B")
	s.waitFor(waitKey, "segments on")
	s.send("Escape")
	s.waitGone(waitKey, "Critical path of")

	s.send("?")
	s.waitFor(waitKey, "Keys by focus")
	s.send("Escape")
	s.waitGone(waitKey, "Keys by focus")
	s.send("q")
	s.waitFor(waitKey, "[exit 0]")
}

// TestDemoInTmux starts the built binary with no argument (what `go run
// .` does): it generates the demo trace into the cache, indexes it and
// opens the browser on it, on the rows stored with the index.
func TestDemoInTmux(t *testing.T) {
	tmux := needTmux(t)
	bin := coretest.Binary(t)
	tmp := t.TempDir()
	env := privateEnv(tmp)
	s := startTmux(t, tmux, 80, 24, env, fmt.Sprintf("%q; echo \"[exit $?]\"; sleep 600", bin))
	if s.waitFor(60*time.Second, "Control Flow", "[exit") == "[exit" {
		t.Fatalf("tracetui exited:\n%s", s.screen())
	}
	s.waitFor(10*time.Second, "demo-v1") // the status line names the demo trace
	s.waitFor(10*time.Second, "burn 4001")
	// The rows stored with the index, read on demand: find the process
	// of 1000 threads, close it, go to the last row.
	// The glyphs are ASCII where the terminal is not UTF-8 (CI).
	s.prompt("/", "burn 4001$", "match 1 of 1")
	if s.waitFor(waitKey, "▾ burn 4001", "v burn 4001") == "v burn 4001" {
		t.Log("ASCII glyphs")
		s.send("Enter")
		s.waitFor(waitKey, "> burn 4001")
	} else {
		s.send("Enter")
		s.waitFor(waitKey, "▸ burn 4001")
	}
	s.send("G")
	s.waitFor(waitKey, "swapper/3 0_3 ·") // the details line: the last row selected
	s.send("q")
	s.waitFor(waitKey, "[exit 0]")
}

// TestRunInTmux drives Run itself (the test binary re-executed as the
// browser on the demo fixture) in a real terminal: alt screen, colours,
// keys through a tty, quit; and the indexing screen's cancel.
func TestRunInTmux(t *testing.T) {
	tmux := needTmux(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	env := []string{demoEnv + "=1", "XDG_CONFIG_HOME=" + tmp, "TERM=xterm-256color"}
	s := startTmux(t, tmux, 80, 24, env, fmt.Sprintf("%q -test.run='^$'; echo \"[exit $?]\"; sleep 600", self))
	s.waitFor(10*time.Second, "1518 events")
	s.send("w")
	s.waitFor(waitKey, "×2")
	s.send("2")
	s.waitFor(waitKey, "CPU 1")
	s.send(":")
	s.text("+1ms")
	s.send("Enter")
	s.waitFor(waitKey, "cur +1ms")
	s.send("c")
	s.waitFor(waitKey, "soft IRQ raised")
	s.send("Escape") // then wait: esc and q sent together read as alt+q
	s.waitGone(waitKey, "soft IRQ raised")
	s.send("?") // the help scrolls to its last note at 80x24, ? closes it
	s.waitFor(waitKey, "Keys by focus")
	s.send("G")
	s.waitFor(waitKey, "the time it took")
	s.send("?")
	s.waitGone(waitKey, "Keys by focus")
	s.send("q")
	s.waitFor(waitKey, "[exit 0]")

	// The indexing screen, then q cancels (exit status 1: cancelled).
	s.cmd("kill-server")
	env = append(env, demoEnv+"_INDEX=1", demoEnv+"_ASCII=1")
	s = startTmux(t, tmux, 80, 24, env, fmt.Sprintf("%q -test.run='^$'; echo \"[exit $?]\"; sleep 600", self))
	s.waitFor(10*time.Second, "50%")
	s.send("q")
	s.waitFor(waitKey, "[exit 1]")

	// A bad keys.json is an error at startup, not a panic.
	s.cmd("kill-server")
	if err := os.MkdirAll(filepath.Join(tmp, "tracetui"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "tracetui", "keys.json"), []byte(`{"zoom": ["i"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s = startTmux(t, tmux, 80, 24, env[:3], fmt.Sprintf("%q -test.run='^$'; echo \"[exit $?]\"; sleep 600", self))
	s.waitFor(10*time.Second, `unknown action "zoom"`)
	s.waitFor(waitKey, "[exit 1]")
}

// TestNoColorSelectionInTmux: with NO_COLOR=1 the browser writes no
// escape sequence of colour or attribute, and the selected row of the
// tree and of the table is still visible (the marker column).
func TestNoColorSelectionInTmux(t *testing.T) {
	tmux := needTmux(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := []string{demoEnv + "=1", "XDG_CONFIG_HOME=" + t.TempDir(), "TERM=xterm-256color", "NO_COLOR=1"}
	s := startTmux(t, tmux, 100, 30, env, fmt.Sprintf("%q -test.run='^$'; echo \"[exit $?]\"; sleep 600", self))
	s.waitFor(10*time.Second, "1518 events")
	s.waitFor(waitKey, "\n*  systemd 1") // the first row is selected
	s.send("j")
	s.waitFor(waitKey, "\n*  kworker/0:1 15")
	if scr := s.screen(); strings.Count(scr, "\n* ") != 1 {
		t.Fatalf("want one marked row in the tree; screen:\n%s", scr)
	}
	s.send("Tab") // focus the table: its selected event is marked, its column bracketed
	s.waitFor(waitKey, "[Event]")
	s.waitFor(waitKey, "\n*+0.000000000")
	out, err := s.cmd("capture-pane", "-p", "-e", "-t", "e2e") // -e: with escape sequences
	if err != nil {
		t.Fatalf("tmux capture-pane -e: %v\n%s", err, out)
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("NO_COLOR screen has escape sequences:\n%q", out)
	}
	s.send(")") // the Contents column scrolls: « at its left, '<' in plain text
	s.waitFor(waitKey, "systemd        <")
	s.send("y")                                                       // the selected event, copied
	s.waitFor(waitKey, "pastes): 1412670961.000000000 [0] systemd/1") // in tmux: through its buffer
	s.send("Tab", "2", "w", "w", "w", "w")                            // Resources, zoomed in: runs named
	s.waitFor(waitKey, "ls 1200")
	s.send("q")
	s.waitFor(waitKey, "[exit 0]")
}

// waitKey is how long a tmux step waits for its key's effect: a frame on
// a quiet machine, but a loaded CI machine may take seconds to schedule
// the browser. A step that passes returns as soon as the text shows.
const waitKey = 15 * time.Second
