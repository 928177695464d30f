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
		s, l, e := readELFSymbols(c)
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
func readELFSymbols(path string) (*Symbols, uint64, error) {
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
		if (t == elf.STT_FUNC || t == elf.STT_GNU_IFUNC) && sym.Value != 0 && sym.Section != elf.SHN_UNDEF {
			if i, ok := best[sym.Value]; !ok || betterAlias(sym, list[i]) {
				best[sym.Value] = k
			}
		}
	}
	all := make([]symbol, 0, len(best))
	for addr, k := range best {
		all = append(all, symbol{addr, list[k].Name})
	}
	s.set(all)
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

// symbol is one named code address.
type symbol struct {
	addr uint64
	name string
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

// ELFSymbols loads the function symbols of the ELF file at path as
// elfSymbols does (from its separate debug file through debugLink when
// installed, else its symbol table, else its dynamic symbols), for the
// readers whose traces name their binaries (perf.data's mmaps). The
// addresses are the file's virtual addresses; load is the virtual address
// of its first loadable segment.
func ELFSymbols(path, debugLink string) (syms *Symbols, load uint64, err error) {
	return elfSymbols(path, debugLink)
}
