package callstack

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzELFSymbols: a binary a trace names (perf.data's mappings) never
// panics the loader, whatever its bytes, and the symbols it gives answer
// any address. Seed: testdata/plt.elf, a stripped gcc build of a C
// program calling rand (dynamic symbols and a PLT only).
func FuzzELFSymbols(f *testing.F) {
	if b, err := os.ReadFile("testdata/plt.elf"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "bin")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		s, _, err := ELFSymbols(path, "")
		if err != nil {
			return
		}
		for _, addr := range []uint64{0, 0x1000, 0x1030, 1 << 63, ^uint64(0)} {
			s.LookupSized(addr)
		}
	})
}

// TestPLTSymbols: the seed's PLT entries are named after its relocations.
func TestPLTSymbols(t *testing.T) {
	s, _, err := ELFSymbols("testdata/plt.elf", "")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, name := range s.names {
		found = found || name == "rand@plt"
	}
	if !found {
		t.Errorf("no rand@plt among %v", s.names)
	}
}
