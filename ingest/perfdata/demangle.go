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
	d, err := demangle.ToString(name, demangle.NoParams)
	if err != nil {
		d = name // perf prints what it cannot demangle as it is
	}
	if e.names == nil {
		e.names = map[string]string{}
	}
	e.names[name] = d
	return d
}
