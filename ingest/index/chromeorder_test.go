package index

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/history"
)

// readEvents reads every event of a source of ix, returning their times
// and class names.
func readEvents(ix *Index) ([]string, error) {
	src, err := ix.OpenSource()
	if err != nil {
		return nil, err
	}
	defer src.Close()
	var out []string
	for {
		ev, err := src.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, ev.Class.Name)
	}
}

// TestChromeOrderPersisted: a plain Chrome trace's index holds its event
// order, the browser's sources read it (a damaged order section, which
// the sorting source would never read, gives ErrDamaged and the command
// that rebuilds the index).
func TestChromeOrderPersisted(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx := context.Background()
	trace := filepath.Join(t.TempDir(), "t.json")
	must(t, os.WriteFile(trace, []byte(`[{"name":"late","ph":"X","ts":9,"dur":2,"pid":1,"tid":1},
{"name":"early","ph":"X","ts":1,"dur":2,"pid":1,"tid":2},{"name":"mid","ph":"i","ts":5,"pid":1,"tid":2}]`), 0o644))
	opts := Options{IndexPath: filepath.Join(t.TempDir(), "x.tti")}
	ix, err := Open(ctx, trace, opts)
	must(t, err)
	sec, err := ix.Tree().Section(sectionChromeOrder)
	if err != nil {
		t.Fatalf("no persisted order in a Chrome index: %v", err)
	}
	_, secOff, _ := sec.Outer()
	got, err := readEvents(ix)
	must(t, err)
	if strings.Join(got, " ") != "early mid late" {
		t.Fatalf("events %q, want early mid late", got)
	}
	ix.Close()

	// Damage the order's first page (its last bytes: the page CRC).
	f, err := os.OpenFile(opts.IndexPath, os.O_RDWR, 0)
	must(t, err)
	b := make([]byte, 1)
	off := secOff + sec.Size() - 1
	_, err = f.ReadAt(b, off)
	must(t, err)
	b[0] ^= 0xff
	_, err = f.WriteAt(b, off)
	must(t, err)
	f.Close()
	ix, err = Open(ctx, trace, opts)
	must(t, err)
	_, err = readEvents(ix)
	ix.Close()
	if !errors.Is(err, ErrDamaged) || !errors.Is(err, history.ErrCorrupt) {
		t.Fatalf("damaged order: %v, want ErrDamaged", err)
	}
	if !strings.Contains(err.Error(), "tracetui index --index") {
		t.Errorf("%q does not say how to rebuild", err)
	}
}

// TestChromeOrderNotForGzip: a gzip trace's index has no order section
// (no random access); its sources sort as before.
func TestChromeOrderNotForGzip(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	trace := filepath.Join(t.TempDir(), "t.json.gz")
	must(t, os.WriteFile(trace, gzipped(t, `[{"name":"b","ph":"i","ts":5,"pid":1,"tid":1},{"name":"a","ph":"i","ts":1,"pid":1,"tid":1}]`), 0o644))
	ix, err := Open(context.Background(), trace, Options{})
	must(t, err)
	defer ix.Close()
	if _, err := ix.Tree().Section(sectionChromeOrder); !errors.Is(err, history.ErrNoSection) {
		t.Fatalf("gzip trace: order section %v", err)
	}
	got, err := readEvents(ix)
	must(t, err)
	if strings.Join(got, " ") != "a b" {
		t.Fatalf("events %q", got)
	}
}

func gzipped(t *testing.T, text string) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := zw.Write([]byte(text))
	must(t, err)
	must(t, zw.Close())
	return buf.Bytes()
}
