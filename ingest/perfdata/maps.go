package perfdata

import (
	"sort"
	"strings"
)

// mapping is an executable mapping from an MMAP or MMAP2 record.
type mapping struct {
	t          uint64 // when it was made (its record's key)
	at         pos
	start, end uint64
	pgoff      uint64
	name       string
	jit        bool // anonymous memory: name is the process's JIT map
	// syms are the mapped file's symbols once Source.elf looked them up
	// for this mapping (elfDone), which spares the lookup by path on
	// every frame of every sample.
	syms    *elfSyms
	elfDone bool
}

// process is what the first pass learned of a process's address space:
// its mappings and the forks that made a process of its pid (a pid is
// reused), both in delivery order.
type process struct {
	maps  []mapping
	forks []forkAt
}

// forkAt is a FORK that made a new process.
type forkAt struct {
	t      uint64
	at     pos
	parent int32
}

// addrSpace is every process's mappings and the kernel's.
type addrSpace struct {
	procs  map[int32]*process
	kernel []mapping // pid -1: [kernel.kallsyms]_text and the modules
}

func (as *addrSpace) proc(pid int32) *process {
	if as.procs == nil {
		as.procs = map[int32]*process{}
	}
	p := as.procs[pid]
	if p == nil {
		p = &process{}
		as.procs[pid] = p
	}
	return p
}

// addMap notes an MMAP/MMAP2 record's executable mapping.
func (as *addrSpace) addMap(pid int32, m mapping) {
	if m.end <= m.start {
		return
	}
	if pid == -1 {
		as.kernel = append(as.kernel, m)
		return
	}
	if isAnon(m.name) {
		m.name, m.jit = jitMapPath(pid), true
	}
	p := as.proc(pid)
	if len(p.maps) < maxIDs {
		p.maps = append(p.maps, m)
	}
}

func keyLess(t1 uint64, a1 pos, t2 uint64, a2 pos) bool {
	return t1 < t2 || t1 == t2 && a1.less(a2)
}

// sort puts the mappings and execs in delivery order.
func (as *addrSpace) sort() {
	for _, p := range as.procs {
		sort.SliceStable(p.maps, func(i, j int) bool { return keyLess(p.maps[i].t, p.maps[i].at, p.maps[j].t, p.maps[j].at) })
		sort.SliceStable(p.forks, func(i, j int) bool { return keyLess(p.forks[i].t, p.forks[i].at, p.forks[j].t, p.forks[j].at) })
	}
	sort.SliceStable(as.kernel, func(i, j int) bool { return keyLess(as.kernel[i].t, as.kernel[i].at, as.kernel[j].t, as.kernel[j].at) })
}

// find returns the mapping of addr in process pid at (t, at): the latest
// one made before then and since the FORK that made the process (a pid
// is reused: perf drops the old process then), else the parent's at that
// fork, as perf copies the parent's maps to the child. An exec does not
// drop the maps (perf keeps them: a sample in execve after the exec's
// COMM still has the old image's user frames); the new image's mappings
// replace those they overlap.
func (as *addrSpace) find(pid int32, addr, t uint64, at pos) *mapping {
	for depth := 0; depth < 16; depth++ {
		p := as.procs[pid]
		if p == nil {
			return nil
		}
		var fork *forkAt
		k := sort.Search(len(p.forks), func(i int) bool { return !keyLess(p.forks[i].t, p.forks[i].at, t, at) })
		if k > 0 {
			fork = &p.forks[k-1]
		}
		n := sort.Search(len(p.maps), func(i int) bool { return !keyLess(p.maps[i].t, p.maps[i].at, t, at) })
		for i := n - 1; i >= 0; i-- {
			m := &p.maps[i]
			if fork != nil && keyLess(m.t, m.at, fork.t, fork.at) {
				break
			}
			if addr >= m.start && addr < m.end {
				return m
			}
		}
		if fork == nil {
			return nil
		}
		pid, t, at = fork.parent, fork.t, fork.at
	}
	return nil
}

// findKernel returns the kernel mapping of addr.
func (as *addrSpace) findKernel(addr uint64) *mapping {
	for i := len(as.kernel) - 1; i >= 0; i-- {
		if m := &as.kernel[i]; addr >= m.start && addr < m.end {
			return m
		}
	}
	return nil
}

// dsoName is how perf names a mapping's file: "[kernel.kallsyms]" for the
// kernel's text, the path otherwise.
func dsoName(m *mapping) string {
	if strings.HasPrefix(m.name, "[kernel.kallsyms]") {
		return "[kernel.kallsyms]"
	}
	return m.name
}
