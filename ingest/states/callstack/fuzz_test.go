package callstack

import (
	"bytes"
	"testing"
)

// FuzzReadSymbols: an nm listing (from the user or found beside a trace)
// never panics, and the table it gives answers any address.
// Corpus: testdata/fuzz/FuzzReadSymbols.
func FuzzReadSymbols(f *testing.F) {
	f.Add([]byte("000000000040472b T main\n0000000000401aac t current_time\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ReadSymbols(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, addr := range []uint64{0, 0x401000, 0x40472b, 1 << 63, ^uint64(0)} {
			if name, ok := s.Name(addr); ok && s.Len() == 0 {
				t.Fatalf("Name(%#x) = %q from an empty table", addr, name)
			}
		}
	})
}
