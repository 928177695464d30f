package callstack

import (
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// debugDir is where distributions install separate debug files
// (/usr/lib/debug/<dir of the binary>/<debug link>).
const debugDir = "/usr/lib/debug"

// elfSymbols loads the function symbols of a mapped binary, from its
// separate debug file when one is installed (found through the debug link
// as gdb does: beside the binary, in its .debug directory, under
// /usr/lib/debug), else from the binary's own symbol table, else from its
// dynamic symbols. The addresses returned are the file's virtual
// addresses; load is the virtual address of its first loadable segment,
// which the statedump's base address corresponds to.
func elfSymbols(path, debugLink string) (syms *Symbols, load uint64, err error) {
	return loadELF(path, debugLink, false)
}

// loadELF is elfSymbols; perf also keeps each symbol's size (its end) and
// the labels (untyped symbols of a section: _start), as perf does.
func loadELF(path, debugLink string, perf bool) (syms *Symbols, load uint64, err error) {
	var candidates []string
	if debugLink != "" && filepath.Base(debugLink) == debugLink {
		dir := filepath.Dir(path)
		candidates = append(candidates,
			filepath.Join(dir, debugLink),
			filepath.Join(dir, ".debug", debugLink),
			filepath.Join(debugDir, dir, debugLink))
	}
	candidates = append(candidates, path)
	err = fmt.Errorf("binary %s: %w", path, os.ErrNotExist)
	for _, c := range candidates {
		s, l, e := readELF(c, perf)
		switch {
		case e == nil && s.Len() > 0:
			return s, l, nil
		case e == nil:
			err = fmt.Errorf("binary %s has no function symbols (stripped): install its debug file or pass --symbols", c)
		case !errors.Is(e, os.ErrNotExist):
			err = e
		}
	}
	return nil, 0, err
}

// readELFSymbols reads one ELF file's function symbols.
func readELFSymbols(path string) (*Symbols, uint64, error) { return readELF(path, false) }

// readELF reads one ELF file's function symbols (perf: with their sizes,
// the labels and the PLT entries).
func readELF(path string, perf bool) (*Symbols, uint64, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("reading symbols of %s: %w", path, err)
	}
	defer f.Close()
	var load uint64
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD {
			load = p.Vaddr
			break
		}
	}
	list, err := f.Symbols()
	if len(list) == 0 {
		list, err = f.DynamicSymbols()
	}
	if err != nil && !errors.Is(err, elf.ErrNoSymbols) {
		return nil, 0, fmt.Errorf("reading symbols of %s: %w", path, err)
	}
	s := &Symbols{}
	// One name per address: of aliases (write, __write, __libc_write...),
	// the one perf shows.
	best := map[uint64]int{}
	for k, sym := range list {
		t := elf.ST_TYPE(sym.Info)
		label := perf && t == elf.STT_NOTYPE && sym.Name != "" && sym.Section != elf.SHN_ABS && sym.Section < elf.SHN_LORESERVE
		if (t == elf.STT_FUNC || t == elf.STT_GNU_IFUNC || label) && sym.Value != 0 && sym.Section != elf.SHN_UNDEF {
			if i, ok := best[sym.Value]; !ok || betterAlias(sym, list[i]) {
				best[sym.Value] = k
			}
		}
	}
	all := make([]symbol, 0, len(best))
	for addr, k := range best {
		all = append(all, symbol{addr: addr, name: list[k].Name, size: list[k].Size})
	}
	if perf {
		for _, p := range pltSymbols(f, load) {
			if _, ok := best[p.addr]; !ok {
				all = append(all, p)
			}
		}
	}
	s.set(all)
	if perf {
		s.setEnds(all)
	}
	return s, load, nil
}

// betterAlias reports whether a should name an address rather than b, as
// perf chooses between aliases: a sized symbol, then not weak, then
// global, then fewer leading underscores, then the longer name.
func betterAlias(a, b elf.Symbol) bool {
	if (a.Size > 0) != (b.Size > 0) {
		return a.Size > 0
	}
	aw, bw := elf.ST_BIND(a.Info) == elf.STB_WEAK, elf.ST_BIND(b.Info) == elf.STB_WEAK
	if aw != bw {
		return !aw
	}
	ag, bg := elf.ST_BIND(a.Info) == elf.STB_GLOBAL, elf.ST_BIND(b.Info) == elf.STB_GLOBAL
	if ag != bg {
		return ag
	}
	au, bu := len(a.Name)-len(strings.TrimLeft(a.Name, "_")), len(b.Name)-len(strings.TrimLeft(b.Name, "_"))
	if au != bu {
		return au < bu
	}
	if len(a.Name) != len(b.Name) {
		return len(a.Name) > len(b.Name)
	}
	return false // perf keeps the first
}

// symbol is one named code address (its size, 0 when unknown).
type symbol struct {
	addr uint64
	name string
	size uint64
}

// set fills s from symbols in any order.
func (s *Symbols) set(all []symbol) {
	sort.SliceStable(all, func(i, j int) bool { return all[i].addr < all[j].addr })
	s.addrs, s.names = s.addrs[:0], s.names[:0]
	for _, x := range all {
		s.addrs = append(s.addrs, x.addr)
		s.names = append(s.names, x.name)
	}
}

// ELFSymbols loads the symbols of the ELF file at path as perf does, for
// the readers whose traces name their binaries (perf.data's mmaps): as
// elfSymbols (from its separate debug file through debugLink when
// installed, else its symbol table, else its dynamic symbols), with the
// labels (untyped symbols: _start) and each symbol's size, so that
// [Symbols.LookupSized] finds no symbol past a symbol's end. The addresses
// are the file's virtual addresses; load is the virtual address of its
// first loadable segment.
func ELFSymbols(path, debugLink string) (syms *Symbols, load uint64, err error) {
	return loadELF(path, debugLink, true)
}

// setEnds records the symbols' ends, after set: a sized symbol ends at its
// size, an unsized one where the next begins (perf's fixup).
func (s *Symbols) setEnds(all []symbol) {
	size := make(map[uint64]uint64, len(all))
	for _, x := range all {
		size[x.addr] = x.size
	}
	s.ends = make([]uint64, len(s.addrs))
	for i, a := range s.addrs {
		if n := size[a]; n > 0 {
			s.ends[i] = a + n
		} else if i+1 < len(s.addrs) {
			s.ends[i] = s.addrs[i+1]
		}
	}
}

// LookupSized is Lookup, except that an address past its symbol's end
// (for symbols whose ends are known: [ELFSymbols]) has no symbol, as perf
// has it.
func (s *Symbols) LookupSized(addr uint64) (name string, offset uint64, ok bool) {
	i := sort.Search(len(s.addrs), func(i int) bool { return s.addrs[i] > addr }) - 1
	if i < 0 {
		return "", 0, false
	}
	if s.ends != nil && s.ends[i] != 0 && addr >= s.ends[i] {
		return "", 0, false
	}
	return s.Lookup(addr)
}
