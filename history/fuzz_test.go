package history

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core"
)

// FuzzDecodeNode feeds arbitrary bytes to the node decoder, past the
// checksum (which random bytes would never match): it must return an
// error or a node whose every record lies in the node's bounds, and never
// panic or allocate from an unchecked length.
func FuzzDecodeNode(f *testing.F) {
	if data, err := os.ReadFile(filepath.Join("testdata", "tiny.rsht")); err == nil {
		for off := 2048; off+2048 <= len(data); off += 2048 {
			f.Add(data[off : off+2048])
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < nodeHeaderSize || len(b) > 1<<16 {
			return
		}
		h, err := parseNodeHeader(b, 64)
		if err != nil {
			return
		}
		n, err := decodeNodeBody(b, h)
		if err != nil {
			return
		}
		if len(n.keys) != h.count || len(n.children) != h.childCount {
			t.Fatalf("decoded %d records and %d children, header says %d and %d", len(n.keys), len(n.children), h.count, h.childCount)
		}
		for i := range n.keys {
			iv := n.interval(i)
			if iv.Start > iv.End || iv.Start < h.start || iv.End > h.end || iv.Key < h.minKey || iv.Key > h.maxKey {
				t.Fatalf("record %d = %v outside the node", i, iv)
			}
			_ = iv.Value.String()
		}
		// The walks' ways: decoded again into a node that holds arrays
		// already (a scratch node), its strings then copied out of the
		// block (a cached node) and the block overwritten.
		want := make([]string, len(n.keys))
		for i := range n.keys {
			want[i] = fmt.Sprint(n.interval(i))
		}
		var m node
		for range 2 {
			if err := m.decode(b, h); err != nil {
				t.Fatalf("decoded once, not twice: %v", err)
			}
		}
		m.borrowed = true
		m.own()
		clear(b)
		for i := range m.keys {
			if got := fmt.Sprint(m.interval(i)); got != want[i] {
				t.Fatalf("record %d decoded again = %s, first %s", i, got, want[i])
			}
		}
	})
}

// FuzzOpen opens arbitrary files: Open, Check and queries must return
// errors, never panic or hang.
func FuzzOpen(f *testing.F) {
	if data, err := os.ReadFile(filepath.Join("testdata", "tiny.rsht")); err == nil {
		f.Add(data)
		f.Add(data[:fileHeaderSize])
		f.Add(data[:len(data)/2])
	}
	f.Add([]byte("not an index"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		// Each input is tried as it is, and with its checksums made valid,
		// so that the fuzzer also reaches the structural checks behind them.
		for _, data := range [][]byte{b, fixChecksums(b)} {
			path := filepath.Join(dir, "index")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			tr, err := Open(path, OpenOptions{})
			if err != nil {
				continue
			}
			_ = tr.Check()
			keys := []core.Key{0, 1, 2, 3, 4}
			start, end := tr.Bounds()
			tr.Query2D(bg, keys, start, end, func(core.Interval) bool { return true })
			tr.Query2DTimes(bg, keys, []core.Time{start, end}, func(core.Interval) bool { return true })
			tr.Full(bg, start, func(core.Interval) bool { return true })
			tr.Single(bg, 1, end)
			tr.Summary(bg, keys, start, end, 1, func(core.Key, core.SummaryRun) bool { return true })
			walkAttributes(tr.Attributes())
			tr.Close()
		}
	})
}

// fixChecksums returns a copy of b with every checksum it can locate
// recomputed: header, node blocks, attribute tree, section table.
func fixChecksums(b []byte) []byte {
	b = slices.Clone(b)
	if len(b) < fileHeaderSize {
		return b
	}
	bs := int(le.Uint32(b[16:]))
	if bs >= MinBlockSize && bs <= MaxBlockSize {
		for off := bs; off+bs <= len(b); off += bs {
			sealBlock(b[off : off+bs])
		}
	}
	fix := func(offAt, lenAt, crcAt int) {
		off, n := le.Uint64(b[offAt:]), le.Uint64(b[lenAt:])
		if off <= uint64(len(b)) && n <= uint64(len(b))-off {
			le.PutUint32(b[crcAt:], core.CRC32C(b[off:off+n]))
		}
	}
	fixAttributePages(b)
	fix(64, 72, 80)
	fix(88, 96, 104)
	if len(b) >= fileHeaderSize {
		off, n := le.Uint64(b[116:]), 2*uint64(le.Uint32(b[56:]))
		if off <= uint64(len(b)) && n <= uint64(len(b))-off {
			le.PutUint32(b[124:], core.CRC32C(b[off:off+n]))
		}
	}
	le.PutUint32(b[headerCRCOff:], core.CRC32C(b[:headerCRCOff]))
	return b
}

// fixAttributePages recomputes the page checksums of the attribute tree
// section, when its head can be located.
func fixAttributePages(b []byte) {
	off, n := le.Uint64(b[64:]), le.Uint64(b[72:])
	if off > uint64(len(b)) || n > uint64(len(b))-off || n < attrHeadSize {
		return
	}
	sec := b[off : off+n]
	pages := uint64(le.Uint32(sec[16:]))
	body := attrHeadSize + 4*pages
	if body > n {
		return
	}
	for p := range pages {
		lo := body + p*attrPageSize
		if lo > n {
			break
		}
		le.PutUint32(sec[attrHeadSize+4*p:], core.CRC32C(sec[lo:min(lo+attrPageSize, n)]))
	}
}

// walkAttributes uses every method of a (possibly damaged) stored tree.
func walkAttributes(at *core.AttributeTree) {
	at.Glob("*")
	at.Glob("*/*")
	for k := range core.Key(min(at.Len(), 64)) {
		p := at.Path(k)
		at.Lookup(p)
		at.Children(k)
		at.Child(at.Parent(k), at.Name(k))
	}
	if at.Len() > 0 { // a stored tree (a failed load gives an empty one in memory)
		at.Parent(-5)
		at.Name(core.Key(at.Len()))
		at.Children(core.Key(at.Len() + 3))
	}
}
