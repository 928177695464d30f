//go:build linux

package history

import (
	"os"

	"golang.org/x/sys/unix"
)

// startWriteback asks the kernel to start writing bytes [0, n) of f to disk
// without waiting for it. Close calls it once the nodes are written (nine
// tenths of the file): the disk then writes them while Close encodes the
// attribute tree and waits for the summaries, and the fsync that makes the
// index durable waits for the rest only. An error is not reported: the
// fsync reports the disk's.
func startWriteback(f *os.File, n int64) {
	_ = unix.SyncFileRange(int(f.Fd()), 0, n, unix.SYNC_FILE_RANGE_WRITE)
}
