package perfdata

import (
	"strings"

	"github.com/ianlancetaylor/demangle"
)

// demangled returns the name perf prints for an ELF symbol: a C++
// (Itanium ABI, "_Z...") name demangled as perf does by default
// (libiberty's cplus_demangle without DMGL_PARAMS: no parameter list,
// template arguments kept), any other name as it is. Names are
// demangled once per file's symbol (the cache is the ELF's).
func (e *elfSyms) demangled(name string) string {
	if !strings.HasPrefix(name, "_Z") {
		return name
	}
	if d, ok := e.names[name]; ok {
		return d
	}
	stem, plt := strings.CutSuffix(name, "@plt") // a PLT entry's: perf demangles its symbol's name
	d, err := demangle.ToString(stem, demangle.NoParams)
	if err != nil {
		d = stem // perf prints what it cannot demangle as it is
	}
	if plt {
		d += "@plt"
	}
	if e.names == nil {
		e.names = map[string]string{}
	}
	e.names[name] = d
	return d
}
