package kernel

import (
	"testing"

	"github.com/tracetui/tracetui/core"
)

// TestThreadTableAcrossPages: records added past two full pages keep their
// index and contents, and full pages no longer move.
func TestThreadTableAcrossPages(t *testing.T) {
	var tt threadTable
	const n = 2*threadPageLen + 10
	first := (*thread)(nil)
	for i := range int32(n) {
		if got := tt.add(thread{key: core.Key(i), sys: -i}); got != i {
			t.Fatalf("add #%d returned index %d", i, got)
		}
		if i == threadPageLen-1 {
			first = tt.at(0)
		}
	}
	if tt.at(0) != first {
		t.Fatal("record 0 moved after its page was full")
	}
	for i := range int32(n) {
		if th := tt.at(i); th.key != core.Key(i) || th.sys != -i {
			t.Fatalf("record %d holds key %d, sys %d", i, th.key, th.sys)
		}
	}
}
