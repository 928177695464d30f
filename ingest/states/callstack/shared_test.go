package callstack

import (
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
)

// The mapping file shipped beside the shared cyg-profile trace resolves
// the addresses babeltrace2 prints for its first events.
func TestSharedMappingFile(t *testing.T) {
	dir := coretest.SharedTraces(t)
	s, err := ReadSymbolsFile(filepath.Join(dir, "ctf", "cyg-profile", "cyg-profile-mapping.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for addr, want := range map[uint64]string{0x40472B: "main", 0x403D60: "make_window", 0x404311: "query_vsync", 0x401B23: "gear"} {
		if got, _ := s.Name(addr); got != want {
			t.Errorf("Name(%#x) = %q, want %q", addr, got, want)
		}
	}
}
