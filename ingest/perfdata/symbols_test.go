package perfdata

import "testing"

// TestParseJITMap reads a JIT map's "START SIZE name" lines, skipping bad
// ones, and finds functions only within their size.
func TestParseJITMap(t *testing.T) {
	j := parseJITMap([]byte("7f0000001000 20 jit_b\nnot a line\n7f0000000000 100 LazyCompile:*foo bar.js:1\nffffffffffffffff 10 wraps\n"))
	for _, c := range []struct {
		addr uint64
		name string
		off  uint64
		ok   bool
	}{{0x7f0000000000, "LazyCompile:*foo bar.js:1", 0, true}, {0x7f00000000ff, "LazyCompile:*foo bar.js:1", 0xff, true},
		{0x7f0000000100, "", 0, false}, {0x7f000000101f, "jit_b", 0x1f, true}, {0x7f0000001020, "", 0, false}, {0x1000, "", 0, false}} {
		name, off, ok := j.lookup(c.addr)
		if name != c.name || off != c.off || ok != c.ok {
			t.Errorf("%x: %q+%x %v, want %q+%x %v", c.addr, name, off, ok, c.name, c.off, c.ok)
		}
	}
}
