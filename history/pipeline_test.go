package history

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// TestPipelineSameBytes: the build on two goroutines writes the same file
// as the build on one, for every layout, with keys created while intervals
// flow (the vR height follows the key count) and string values (batches
// carry their bytes); and the same bytes again when built twice.
func TestPipelineSameBytes(t *testing.T) {
	r := coretest.Rand(t)
	s := randomScenario(r, (pipelineDepth+2)*batchLen+r.IntN(batchLen), 3000) // more batches than the queue holds
	for _, l := range []Layout{LayoutRSHT, LayoutESHT} {
		opts := Options{Layout: l, BlockSize: 2048, MaxChildren: 8}
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
