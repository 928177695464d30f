package ftracefmt

import (
	"bytes"
	"strconv"
)

// ParseCmdlines reads saved_cmdlines ("pid comm" lines). The names are
// slices of b, which nothing writes after it is read (no copy per
// task: a reader may parse it as it opens).
func ParseCmdlines(b []byte) map[int32][]byte {
	m := make(map[int32][]byte, bytes.Count(b, []byte("\n"))+1)
	for len(b) > 0 {
		var line []byte
		line, b = cutLine(b)
		pid, comm, ok := bytes.Cut(bytes.TrimSpace(line), []byte(" "))
		if !ok {
			continue
		}
		if n, err := strconv.ParseInt(string(pid), 10, 32); err == nil {
			m[int32(n)] = comm[:len(comm):len(comm)]
		}
	}
	return m
}

// maxTgids bounds the threads read from a saved_tgids text: the kernel
// keeps one per pid, and pid_max is at most 4 Mi.
const maxTgids = 1 << 22

// ParseTgids reads saved_tgids ("pid tgid" lines, as the kernel's
// saved_tgids file gives them), ignoring malformed lines and a NUL
// terminator.
func ParseTgids(b []byte) map[int32]int32 {
	m := map[int32]int32{}
	for len(b) > 0 && len(m) < maxTgids {
		var line []byte
		line, b = cutLine(b)
		pid, tgid, ok := bytes.Cut(bytes.TrimSpace(bytes.TrimRight(line, "\x00")), []byte(" "))
		if !ok {
			continue
		}
		p, err1 := strconv.ParseInt(string(pid), 10, 32)
		t, err2 := strconv.ParseInt(string(bytes.TrimSpace(tgid)), 10, 32)
		if err1 == nil && err2 == nil && p > 0 && t > 0 {
			m[int32(p)] = int32(t)
		}
	}
	return m
}
