package history

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Temporary files of a build live beside the destination, named
// ".<base>.tmp-<random>" (and "...sec" for the sections), so the final
// rename is atomic. A live builder holds an exclusive lock on its files;
// Create removes those nobody holds: the leftovers of killed builds.

func tempPrefix(path string) string { return "." + filepath.Base(path) + ".tmp-" }

// tempMode is the permission of every file a build creates.
const tempMode = 0o600

func createTemp(path, suffix string) (*os.File, error) {
	mode := os.FileMode(tempMode)
	var rnd [8]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return nil, err
	}
	name := filepath.Join(filepath.Dir(path), tempPrefix(path)+hex.EncodeToString(rnd[:])+suffix)
	// Private to the user (an index holds the traced machine's command
	// lines and file names); Close gives the index its Options.Mode.
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, mode)
	if err != nil {
		return nil, fmt.Errorf("history: create temporary index: %w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		os.Remove(name)
		return nil, fmt.Errorf("history: lock temporary index: %w", err)
	}
	return f, nil
}

// removeTemp closes and removes a temporary file of the build.
func removeTemp(f *os.File) {
	name := f.Name()
	f.Close()
	os.Remove(name)
}

// removeStaleTemps removes the temporary files of earlier builds of path
// that no live process holds.
func removeStaleTemps(path string) {
	dir := filepath.Dir(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := tempPrefix(path)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) || !e.Type().IsRegular() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		f, err := os.OpenFile(p, os.O_RDWR|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if err != nil {
			continue
		}
		if tryLockFile(f) {
			os.Remove(p)
		}
		f.Close()
	}
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
