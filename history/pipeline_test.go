package history

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// TestPipelineSameBytes (property): the build on two goroutines writes the
// same file as the build on one, for every layout, with keys created while
// intervals flow (the vR height follows the key count) and string values
// (batches carry their bytes); and the same bytes again when built twice.
// The queue is small and random, and the scenario has more batches than
// it holds.
func TestPipelineSameBytes(t *testing.T) {
	r := coretest.Rand(t)
	depth := 1 + r.IntN(6)
	s := randomScenario(r, (depth+2)*batchLen+r.IntN(batchLen), 1+r.IntN(3000))
	for _, l := range []Layout{LayoutRSHT, LayoutESHT} {
		opts := Options{Layout: l, BlockSize: 2048, MaxChildren: 8, queueDepth: depth}
		seq := opts
		seq.sequential = true
		var files [][]byte
		for _, o := range []Options{seq, opts, opts} {
			data, err := os.ReadFile(buildScenario(t, s, o))
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, data)
		}
		if !bytes.Equal(files[0], files[1]) || !bytes.Equal(files[1], files[2]) {
			t.Fatalf("%s: the pipelined builds (%d, %d bytes) differ from the sequential one (%d bytes)", l, len(files[1]), len(files[2]), len(files[0]))
		}
		openChecked(t, buildScenario(t, s, opts), OpenOptions{})
	}
}

// TestPipelineError: a write error on the tree side stops the build: a
// later Modify returns it, and so does Close, without hanging.
func TestPipelineError(t *testing.T) {
	b, err := Create(filepath.Join(t.TempDir(), "index"), 0, Options{BlockSize: 2048, MaxChildren: 4})
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]core.Key, 100)
	for i := range keys {
		keys[i] = b.Attributes().AddPath("k", strconv.Itoa(i))
	}
	b.f.Close() // every node write now fails
	var merr error
	for i := 0; merr == nil && i < 100*batchLen*pipelineDepth; i++ {
		merr = b.Modify(keys[i%len(keys)], core.Time(i), core.Int32(int32(i%3)))
	}
	if merr == nil {
		t.Fatal("Modify went on after the tree side failed")
	}
	if err := b.Close(core.Time(100 * batchLen * pipelineDepth)); err == nil {
		t.Fatal("Close succeeded after a write error")
	}
}

// TestPipelineAbortDropsQueue: once Abort has told the tree side to drop
// what is queued, it places none of it: Abort returns after at most one
// insertion (one R-tree load), not after the whole queue, and removes the
// temporary file.
func TestPipelineAbortDropsQueue(t *testing.T) {
	dir := t.TempDir()
	b, err := Create(filepath.Join(dir, "index"), 0, Options{BlockSize: 2048, MaxChildren: 4, queueDepth: 4})
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]core.Key, 100)
	for i := range keys {
		keys[i] = b.Attributes().AddPath("k", strconv.Itoa(i))
	}
	for i := range batchLen {
		if err := b.Modify(keys[i%len(keys)], core.Time(i), core.Int32(int32(i%3))); err != nil {
			t.Fatal(err)
		}
	}
	// At most batchLen intervals were sent so far. Abort sets dropping
	// first too; setting it here tests that the queue behind is dropped.
	b.pipe.dropping.Store(true)
	for i := batchLen; i < 4*batchLen; i++ {
		if err := b.Modify(keys[i%len(keys)], core.Time(i), core.Int32(int32(i%3))); err != nil {
			t.Fatal(err)
		}
	}
	b.Abort()
	if b.tb.intervals > batchLen+1 {
		t.Errorf("the tree side placed %d intervals, more than the %d sent before it was told to drop them", b.tb.intervals, batchLen)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("Abort left %d files", len(left))
	}
	if err := b.Modify(keys[0], core.Time(5*batchLen), core.Int32(7)); !errors.Is(err, core.ErrClosed) {
		t.Errorf("Modify after Abort: %v, want ErrClosed", err)
	}
}
