//go:build linux

package history

import (
	"os"

	"golang.org/x/sys/unix"
)

// startWriteback asks the kernel to start writing bytes [0, n) of f to disk,
// on a goroutine of its own, and returns a function that waits for the
// request to be made; f must not be closed before. Close calls it once
// the nodes are written (nine tenths of the file): the disk then writes
// them while Close encodes the attribute tree and waits for the
// summaries, and the fsync that makes the index durable waits for the
// rest only. Made on Close's goroutine, the request held it 40 to 50 ms
// at the end of `gen --threads 200000` (the kernel queues the writes of
// 130 MB of pages). An error is not reported: the fsync reports the
// disk's.
func startWriteback(f *os.File, n int64) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = unix.SyncFileRange(int(f.Fd()), 0, n, unix.SYNC_FILE_RANGE_WRITE)
	}()
	return func() { <-done }
}
