package callstack

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

// Symbols maps code addresses to function names, from an `nm`-style
// listing ("0000000000401aac t current_time"), such as the
// cyg-profile-mapping.txt LTTng's cyg-profile examples ship beside their
// traces. It is read-only once loaded and safe for concurrent use.
type Symbols struct {
	addrs []uint64 // sorted
	names []string
	ends  []uint64 // each symbol's end, 0 when unknown; nil: none known
}

// maxSymbolLine bounds one line of a symbol file (C++ names get long).
const maxSymbolLine = 64 << 10

// ReadSymbols parses nm output: one "ADDRESS TYPE NAME" per line.
// Only code symbols (types t, T, w, W, i) are kept; undefined symbols
// (no address) and lines that are not symbols are skipped.
func ReadSymbols(r io.Reader) (*Symbols, error) {
	var syms []symbol
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxSymbolLine)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 3 || len(f[1]) != 1 || !strings.ContainsAny(f[1], "tTwWi") {
			continue
		}
		addr, err := strconv.ParseUint(f[0], 16, 64)
		if err != nil {
			continue
		}
		syms = append(syms, symbol{addr: addr, name: strings.Join(f[2:], " ")})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading symbols: %w", err)
	}
	s := &Symbols{}
	s.set(syms)
	return s, nil
}

// ReadSymbolsFile reads a symbol listing from a file.
func ReadSymbolsFile(path string) (*Symbols, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("symbols: %w", err)
	}
	defer f.Close()
	s, err := ReadSymbols(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Len returns the number of code symbols.
func (s *Symbols) Len() int { return len(s.addrs) }

// maxLastSymbolSize bounds the size assumed for the last symbol of a
// listing (nm output has no sizes): past it an address belongs to another
// binary (a shared library far above the program), not to that symbol.
const maxLastSymbolSize = 1 << 20

// Lookup returns the symbol containing addr: the one with the greatest
// address not above it, and addr's offset from it.
func (s *Symbols) Lookup(addr uint64) (name string, offset uint64, ok bool) {
	i := sort.Search(len(s.addrs), func(i int) bool { return s.addrs[i] > addr }) - 1
	if i < 0 || (i == len(s.addrs)-1 && addr-s.addrs[i] >= maxLastSymbolSize) {
		return "", 0, false
	}
	return s.names[i], addr - s.addrs[i], true
}

// Name formats addr for display: "name" at a symbol's start,
// "name+0x1c" inside it; ok is false when no symbol precedes addr.
func (s *Symbols) Name(addr uint64) (string, bool) {
	name, off, ok := s.Lookup(addr)
	if !ok {
		return "", false
	}
	if off == 0 {
		return name, true
	}
	return fmt.Sprintf("%s+0x%x", name, off), true
}
