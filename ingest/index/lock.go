package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// buildLock is an exclusive advisory lock (flock) on "<index>.lock", held
// while an index is built so that two processes opening the same trace
// build it once: the second waits, then opens the first one's index. The
// kernel drops the lock when the process dies, so a killed build never
// leaves a stale lock behind.
type buildLock struct {
	f *os.File
	// waited is set when another process held the lock first: it has
	// just built the index, which a rebuild request then reuses.
	waited bool
}

// lockPoll is how often a waiting process retries the lock. flock cannot
// be interrupted by a context, so waiting polls a non-blocking attempt.
const lockPoll = 50 * time.Millisecond

// acquireLock takes the lock for indexPath, calling waiting once if
// another process holds it, and gives up when ctx is done.
func acquireLock(ctx context.Context, indexPath string, waiting func()) (*buildLock, error) {
	name := indexPath + ".lock"
	f, err := openLockFile(name)
	if err != nil {
		return nil, err
	}
	told := false
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil && !sameFile(f, name) {
			// PruneCache removed the lock file between the open and
			// the flock: a lock on the unlinked file excludes nobody,
			// so take the one now at the name.
			f.Close()
			if f, err = openLockFile(name); err != nil {
				return nil, err
			}
			continue
		}
		if err == nil {
			return &buildLock{f: f, waited: told}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("index lock: %w", err)
		}
		if !told && waiting != nil {
			waiting()
		}
		told = true
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(lockPoll):
		}
	}
}

// release drops the lock. The lock file stays: removing it would race
// with a process that just opened it.
func (l *buildLock) release() {
	syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
}

// sameFile reports whether the open file f is still the file at name.
func sameFile(f *os.File, name string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(name)
	return err == nil && os.SameFile(a, b)
}

// openLockFile opens (creating it, private to the user) the lock file at
// name. It never follows a symbolic link planted there (which would
// create a file wherever it points, with this user's ownership), never
// blocks on a FIFO, and refuses a lock that is not a regular file owned by
// this user.
func openLockFile(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return nil, fmt.Errorf("index lock %s: %w; remove it if it is not tracetui's", name, err)
	}
	st, err := f.Stat()
	if err == nil {
		sys, ok := st.Sys().(*syscall.Stat_t)
		if !st.Mode().IsRegular() || !ok || int(sys.Uid) != os.Getuid() {
			err = fmt.Errorf("not a regular file owned by this user (%s)", st.Mode())
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("index lock %s: %w; remove it if it is not tracetui's", name, err)
	}
	return f, nil
}
