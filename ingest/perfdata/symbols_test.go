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

// TestFindMapPidReuse: a process's mappings are those made since the FORK
// that made it (its pid reused from an exited process: perf drops the old
// one's maps), else its parent's at the fork; an exec keeps them.
func TestFindMapPidReuse(t *testing.T) {
	var as addrSpace
	at := func(off int64) pos { return pos{off: off, inner: -1} }
	as.addMap(10, mapping{t: 0, at: at(1), start: 0x1000, end: 0x2000, name: "/old/prog"})
	as.addMap(20, mapping{t: 0, at: at(2), start: 0x5000, end: 0x6000, name: "/parent/lib"})
	p := as.proc(10)
	p.forks = append(p.forks, forkAt{t: 100, at: at(3), parent: 20}) // pid 10 reused
	as.addMap(10, mapping{t: 200, at: at(4), start: 0x8000, end: 0x9000, name: "/new/prog"})
	as.sort()
	for _, c := range []struct {
		addr, t uint64
		want    string
	}{
		{0x1800, 50, "/old/prog"},    // before the reuse
		{0x1800, 150, ""},            // the old process's map is gone
		{0x5800, 150, "/parent/lib"}, // inherited from the parent at the fork
		{0x8800, 150, ""},            // not mapped yet
		{0x8800, 250, "/new/prog"},
		{0x5800, 250, "/parent/lib"},
	} {
		m := as.find(10, c.addr, c.t, at(10))
		got := ""
		if m != nil {
			got = m.name
		}
		if got != c.want {
			t.Errorf("%x at %d: %q, want %q", c.addr, c.t, got, c.want)
		}
	}
}
