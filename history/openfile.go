package history

import (
	"fmt"
	"os"
	"syscall"
)

// openRegular opens path for reading without blocking on a named pipe
// (O_NONBLOCK: a FIFO with no writer would block open(2) for ever, deaf to
// Ctrl-C) and refuses anything but a regular file, checked on the opened
// file so that nothing can be swapped in between.
func openRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file (%s): %w", path, st.Mode().Type(), ErrNotIndex)
	}
	return f, nil
}
