package history

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
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

// TestSummaryChunksCheckedOnRead: the summary section is not checked
// whole when the tree opens, but each 64 KiB chunk of its entries when a
// query first reads it. A byte flipped in one chunk fails the queries of
// the keys whose entries touch it, with ErrCorrupt, and Check; the other
// keys still get their summaries, unchanged.
func TestSummaryChunksCheckedOnRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	path := filepath.Join(t.TempDir(), "index")
	b, err := Create(path, 0, Options{Summarise: func(*core.AttributeTree, core.Key) bool { return true }})
	if err != nil {
		t.Fatal(err)
	}
	const keys = 300
	for k := range keys {
		b.Attributes().AddPath("k", string(rune('a'+k%26)), strings.Repeat("x", k/26+1))
	}
	end := core.Time(0)
	for range 300_000 {
		end += core.Time(1 + rng.IntN(100))
		if err := b.Modify(core.Key(rng.IntN(keys)), end, core.Int32(int32(rng.IntN(6)))); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Close(end); err != nil {
		t.Fatal(err)
	}
	all := make([]core.Key, keys)
	for k := range all {
		all[k] = core.Key(k)
	}
	type answer struct {
		runs []core.SummaryRun
		err  error
	}
	ask := func(tr *Tree) []answer {
		out := make([]answer, keys)
		for k := range all {
			_, _, out[k].err = tr.Summary(context.Background(), all[k:k+1], 0, end, end/200, func(_ core.Key, r core.SummaryRun) bool {
				out[k].runs = append(out[k].runs, r)
				return true
			})
		}
		return out
	}
	tr := openChecked(t, path, OpenOptions{})
	want := ask(tr)
	x, err := tr.summaryIndex()
	if err != nil || x == nil {
		t.Fatalf("summary index: %v", err)
	}
	if len(x.crcs) < 3*4 {
		t.Fatalf("%d bytes of entries: want three chunks or more", len(x.entries))
	}
	var off uint64
	for _, s := range tr.secs {
		if s.name == SectionSummary {
			off = s.off
		}
	}
	tr.Close()
	flip := int64(off) + 1<<summaryChunkShift + 1000 // in chunk 1
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	var one [1]byte
	f.ReadAt(one[:], flip)
	one[0] ^= 0x5a
	f.WriteAt(one[:], flip)
	f.Close()

	tr, err = Open(path, OpenOptions{})
	if err != nil {
		t.Fatalf("Open after a flipped summary byte: %v", err)
	}
	defer tr.Close()
	got := ask(tr)
	failed := 0
	for k := range keys {
		if w := want[k]; w.err != nil || len(w.runs) == 0 {
			t.Fatalf("key %d: %v, %d runs before the flip", k, w.err, len(w.runs))
		}
		switch g := got[k]; {
		case g.err != nil && !errors.Is(g.err, ErrCorrupt):
			t.Fatalf("key %d: %v, want ErrCorrupt", k, g.err)
		case g.err != nil:
			failed++
		case !slices.Equal(g.runs, want[k].runs):
			t.Fatalf("key %d: other runs after a flip elsewhere", k)
		}
	}
	if failed == 0 || failed == keys {
		t.Fatalf("%d of %d keys failed: want those in chunk 1 only", failed, keys)
	}
	if err := tr.Check(); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Check = %v, want ErrCorrupt", err)
	}
}

// TestSummaryNegativeStart: a history that starts before time 0 has no
// summaries (buckets are aligned from 0), and checks.
func TestSummaryNegativeStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index")
	b, err := Create(path, -1000, Options{Summarise: func(*core.AttributeTree, core.Key) bool { return true }})
	if err != nil {
		t.Fatal(err)
	}
	k := b.Attributes().AddPath("Threads", "1")
	for i := range 100 {
		if err := b.Modify(k, core.Time(-900+20*i), core.Int32(int32(i%3))); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Close(1200); err != nil {
		t.Fatal(err)
	}
	tr := openChecked(t, path, OpenOptions{})
	served, _, err := tr.Summary(context.Background(), []core.Key{k}, -1000, 1200, 8, func(core.Key, core.SummaryRun) bool { return true })
	if err != nil || len(served) != 0 {
		t.Fatalf("Summary = %v, %v: want nothing served", served, err)
	}
}
