package ftracefmt

import (
	"sort"
	"strings"
	"unsafe"
)

// Symbols is a kernel symbol table from kallsyms text, sorted by address,
// for %ps/%pS and the plugins' function names.
type Symbols struct {
	addrs []uint64
	names []string
}

// ParseKallsyms reads /proc/kallsyms lines: "address type name [module]".
// The names are substrings of b itself, which the caller keeps and
// nothing writes after it is read: no allocation per symbol, and no
// copy of the section (it is parsed when the event table shows its first
// page: 80 ms of it on a 1.3 M-event capture with a string per name, 60
// ms with one copy of its megabytes, most of that the first touch of fresh
// memory).
func ParseKallsyms(b []byte) *Symbols {
	text := unsafe.String(unsafe.SliceData(b), len(b))
	n := strings.Count(text, "\n") + 1
	s := &Symbols{addrs: make([]uint64, 0, n), names: make([]string, 0, n)}
	sorted := true
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		// "ffffffff81000000 T _stext [module]"
		a, rest, ok1 := strings.Cut(line, " ")
		_, rest, ok2 := strings.Cut(rest, " ")
		name, _, _ := strings.Cut(rest, "\t")
		name, _, _ = strings.Cut(name, " ")
		addr, ok3 := parseHex(a)
		if !ok1 || !ok2 || len(name) == 0 || !ok3 || addr == 0 {
			continue
		}
		if k := len(s.addrs); k > 0 && addr < s.addrs[k-1] {
			sorted = false
		}
		s.addrs, s.names = append(s.addrs, addr), append(s.names, name)
	}
	if !sorted {
		order := make([]int, len(s.addrs))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(i, j int) bool { return s.addrs[order[i]] < s.addrs[order[j]] })
		addrs, names := make([]uint64, len(order)), make([]string, len(order))
		for i, k := range order {
			addrs[i], names[i] = s.addrs[k], s.names[k]
		}
		s.addrs, s.names = addrs, names
	}
	return s
}

// parseHex parses a hexadecimal number of at most 64 bits (leading zeros
// allowed, no prefix or sign), as strconv.ParseUint(a, 16, 64) does.
func parseHex(a string) (uint64, bool) {
	if a == "" {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(a); i++ {
		c := a[i]
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		if v>>60 != 0 {
			return 0, false // a 17th significant digit
		}
		v = v<<4 | uint64(d)
	}
	return v, true
}

// Lookup returns the symbol at or before addr and its address; it is a
// [Symbolizer].
func (s *Symbols) Lookup(addr uint64) (name string, start uint64, ok bool) {
	i := sort.Search(len(s.addrs), func(i int) bool { return s.addrs[i] > addr })
	if i == 0 {
		return "", 0, false
	}
	return s.names[i-1], s.addrs[i-1], true
}

// First returns the lowest symbol address, false when there is none.
func (s *Symbols) First() (uint64, bool) {
	if len(s.addrs) == 0 {
		return 0, false
	}
	return s.addrs[0], true
}

// Len returns the number of symbols.
func (s *Symbols) Len() int { return len(s.addrs) }

// Address returns the address of the named symbol (the first one of that
// name), false when there is none.
func (s *Symbols) Address(name string) (uint64, bool) {
	for i, n := range s.names {
		if n == name {
			return s.addrs[i], true
		}
	}
	return 0, false
}
