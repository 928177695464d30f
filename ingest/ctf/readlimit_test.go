package ctf

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
)

// TestReadLimited checks readLimited against the file's bytes cut at
// limit+1, for random sizes around the limit and the buffer's growth.
func TestReadLimited(t *testing.T) {
	rng := coretest.Rand(t)
	dir := t.TempDir()
	for i := range 200 {
		size := rng.IntN(3000)
		limit := int64(rng.IntN(3000))
		data := make([]byte, size)
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := readLimited(f, limit)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		want := data[:min(int64(size), limit+1)]
		if !bytes.Equal(got, want) {
			t.Fatalf("case %d: size %d, limit %d: read %d bytes, want %d", i, size, limit, len(got), len(want))
		}
	}
}
