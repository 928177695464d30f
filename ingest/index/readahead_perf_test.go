package index

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/index/eventindex"
	"github.com/tracetui/tracetui/ingest/perfdata"
)

// TestReadAheadPerfData: a perf.data without call stacks, decoded ahead
// on a goroutine of its own, gives the analyses the same events as read
// on the build's goroutine, and the build the same index bytes; one with
// stacks (the profile's) is read on the build's goroutine even when asked
// to read ahead, and gives the same index either way.
func TestReadAheadPerfData(t *testing.T) {
	rng := coretest.Rand(t)
	for _, name := range []string{"zstd.data", "threads.data", "pipe.data", "lost.data"} {
		trace := filepath.Join(coretest.ModuleRoot(), "ingest", "perfdata", "testdata", name)
		probe, err := perfdata.Open(trace, perfdata.Options{})
		must(t, err)
		stacks := hasStacks(probe)
		probe.Close()
		if !stacks {
			every := 1 + rng.IntN(100)
			open := func() (*perfdata.Source, *eventindex.Writer) {
				src, err := perfdata.Open(trace, perfdata.Options{})
				must(t, err)
				t.Cleanup(func() { src.Close() })
				ew, err := eventindex.NewWriter(t.TempDir(), "x", every)
				must(t, err)
				t.Cleanup(func() { ew.Close() })
				return src, ew
			}
			src1, ew1 := open()
			src2, ew2 := open()
			direct, ahead := &directReader{ew: ew1, src: src1}, startReadAhead(ew2, src2)
			n := 0
			for ; ; n++ {
				e1, err1 := direct.next()
				e2, err2 := ahead.next()
				if !errors.Is(err1, err2) {
					t.Fatalf("%s, event %d: errors %v and %v", name, n, err1, err2)
				}
				if err1 != nil {
					break
				}
				if !reflect.DeepEqual(e1, e2) {
					t.Fatalf("%s, event %d: read ahead %+v, in place %+v", name, n, *e2, *e1)
				}
			}
			ahead.stop()
			s1, r1, err := ew1.Finish()
			must(t, err)
			s2, r2, err := ew2.Finish()
			must(t, err)
			b1, _ := io.ReadAll(io.LimitReader(r1, s1))
			b2, _ := io.ReadAll(io.LimitReader(r2, s2))
			if !bytes.Equal(b1, b2) || n == 0 {
				t.Fatalf("%s: the event indexes differ (%d and %d bytes, %d events)", name, len(b2), len(b1), n)
			}
		}
		var files []string
		for _, inline := range []bool{true, false} {
			src, err := perfdata.Open(trace, perfdata.Options{})
			must(t, err)
			path := filepath.Join(t.TempDir(), "index")
			err = build(context.Background(), buildRequest{src: src, path: path, trace: trace, readInline: inline, readAhead: !inline})
			src.Close()
			must(t, err)
			files = append(files, path)
		}
		sameIndex(t, files[0], files[1])
		t.Logf("%s: stacks %v, same index read ahead", name, stacks)
	}
}
