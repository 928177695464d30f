package chrome

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// bigEventsGzip writes a gzip-compressed trace of n complete events, each
// with an argument string of argBytes bytes: the shape that made the
// first pass quadratic (issue 18: the gzip reader returns a few KB per
// Read, and each short read re-parsed the event from its start).
func bigEventsGzip(t testing.TB, n, argBytes int) string {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	arg := bytes.Repeat([]byte("abcdefgh"), argBytes/8)
	zw.Write([]byte("["))
	for i := range n {
		if i > 0 {
			zw.Write([]byte(",\n"))
		}
		fmt.Fprintf(zw, `{"name":"big","ph":"X","ts":%d,"dur":1,"pid":1,"tid":1,"args":{"blob":"%s"}}`, i*10, arg)
	}
	zw.Write([]byte("]\n"))
	zw.Close()
	p := filepath.Join(t.TempDir(), "big.json.gz")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// BenchmarkGzipBigEvents opens a gzip trace of 8 events of 8 MB each
// (about 130 KB compressed).
//
//	go test ./ingest/chrome -run '^$' -bench GzipBigEvents -benchtime 3x
func BenchmarkGzipBigEvents(b *testing.B) {
	path := bigEventsGzip(b, 8, 8<<20)
	dir := b.TempDir()
	b.SetBytes(8 * 8 << 20)
	b.ResetTimer()
	for range b.N {
		src, err := Open(path, Options{TempDir: dir})
		if err != nil {
			b.Fatal(err)
		}
		src.Close()
	}
}

// TestFillReadsUntilFull checks what keeps large events linear: fill
// returns with the buffer full (or the input ended), even when the input
// gives one byte per Read as a gzip reader gives a few KB.
func TestFillReadsUntilFull(t *testing.T) {
	data := bytes.Repeat([]byte("x"), 100_000)
	er := newEventReader(iotest.OneByteReader(bytes.NewReader(data)), 4096, maxEventBytes)
	for {
		ok, err := er.fill()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		if er.end != len(er.buf) && !er.eof {
			t.Fatalf("fill returned with %d of %d bytes buffered before the end of input", er.end, len(er.buf))
		}
		er.pos = er.end
	}
	if got := er.offset(); got != int64(len(data)) {
		t.Errorf("read %d bytes, want %d", got, len(data))
	}
}

// TestBigEventsGzip reads large events from a gzip stream: every event
// is kept, whole.
func TestBigEventsGzip(t *testing.T) {
	const n, size = 3, 3 << 20
	src, err := Open(bigEventsGzip(t, n, size), Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if src.Events() != n {
		t.Fatalf("%d events, want %d", src.Events(), n)
	}
	ev, err := src.Next()
	if err != nil {
		t.Fatal(err)
	}
	if got := len(src.AppendContents(nil, ev)); got < size {
		t.Errorf("first event's contents are %d bytes, want at least %d", got, size)
	}
}

// TestOpenCancelled cancels the first pass from its progress callback:
// Open stops and returns the context's error.
func TestOpenCancelled(t *testing.T) {
	path := bigEventsGzip(t, 4, 8<<20)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	_, err := Open(path, Options{TempDir: t.TempDir(), Context: ctx, Progress: func(done, total int64) {
		calls++
		cancel()
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Open after cancel = %v, want context.Canceled", err)
	}
	if calls != 1 {
		t.Errorf("progress called %d times, want 1 (the pass goes on after cancel)", calls)
	}
	if _, err := Open(path, Options{TempDir: t.TempDir(), Context: ctx}); !errors.Is(err, context.Canceled) {
		t.Errorf("Open with a cancelled context = %v", err)
	}
}

// TestNotATraceMessages: a directory, an empty file and a blank file
// named as Chrome traces (--format chrome) each say what they are.
func TestNotATraceMessages(t *testing.T) {
	dir := t.TempDir()
	empty, blank := filepath.Join(dir, "empty.json"), filepath.Join(dir, "blank.json")
	os.WriteFile(empty, nil, 0o644)
	os.WriteFile(blank, []byte(" \n\t\r\n"), 0o644)
	for path, want := range map[string]string{dir: "is a directory", empty: "empty file", blank: "only blank space"} {
		_, err := Open(path, Options{TempDir: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Open(%s) = %v, want an error saying %q", filepath.Base(path), err, want)
		}
	}
}
