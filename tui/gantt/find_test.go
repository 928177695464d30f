package gantt

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/ingest/index/pstree"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/ui"
)

// startFind opens the find prompt, types re and confirms it, and returns
// the find's command without running it.
func startFind(hs *harness, re string) tea.Cmd {
	hs.press("find")
	hs.typeText(re)
	_, cmd := hs.m.Update(ui.PromptDoneMsg{Kind: ui.PromptFind, Text: re}) // what enter sends
	return cmd
}

// TestFindAnswersAtOnce: the find key returns before the rows are read,
// saying what it searches; the match arrives later.
func TestFindAnswersAtOnce(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	before := hs.selectedLabel()
	cmd := startFind(hs, "Web")
	if got := hs.selectedLabel(); got != before {
		t.Fatalf("the selection moved to %q before the find's answer", got)
	}
	if v := hs.view(); !strings.Contains(v, "/Web/: searching") {
		t.Errorf("the status line does not say a find runs:\n%s", v)
	}
	hs.Run(cmd)
	if got := hs.selectedLabel(); got != "Web Content 2001" {
		t.Errorf("selected %q after the find's answer", got)
	}
}

// TestFindStaleDropped: a find replaced by a newer one, or answered after
// the user switched views, changes nothing.
func TestFindStaleDropped(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	old := startFind(hs, "Web")
	newer := startFind(hs, "^postgres")
	hs.Run(old)
	if got := hs.selectedLabel(); strings.HasPrefix(got, "Web") {
		t.Errorf("a replaced find selected %q", got)
	}
	hs.Run(newer)
	if got := hs.selectedLabel(); !strings.HasPrefix(got, "postgres") {
		t.Errorf("the current find selected %q", got)
	}

	sel := hs.selectedLabel()
	late := startFind(hs, "Web")
	hs.press("resources")
	hs.Run(late)
	hs.press("control_flow")
	if got := hs.selectedLabel(); got != sel {
		t.Errorf("a find answered while Resources was shown moved the Control Flow selection from %q to %q", sel, got)
	}
}

// TestFindCancelled: a find whose context is done stops with its error.
func TestFindCancelled(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rows := hs.b().tree().Rows
	if _, _, _, err := findRow(ctx, rows, newRowMatcher(regexp.MustCompile(".")), 0, false); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled find returned %v", err)
	}
}

// TestRowMatcherShortcuts: the literal and tid shortcuts are taken only
// where they cannot change the answer.
func TestRowMatcherShortcuts(t *testing.T) {
	for _, c := range []struct {
		re      string
		literal bool
		tidToo  bool
	}{
		{"bash", true, false},
		{"h 1", true, false},
		{"^1", false, true},
		{`\bbash`, false, true},
		{`x\B`, false, true},
		{"(?m)^a", false, true},
		{"ba.h", false, false},
		{"1$", false, false},
		{"(?i)bash", false, false},
	} {
		m := newRowMatcher(regexp.MustCompile(c.re))
		if m.complete != c.literal || m.tidToo != c.tidToo {
			t.Errorf("%q: literal %v (%q), tid tried alone %v; want literal %v, tid %v", c.re, m.complete, m.prefix, m.tidToo, c.literal, c.tidToo)
		}
	}
}

// BenchmarkFindRow measures a find over a million rows held in memory
// (the rows of an index are read the same way, through the page cache):
// literals found in one row and in 1% of them, a regex found in one row,
// and the same regex tried on every row's label and tid as every find did
// before the shortcuts ("every-row").
//
//	go test ./tui/gantt -run '^$' -bench FindRow -benchtime 10x
func BenchmarkFindRow(b *testing.B) {
	const n = 1 << 20
	rows := make([]pstree.Row, n)
	for i := range rows {
		id := strconv.Itoa(100000 + i)
		rows[i] = pstree.Row{Label: "worker-" + strconv.Itoa(i%97) + " " + id, TIDLen: len(id), Key: -1, Thread: -1, Parent: -1}
		if i%64 != 0 {
			rows[i].Parent = int32(i - i%64)
		}
	}
	rs := frame.InMemoryRows(pstree.EncodeRows(rows, 0))
	for _, c := range []struct {
		name string
		m    rowMatcher
	}{
		{"literal-one-row", newRowMatcher(regexp.MustCompile("worker-57 1000023"))},
		{"literal-1%-of-rows", newRowMatcher(regexp.MustCompile("worker-96 1"))},
		{"regexp-one-row", newRowMatcher(regexp.MustCompile("worker-57 100002[3]"))},
		{"regexp-one-row-every-row", rowMatcher{re: regexp.MustCompile("worker-57 100002[3]"), tidToo: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				if _, _, total, err := findRow(context.Background(), rs, c.m, 0, false); err != nil || total == 0 {
					b.Fatal(total, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/row")
		})
	}
}
