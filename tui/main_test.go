package tui

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// demoEnv makes the test binary run the browser on the demo fixture
// instead of the tests, so the tmux test can drive Run in a real terminal
// before main.go wires the browser.
const demoEnv = "TRACETUI_TEST_RUN_DEMO"

func TestMain(m *testing.M) {
	if os.Getenv(demoEnv) == "1" {
		tr := frametest.NewDemoTrace()
		opener := openerOf(tr)
		if os.Getenv(demoEnv+"_INDEX") == "1" { // show the indexing screen first
			opener = slowOpener(tr)
		}
		if err := Run(context.Background(), opener, Options{ASCII: os.Getenv(demoEnv+"_ASCII") == "1"}); err != nil {
			fmt.Fprintln(os.Stderr, "tracetui:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(coretest.Main(m))
}

// slowOpener reports progress until the test presses a key... it reports
// half, then waits to be cancelled.
func slowOpener(tr frame.Trace) Opener {
	return Opener{Name: "demo", Open: func(ctx context.Context, progress func(int64, int64)) (frame.Trace, error) {
		progress(50, 100)
		<-ctx.Done()
		return nil, ctx.Err()
	}}
}
