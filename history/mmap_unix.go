//go:build unix

package history

import (
	"os"
	"syscall"
)

// mapFile maps n bytes of f from off, read-only. release unmaps them; it
// is nil when nothing was mapped.
func mapFile(f *os.File, off, n int64) (b []byte, release func(), err error) {
	if n == 0 {
		return nil, nil, nil
	}
	page := int64(os.Getpagesize())
	skip := off % page
	m, err := syscall.Mmap(int(f.Fd()), off-skip, int(n+skip), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return m[skip:], func() { syscall.Munmap(m) }, nil
}
