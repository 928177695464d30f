package tracedat

import (
	"bytes"
	"sort"
	"strconv"
)

// symbols is the kernel's symbol table from the kallsyms section, sorted
// by address, for %ps/%pS and the hrtimer plugin's function names.
type symbols struct {
	addrs []uint64
	names []string
}

// symbols parses kallsyms on first use (dumps need it, indexing does not).
func (s *Source) symbols() *symbols {
	if s.syms == nil {
		s.syms = parseKallsyms(s.f.kallsyms)
	}
	return s.syms
}

// parseKallsyms reads /proc/kallsyms lines: "address type name [module]".
func parseKallsyms(b []byte) *symbols {
	type sym struct {
		addr uint64
		name string
	}
	var list []sym
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		// "ffffffff81000000 T _stext [module]"
		a, rest, ok1 := bytes.Cut(line, []byte(" "))
		_, rest, ok2 := bytes.Cut(rest, []byte(" "))
		name, _, _ := bytes.Cut(rest, []byte("\t"))
		name, _, _ = bytes.Cut(name, []byte(" "))
		addr, err := strconv.ParseUint(string(a), 16, 64)
		if !ok1 || !ok2 || len(name) == 0 || err != nil || addr == 0 {
			continue
		}
		list = append(list, sym{addr, string(name)})
	}
	if !sort.SliceIsSorted(list, func(i, j int) bool { return list[i].addr < list[j].addr }) {
		sort.SliceStable(list, func(i, j int) bool { return list[i].addr < list[j].addr })
	}
	s := &symbols{addrs: make([]uint64, len(list)), names: make([]string, len(list))}
	for i, x := range list {
		s.addrs[i], s.names[i] = x.addr, x.name
	}
	return s
}

// lookup returns the symbol at or before addr.
func (s *symbols) lookup(addr uint64) (name string, start uint64, ok bool) {
	i := sort.Search(len(s.addrs), func(i int) bool { return s.addrs[i] > addr })
	if i == 0 {
		return "", 0, false
	}
	return s.names[i-1], s.addrs[i-1], true
}
