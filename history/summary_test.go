package history

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
)

// TestSummaryCancelledClose: a build whose context is done fails in Close
// (in the summary pass) and leaves nothing at its path.
func TestSummaryCancelledClose(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := summaryScenario(rand.New(rand.NewPCG(3, 3)))
	path := filepath.Join(t.TempDir(), "index")
	b, err := Create(path, s.start, Options{Summarise: core.SummaryRule, Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range s.ops {
		if op.path != nil {
			b.Attributes().AddPath(op.path...)
		} else if err := b.Modify(op.key, op.t, op.v); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Close(s.end); !errors.Is(err, context.Canceled) {
		t.Fatalf("Close = %v, want context.Canceled", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("index left after a cancelled build: %v", err)
	}
}

// TestSummaryRule names the rows drawn from states and nothing else.
func TestSummaryRule(t *testing.T) {
	tr := core.NewAttributeTree()
	for path, want := range map[string]bool{
		"Threads/42": true, "CPUs/3": true, "CPUs/3/IRQs/17": true, "CPUs/3/Soft_IRQs/1": true,
		"Threads": false, "Threads/42/Exec_name": false, "Threads/42/CallStack/1": false,
		"CPUs/3/Current_thread": false, "Counters/1/mem/rss": false, "IRQ_names/17": false, "Misc/IRQs/1": false,
	} {
		k := tr.AddPath(strings.Split(path, "/")...)
		if got := core.SummaryRule(tr, k); got != want {
			t.Errorf("SummaryRule(%s) = %v, want %v", path, got, want)
		}
	}
}
