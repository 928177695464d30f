package tracedat

import (
	"bytes"
	"os"
	"testing"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r       *bytes.Reader
	n, most int64 // bytes read, the most in one read
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n, c.most = c.n+int64(n), max(c.most, int64(n))
	return n, err
}

// TestOpenReadsMetadataOnly: parsing a file reads its metadata, not its
// CPU data (read a piece at a time as events are read): an uncompressed
// version 7 file, and a version 6 file whose metadata does not fit in the
// first bytes read (the prefix grows until it parses). Either gives the
// CPUs' data as reading the file whole does.
func TestOpenReadsMetadataOnly(t *testing.T) {
	for _, c := range []struct {
		path  string
		first int64
	}{{"testdata/tiny-v7.dat", v6Prefix}, {"testdata/instances-v6.dat", 1024}} {
		b, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		whole, err := parseFile(inMemory(b), true, nil)
		if err != nil {
			t.Fatal(err)
		}
		cr := &countingReader{r: bytes.NewReader(b)}
		f, err := parseFileFirst(&fileData{at: cr, size: int64(len(b))}, true, nil, c.first)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		read, most := cr.n, cr.most
		var data int64
		for bi := range f.buffers {
			for ci := range f.buffers[bi].cpus {
				d, w := &f.buffers[bi].cpus[ci], &whole.buffers[bi].cpus[ci]
				data += int64(d.length())
				if d.length() == 0 {
					continue
				}
				got, err := d.slice(f, 0, d.length())
				if err != nil {
					t.Fatal(err)
				}
				got = bytes.Clone(got)
				want, err := w.slice(whole, 0, w.length())
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%s: buffer %d CPU %d: its data differs from the file read whole (%v)", c.path, bi, ci, err)
				}
			}
		}
		if data == 0 {
			t.Fatalf("%s: no CPU data", c.path)
		}
		t.Logf("%s: %d bytes, %d of CPU data, %d read to parse, %d at most at once", c.path, len(b), data, read, most)
		if meta := int64(len(b)) - data; most >= int64(len(b)) || f.version == 7 && read > meta+headBytes {
			t.Errorf("%s: parsing read %d bytes, %d at once, for %d bytes of metadata", c.path, read, most, meta)
		}
	}
}

// TestLargeCPUData: a CPU's compressed data may pass a GiB in all (a 50
// M-event capture); only one chunk is bounded.
func TestLargeCPUData(t *testing.T) {
	l := &lazyData{cur: -1}
	for range 3 {
		if err := l.add(0, 16, 1<<29); err != nil {
			t.Fatalf("1.5 GiB of chunks of 512 MiB: %v", err)
		}
	}
	if err := l.add(0, 16, maxSectionBytes+1); err == nil {
		t.Error("a chunk of more than maxSectionBytes was accepted")
	}
}
