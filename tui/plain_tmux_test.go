package tui

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestPlainTextInTmux: with --ascii every screen (main, help,
// statistics and their analysis tables, critical path, call tree,
// overviews, legend, Resources) is 7-bit only, the trace's own names
// included; with NO_COLOR the browser's own marks are ASCII too (only the
// demo's Japanese thread name is not). Issue 30 item 9. Mutation
// caught: dropping Styles.Plain from Model.View fails on the main screen
// (the Japanese name) and the help ('·'), tried by hand.
func TestPlainTextInTmux(t *testing.T) {
	tmux := needTmux(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		env  string
		data string // non-ASCII text of the trace allowed on screen
	}{{"ascii", demoEnv + "_ASCII=1", ""}, {"no_color", "NO_COLOR=1", "日本語の名前"}} {
		t.Run(c.name, func(t *testing.T) {
			env := []string{demoEnv + "=1", "XDG_CONFIG_HOME=" + t.TempDir(), "TERM=xterm-256color", c.env}
			s := startTmux(t, tmux, 100, 30, env, fmt.Sprintf("%q -test.run='^$'; echo \"[exit $?]\"; sleep 600", self))
			check := func(what string) {
				t.Helper()
				scr := s.screen()
				if c.data != "" {
					scr = strings.ReplaceAll(scr, c.data, "")
				}
				for i, r := range scr {
					if r >= 0x80 {
						t.Errorf("%s: %q at byte %d is not 7-bit; screen:\n%s", what, r, i, scr)
						return
					}
				}
			}
			s.waitFor(10*time.Second, "1518 events")
			s.waitFor(waitKey, "lttng_statedump") // the table is in
			check("main screen")
			s.send("c")
			s.waitFor(waitKey, "(zoom in)")
			check("legend")
			s.send("Escape")
			s.waitGone(waitKey, "(zoom in)")
			s.send("?")
			s.waitFor(waitKey, "Keys by focus")
			check("help")
			s.send("G")
			s.waitFor(waitKey, "gain and loss of")
			check("help, end")
			s.send("Escape")
			s.waitGone(waitKey, "Keys by focus")
			s.send("S")
			s.waitFor(waitKey, "System call ")
			check("statistics")
			for i := 2; i <= 10; i++ {
				s.send("Tab")
				s.waitFor(waitKey, fmt.Sprintf("[table %d of 10", i))
				check(fmt.Sprintf("statistics table %d", i))
			}
			s.send("Escape")
			s.waitGone(waitKey, "Statistics of")
			s.send("j", "j", "j", "P")
			s.waitFor(10*time.Second, "segments on")
			check("critical path")
			s.send("Tab")
			s.waitFor(waitKey, "[Threads")
			check("critical path, threads")
			s.send("Escape")
			s.waitGone(waitKey, "Critical path of")
			s.send("F")
			s.waitFor(10*time.Second, "Call tree of")
			check("call tree")
			s.send("Escape")
			s.waitGone(waitKey, "Call tree of")
			s.send("o")
			s.waitFor(10*time.Second, "Temporal overview")
			check("temporal overview")
			s.send("Escape")
			s.waitGone(waitKey, "Temporal overview")
			s.send("O")
			s.waitFor(10*time.Second, "Spatiotemporal overview")
			check("spatiotemporal overview")
			s.send("Escape")
			s.waitGone(waitKey, "Spatiotemporal overview")
			s.send("2")
			s.waitFor(waitKey, "CPU 1")
			check("Resources")
			s.send("q")
			s.waitFor(waitKey, "[exit 0]")
		})
	}
}
