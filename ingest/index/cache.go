package index

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/ingest/internal/tracefile"
)

// CacheDir returns the directory holding indexes: $XDG_CACHE_HOME/tracetui,
// else ~/.cache/tracetui. It is not created here.
func CacheDir() (string, error) {
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "tracetui"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", fmt.Errorf("no cache directory: set XDG_CACHE_HOME or HOME, or pass --index FILE (%v)", err)
	}
	return filepath.Join(home, ".cache", "tracetui"), nil
}

// traceFile is one file of a trace as the fingerprint sees it.
type traceFile struct {
	rel    string
	size   int64
	mtime  int64  // ns
	sample string // hash of the first and last sampleBytes (see sampleHash)
}

// sampleBytes is how much of each end of every trace file the fingerprint
// hashes: a trace rewritten with the same size and modification time (a
// copy with -p, a tool that restores times) is still told apart when its
// start or end changed, for two small reads per file.
const sampleBytes = 4 << 10

// sampleHash hashes the first and last sampleBytes of the file at p (the
// whole file when it is smaller than both).
func sampleHash(p string, size int64) (string, error) {
	f, err := tracefile.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	buf := make([]byte, sampleBytes)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return "", err
	}
	h.Write(buf[:n])
	if size > 2*sampleBytes {
		if n, err = f.ReadAt(buf, size-sampleBytes); err != nil && err != io.EOF {
			return "", err
		}
		h.Write(buf[:n])
	} else if size > sampleBytes {
		m, err := io.ReadFull(f, buf)
		if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
			return "", err
		}
		h.Write(buf[:m])
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// maxFingerprintFiles bounds the walk of a trace directory: a CTF
// directory holds one file per stream (a few hundred at most); anything
// larger is not a trace and must not make opening it slow.
const maxFingerprintFiles = 100_000

// traceFiles lists the regular files of a trace (the file itself, or every
// file under the directory), sorted by path.
func traceFiles(abs string) ([]traceFile, error) {
	st, err := tracefile.Check(abs) // a FIFO is refused before any open
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		sample, err := sampleHash(abs, st.Size())
		if err != nil {
			return nil, err
		}
		return []traceFile{{rel: ".", size: st.Size(), mtime: st.ModTime().UnixNano(), sample: sample}}, nil
	}
	var files []traceFile
	err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(abs, p)
		sample, err := sampleHash(p, info.Size())
		if err != nil {
			return err
		}
		files = append(files, traceFile{rel: rel, size: info.Size(), mtime: info.ModTime().UnixNano(), sample: sample})
		if len(files) > maxFingerprintFiles {
			return errors.New("more than 100000 files: not a trace directory")
		}
		return nil
	})
	slices.SortFunc(files, func(a, b traceFile) int { return strings.Compare(a.rel, b.rel) })
	return files, err
}

// fingerprint identifies a trace's content as far as can be told without
// reading it all: its absolute path, every file's path, size, modification
// time and a hash of its first and last 4 KB (sampleHash), and the
// versions of everything that shapes the index. Any change
// gives another index file, so a stale index is never opened.
func fingerprint(abs string, files []traceFile, versions string) string {
	h := sha256.New()
	w := func(s string) { h.Write([]byte(s)); h.Write([]byte{0}) }
	w(abs)
	w(versions)
	for _, f := range files {
		w(f.rel)
		w(strconv.FormatInt(f.size, 10))
		w(strconv.FormatInt(f.mtime, 10))
		w(f.sample)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// cacheName returns the index file name for a trace: its base name (for
// people browsing the cache) and the fingerprint.
func cacheName(abs, fp string) string {
	base := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < ' ' {
			return '_'
		}
		return r
	}, filepath.Base(abs))
	if len(base) > 48 {
		base = base[:48]
	}
	return base + "-" + fp[:20] + ".tti"
}
