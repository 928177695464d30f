package callstack

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
)

// MappingFileNames are the nm listings looked for beside a trace (in its
// directory and the one above), as LTTng's cyg-profile examples ship them.
var MappingFileNames = []string{"cyg-profile-mapping.txt"}

// ResolverOptions says where a [Resolver] finds symbols.
type ResolverOptions struct {
	// SymbolsFile is an nm listing named by the user (--symbols): it wins
	// over every other source.
	SymbolsFile string
	// TracePath is the trace, beside which a mapping file is looked for.
	TracePath string
}

// Resolver names call-stack addresses, trying in order: the symbols file
// the user named (else a mapping file beside the trace), then the ELF symbol
// tables of the binaries the process had mapped (LTTng-UST statedump),
// where those binaries are present on this machine. An address none of
// them names stays hexadecimal. It is read-only once loaded and safe for
// concurrent use.
type Resolver struct {
	tables []*Symbols          // the explicit listing, else the one beside the trace
	procs  map[string][]mapped // by Processes/<pid> name, sorted by base
}

// mapped is one binary of a process.
type mapped struct {
	base, size uint64
	load       uint64   // the file's virtual address at base
	syms       *Symbols // nil: binary absent or without symbols
}

// LoadResolver builds a resolver from the options and from the binaries
// recorded in the index h (see binaries.go). Problems that leave the
// other sources usable (a binary absent from this machine) are returned
// as warnings; only an unreadable --symbols file or a failed query is an
// error.
func LoadResolver(ctx context.Context, h core.History, opts ResolverOptions) (*Resolver, []string, error) {
	r := &Resolver{procs: map[string][]mapped{}}
	var warnings []string
	if opts.SymbolsFile != "" {
		s, err := ReadSymbolsFile(opts.SymbolsFile)
		if err != nil {
			return nil, nil, fmt.Errorf("loading --symbols: %w", err)
		}
		r.tables = append(r.tables, s)
	}
	if opts.SymbolsFile == "" && opts.TracePath != "" {
		if path := findMappingFile(opts.TracePath); path != "" {
			s, err := ReadSymbolsFile(path)
			if err != nil {
				warnings = append(warnings, err.Error())
			} else {
				r.tables = append(r.tables, s)
			}
		}
	}
	if h == nil {
		return r, warnings, nil
	}
	w, err := r.loadBinaries(ctx, h)
	return r, append(warnings, w...), err
}

// findMappingFile returns the first mapping file in the trace's directory
// (or the trace file's own directory) or its parent, or "".
func findMappingFile(trace string) string {
	dir := trace
	if st, err := os.Stat(trace); err == nil && !st.IsDir() {
		dir = filepath.Dir(trace)
	}
	for _, d := range []string{dir, filepath.Dir(dir)} {
		for _, name := range MappingFileNames {
			p := filepath.Join(d, name)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return p
			}
		}
	}
	return ""
}

// binaryRecord is what the index says of one mapped binary.
type binaryRecord struct {
	pid, path, link string
	base, size      uint64
}

// loadBinaries reads Processes/*/Binaries/* (any time they were mapped)
// and loads each binary's symbols once.
func (r *Resolver) loadBinaries(ctx context.Context, h core.History) ([]string, error) {
	tree := h.Attributes()
	records := map[core.Key]*binaryRecord{}
	field := map[core.Key]*binaryRecord{} // Size and Debug_link keys
	var keys []core.Key
	for _, k := range tree.Glob(core.AttrProcesses + "/*/" + attrBinaries + "/*") {
		base, err := strconv.ParseUint(strings.TrimPrefix(tree.Name(k), "0x"), 16, 64)
		if err != nil {
			continue
		}
		rec := &binaryRecord{pid: tree.Name(tree.Parent(tree.Parent(k))), base: base}
		records[k] = rec
		keys = append(keys, k)
		tree.EachChild(k, func(c core.Key) { field[c] = rec; keys = append(keys, c) })
	}
	if len(keys) == 0 {
		return nil, nil
	}
	start, end := h.Bounds()
	_, err := h.Query2D(ctx, keys, start, end, func(iv core.Interval) bool {
		if iv.Value.IsNull() {
			return true
		}
		if rec, ok := records[iv.Key]; ok {
			rec.path = iv.Value.Str()
		} else if rec, ok := field[iv.Key]; ok {
			switch tree.Name(iv.Key) {
			case attrSize:
				rec.size = uint64(iv.Value.Int())
			case attrDebugLink:
				rec.link = iv.Value.Str()
			}
		}
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("reading the binaries mapped by the traced processes: %w", err)
	}
	var warnings []string
	loaded := map[string]*mapped{} // by path and debug link: a library mapped by many processes is read once
	for _, k := range keys {
		rec, ok := records[k]
		if !ok || rec.path == "" || strings.HasPrefix(rec.path, "[") { // [vdso]
			continue
		}
		id := rec.path + "\x00" + rec.link
		m, seen := loaded[id]
		if !seen {
			m = &mapped{}
			syms, load, err := elfSymbols(rec.path, rec.link)
			if err != nil {
				warnings = append(warnings, err.Error())
			} else {
				m.syms, m.load = syms, load
			}
			loaded[id] = m
		}
		if m.syms != nil {
			r.procs[rec.pid] = append(r.procs[rec.pid], mapped{base: rec.base, size: rec.size, load: m.load, syms: m.syms})
		}
	}
	for _, list := range r.procs {
		sort.Slice(list, func(i, j int) bool { return list[i].base < list[j].base })
	}
	return warnings, nil
}

// Name names addr in process pid (the Processes/<pid> name; "" for none):
// "name" or "name+0x1c", or ok false when no source knows it.
func (r *Resolver) Name(pid string, addr uint64) (string, bool) {
	for _, s := range r.tables {
		if name, ok := s.Name(addr); ok {
			return name, true
		}
	}
	list := r.procs[pid]
	i := sort.Search(len(list), func(i int) bool { return list[i].base > addr }) - 1
	if i < 0 || (list[i].size > 0 && addr-list[i].base >= list[i].size) {
		return "", false
	}
	return list[i].syms.Name(addr - list[i].base + list[i].load)
}

// Label formats a call-stack frame for display: a name as it is, an
// address as its symbol, else with [core.FormatAddress].
func (r *Resolver) Label(pid string, v core.Value) string {
	if v.Kind() != core.KindInt64 {
		return core.FrameText(v)
	}
	if r != nil {
		if name, ok := r.Name(pid, uint64(v.Int())); ok {
			return name
		}
	}
	return core.FrameText(v)
}
