//go:build !unix

package history

import "os"

// mapFile reads n bytes of f from off where mapping is not available.
func mapFile(f *os.File, off, n int64) (b []byte, release func(), err error) {
	b = make([]byte, n)
	if _, err := f.ReadAt(b, off); err != nil {
		return nil, nil, err
	}
	return b, nil, nil
}
