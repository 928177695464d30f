package tracedat

import "github.com/tracetui/tracetui/ingest/ftracefmt"

// symbols parses kallsyms on first use (dumps need it, indexing does not),
// reading its section first in a file parsed lazily (a damaged one then
// gives no symbol: the full reader refuses the file).
func (s *Source) symbols() *ftracefmt.Symbols {
	if s.syms == nil {
		_ = s.f.loadSections(OptKallsyms)
		s.syms = ftracefmt.ParseKallsyms(s.f.kallsyms)
	}
	return s.syms
}

// lookupSymbol returns the symbol at or before addr: from the index state
// when it knows, else from kallsyms.
func (s *Source) lookupSymbol(addr uint64) (name string, start uint64, ok bool) {
	if s.state != nil {
		if name, start, ok, found := s.state.lookup(addr); found {
			return name, start, ok
		}
	}
	return s.symbols().Lookup(addr)
}
