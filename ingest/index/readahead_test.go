package index

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/gen"
	"github.com/tracetui/tracetui/ingest/index/eventindex"
)

// randomGenTrace writes a small generated kernel trace of random shape
// (threads, CPUs, packet size: batches end anywhere in packets and
// streams) and returns its directory.
func randomGenTrace(t *testing.T, seed uint64, threads, cpus int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "gen")
	cfg := gen.Config{Threads: threads, CPUs: cpus, Seed: seed, PacketSize: 4096 << (seed % 3)}
	if _, err := gen.Write(dir, cfg); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestReadAheadSameEventsAndIndex (property): decoding ahead on a
// goroutine of its own gives the analyses the same events (times,
// classes, fields, strings) as reading on the build's goroutine, and the
// build the same index bytes, on random generated traces.
func TestReadAheadSameEventsAndIndex(t *testing.T) {
	r := coretest.Rand(t)
	dir := randomGenTrace(t, r.Uint64(), 1+r.IntN(40), 1+r.IntN(4))

	open := func() core.Source {
		src, err := ctf.Open(dir)
		must(t, err)
		return src
	}
	sameEventsAhead(t, "gen", 1+r.IntN(100), open)
	sameIndexAhead(t, dir, open)
}

// sameIndexAhead fails unless the sources open gives, built read in
// place and read ahead, give the same index bytes.
func sameIndexAhead(t *testing.T, trace string, open func() core.Source) {
	t.Helper()
	var files []string
	for _, inline := range []bool{true, false} {
		src := open()
		path := filepath.Join(t.TempDir(), "index")
		err := build(context.Background(), buildRequest{src: src, path: path, trace: trace, readInline: inline, readAhead: !inline})
		src.Close()
		must(t, err)
		files = append(files, path)
	}
	sameIndex(t, files[0], files[1])
}

func fmtProgress(done, total int64) string { return fmt.Sprint(done, "/", total) }

// sameEventsAhead fails unless two sources open gives, one read in place
// and one read ahead, give the same events, facts, progress and event
// index (a checkpoint every every events).
func sameEventsAhead(t *testing.T, name string, every int, open func() core.Source) {
	t.Helper()
	reader := func() (core.Source, *eventindex.Writer) {
		src := open()
		t.Cleanup(func() { src.Close() })
		ew, err := eventindex.NewWriter(t.TempDir(), "x", every)
		must(t, err)
		t.Cleanup(func() { ew.Close() })
		return src, ew
	}
	src1, ew1 := reader()
	src2, ew2 := reader()
	direct, ahead := &directReader{ew: ew1, src: src1}, startReadAhead(ew2, src2)
	defer ahead.stop()
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
		if n == 0 {
			i1, c1 := direct.first()
			i2, c2 := ahead.first()
			if !reflect.DeepEqual(i1, i2) || !reflect.DeepEqual(c1, c2) {
				t.Fatalf("%s: first facts differ: %+v %d classes vs %+v %d", name, i2, len(c2), i1, len(c1))
			}
		}
	}
	if p1, p2 := fmtProgress(direct.progress()), fmtProgress(ahead.progress()); p1 != p2 {
		t.Errorf("%s: progress at the end: %s read ahead, %s in place", name, p2, p1)
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

// sameIndex fails unless the index files a and b have the same bytes,
// but for the build time in the info section (and the checksums that
// cover it): the node blocks and every section before it.
func sameIndex(t *testing.T, a, b string) {
	t.Helper()
	var data [][]byte
	var infos []storedInfo
	for _, p := range []string{a, b} {
		tr, err := history.Open(p, history.OpenOptions{})
		must(t, err)
		sec, err := tr.Section(sectionInfo)
		must(t, err)
		_, off, n := sec.Outer()
		raw, err := os.ReadFile(p)
		must(t, err)
		var st storedInfo
		must(t, json.Unmarshal(raw[off:off+n], &st))
		st.BuildMS = 0
		infos = append(infos, st)
		data = append(data, raw[tr.Info().BlockSize:off])
		tr.Close()
	}
	if !bytes.Equal(data[0], data[1]) {
		t.Fatalf("the indexes differ before the info section (%d and %d bytes)", len(data[0]), len(data[1]))
	}
	if !reflect.DeepEqual(infos[0], infos[1]) {
		t.Fatalf("the info sections differ: %+v and %+v", infos[0], infos[1])
	}
}

// TestReadAheadStops: a build cancelled while the trace is decoded ahead
// returns within 100 ms, leaves no goroutine behind, and stopping the
// stage in the middle of the trace returns at once.
func TestReadAheadStops(t *testing.T) {
	r := coretest.Rand(t)
	dir := randomGenTrace(t, r.Uint64(), 2000, 2) // progress is reported every 16 k events
	before := runtime.NumGoroutine()

	src, err := ctf.Open(dir)
	must(t, err)
	defer src.Close()
	ew, err := eventindex.NewWriter(t.TempDir(), "x", 0)
	must(t, err)
	defer ew.Close()
	ra := startReadAhead(ew, src)
	for range 1 + r.IntN(3*readBatchLen) {
		if _, err := ra.next(); err != nil {
			t.Fatal(err)
		}
	}
	began := time.Now()
	ra.stop()
	ra.stop() // a second stop (the build's deferred one) does nothing
	if d := time.Since(began); d > 100*time.Millisecond {
		t.Errorf("stop took %v", d)
	}

	ctx, cancel := context.WithCancel(context.Background())
	var cancelled time.Time
	progress := func(done, total int64) {
		if done > 0 && cancelled.IsZero() {
			cancelled = time.Now()
			cancel()
		}
	}
	src2, err := ctf.Open(dir)
	must(t, err)
	err = build(ctx, buildRequest{src: src2, path: filepath.Join(t.TempDir(), "index"), trace: dir, progress: progress})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled build returned %v", err)
	}
	// Within 100 ms on a quiet machine (the tree side drops its queue);
	// the bound leaves room for a loaded one and the race detector.
	d := time.Since(cancelled)
	if d > time.Second {
		t.Errorf("the build returned %v after it was cancelled", d)
	}
	t.Logf("the build returned %v after it was cancelled", d)
	src2.Close()
	// A stage's goroutine closes its done channel as its last act and is
	// counted until it has returned: poll (a condition, not a delay) for
	// up to a second before calling it a leak.
	for end := time.Now().Add(time.Second); runtime.NumGoroutine() > before && time.Now().Before(end); {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after the builds, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}
