package perfdata

import (
	"bufio"
	"bytes"
	"os"
	"sort"
	"strconv"
	"strings"
)

// JIT-compiled code lives in anonymous mappings; runtimes that support
// perf write its symbols to /tmp/perf-<pid>.map, one "START SIZE name"
// line per function (hexadecimal), and perf names such a mapping's code
// from that file, addresses as they are.

// isAnon reports whether a mapping's file name is anonymous memory, whose
// code perf looks up in the process's JIT map (perf's is_anon_memory).
func isAnon(name string) bool {
	return name == "//anon" || strings.HasPrefix(name, "/dev/zero") || strings.HasPrefix(name, "/anon_hugepage")
}

// jitMapPath is the JIT map perf reads for process pid.
func jitMapPath(pid int32) string {
	return "/tmp/perf-" + strconv.Itoa(int(pid)) + ".map"
}

// jitSyms is a JIT map's functions, sorted by address.
type jitSyms struct {
	starts, ends []uint64
	names        []string
}

// maxJITMap bounds the JIT map read (it is a file on this machine named by
// the trace).
const maxJITMap = 256 << 20

// parseJITMap reads "START SIZE name" lines; others are skipped.
func parseJITMap(b []byte) *jitSyms {
	type fn struct {
		start, end uint64
		name       string
	}
	var fns []fn
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		a, rest, ok1 := strings.Cut(line, " ")
		sz, name, ok2 := strings.Cut(rest, " ")
		start, err1 := strconv.ParseUint(strings.TrimPrefix(a, "0x"), 16, 64)
		size, err2 := strconv.ParseUint(strings.TrimPrefix(sz, "0x"), 16, 64)
		if !ok1 || !ok2 || err1 != nil || err2 != nil || name == "" || start+size < start {
			continue
		}
		fns = append(fns, fn{start, start + size, name})
	}
	sort.SliceStable(fns, func(i, j int) bool { return fns[i].start < fns[j].start })
	j := &jitSyms{}
	for _, f := range fns {
		j.starts, j.ends, j.names = append(j.starts, f.start), append(j.ends, f.end), append(j.names, f.name)
	}
	return j
}

// lookup returns the function holding addr.
func (j *jitSyms) lookup(addr uint64) (string, uint64, bool) {
	i := sort.Search(len(j.starts), func(i int) bool { return j.starts[i] > addr }) - 1
	if i < 0 || addr >= j.ends[i] {
		return "", 0, false
	}
	return j.names[i], addr - j.starts[i], true
}

// jit returns the functions of a JIT map (nil when it cannot be read).
func (s *Source) jit(path string) *jitSyms {
	sy := s.symbols()
	if j, ok := sy.jits[path]; ok {
		return j
	}
	var j *jitSyms
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() <= maxJITMap {
		if b, err := os.ReadFile(path); err == nil {
			j = parseJITMap(b)
		}
	}
	if sy.jits == nil {
		sy.jits = map[string]*jitSyms{}
	}
	sy.jits[path] = j
	return j
}
