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
