package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tracetui/tracetui/history"
)

// The cache is bounded (issue 18: every change to a trace left its old
// full-size index behind, every killed build its temporary files, every
// failed trace its lock file). After each build into the cache directory,
// and on `tracetui cache --clean`, [PruneCache] removes:
//   - superseded indexes: another index of the same trace path and layout
//     (the trace changed since; reopening an older version rebuilds);
//   - leftovers: temporary files and lock files older than [staleAfter]
//     that no process holds (flock);
//   - the oldest indexes (by last use) beyond the size and age bounds
//     TRACETUI_CACHE_MAX and TRACETUI_CACHE_MAX_AGE, never the one kept.

// staleAfter is how old a temporary or lock file must be before it is
// removed: a live build holds its files locked, the age is a second guard.
const staleAfter = time.Hour

// Defaults of the cache bounds, overridden by the environment.
const (
	defaultCacheMax    = 20 << 30
	defaultCacheMaxAge = 90 * 24 * time.Hour
)

// CacheEntry is one file of the cache directory.
type CacheEntry struct {
	Path  string    `json:"path"`
	Kind  string    `json:"kind"`            // "index", "temporary", "lock" or "foreign"
	Trace string    `json:"trace,omitempty"` // for an index: the trace it was built from
	Size  int64     `json:"size"`
	Used  time.Time `json:"used"` // modification time: an index's last build or reuse
	// layout distinguishes indexes of one trace that are not superseded.
	layout string
}

// CacheBounds bounds the cache: total bytes of indexes and age since last
// use. Zero disables a bound.
type CacheBounds struct {
	MaxBytes int64
	MaxAge   time.Duration
}

// CacheBoundsFromEnv reads TRACETUI_CACHE_MAX (bytes, with an optional
// K, M, G or T suffix, powers of 1024) and TRACETUI_CACHE_MAX_AGE (a Go
// duration or a number of days such as "30d"); "0" disables a bound.
func CacheBoundsFromEnv() (CacheBounds, error) {
	b := CacheBounds{MaxBytes: defaultCacheMax, MaxAge: defaultCacheMaxAge}
	if s := os.Getenv("TRACETUI_CACHE_MAX"); s != "" {
		n, err := parseBytes(s)
		if err != nil {
			return b, fmt.Errorf("TRACETUI_CACHE_MAX=%q: want a size such as 20G or 500M, or 0 for no bound", s)
		}
		b.MaxBytes = n
	}
	if s := os.Getenv("TRACETUI_CACHE_MAX_AGE"); s != "" {
		d, err := parseAge(s)
		if err != nil {
			return b, fmt.Errorf("TRACETUI_CACHE_MAX_AGE=%q: want an age such as 30d or 12h, or 0 for no bound", s)
		}
		b.MaxAge = d
	}
	return b, nil
}

func parseBytes(s string) (int64, error) {
	shift := 0
	switch strings.ToUpper(s[len(s)-1:]) {
	case "K":
		shift = 10
	case "M":
		shift = 20
	case "G":
		shift = 30
	case "T":
		shift = 40
	}
	if shift > 0 {
		s = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<62)>>shift {
		return 0, errors.New("bad size")
	}
	return n << shift, nil
}

func parseAge(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseInt(days, 10, 64)
		if err != nil || n < 0 || n > 100_000 {
			return 0, errors.New("bad age")
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	if s == "0" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, errors.New("bad age")
	}
	return d, nil
}

// ListCache lists the files of the cache directory dir, oldest first. A
// missing directory is an empty cache.
func ListCache(dir string) ([]CacheEntry, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the cache directory: %w", err)
	}
	var list []CacheEntry
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		c := CacheEntry{Path: filepath.Join(dir, e.Name()), Kind: cacheKind(e.Name()), Size: info.Size(), Used: info.ModTime()}
		if c.Kind == "index" {
			c.Trace, c.layout = indexTrace(c.Path)
		}
		list = append(list, c)
	}
	slices.SortStableFunc(list, func(a, b CacheEntry) int { return a.Used.Compare(b.Used) })
	return list, nil
}

// cacheKind classifies a cache file by its name (see cacheName, the
// history's and the event index's temporary names, acquireLock).
func cacheKind(name string) string {
	switch {
	case strings.HasPrefix(name, ".") && strings.Contains(name, ".tti"):
		return "temporary"
	case strings.HasSuffix(name, ".tti.lock"):
		return "lock"
	case strings.HasSuffix(name, ".tti"):
		return "index"
	}
	return "foreign"
}

// indexTrace returns the trace path and layout an index was built from,
// or "" when it does not open (damaged, of another version).
func indexTrace(path string) (trace, layout string) {
	tree, err := history.Open(path, history.OpenOptions{})
	if err != nil {
		return "", ""
	}
	defer tree.Close()
	info, err := readInfo(tree, path)
	if err != nil {
		return "", ""
	}
	return info.Trace, info.Layout
}

// PruneCache removes from the cache directory dir what it no longer
// needs (see the comment at the top of this file), never keep (the index
// just built or opened; "" for none). It returns what it removed. Only
// files of tracetui are touched.
func PruneCache(dir, keep string, bounds CacheBounds, now time.Time) ([]CacheEntry, error) {
	list, err := ListCache(dir)
	if err != nil {
		return nil, err
	}
	var removed []CacheEntry
	remove := func(c CacheEntry) {
		if os.Remove(c.Path) == nil {
			removed = append(removed, c)
		}
	}
	// Newest first, so the first index of each trace and layout is kept.
	seen := map[[2]string]bool{}
	if k := entryOf(list, keep); k != nil {
		seen[[2]string{k.Trace, k.layout}] = true
	}
	var indexes []CacheEntry
	for i := len(list) - 1; i >= 0; i-- {
		c := list[i]
		switch {
		case c.Path == keep || c.Kind == "foreign":
		case c.Kind == "temporary" || c.Kind == "lock":
			if now.Sub(c.Used) >= staleAfter && unheld(c.Path) {
				remove(c)
			}
		case c.Trace == "":
			// Damaged or of another version: never opened again as it is.
			if now.Sub(c.Used) >= staleAfter {
				remove(c)
			}
		case seen[[2]string{c.Trace, c.layout}]:
			remove(c)
		default:
			seen[[2]string{c.Trace, c.layout}] = true
			indexes = append(indexes, c)
		}
	}
	// indexes is newest first: keep them while within the bounds.
	total := int64(0)
	if k := entryOf(list, keep); k != nil {
		total = k.Size
	}
	for _, c := range indexes {
		if (bounds.MaxBytes > 0 && total+c.Size > bounds.MaxBytes) || (bounds.MaxAge > 0 && now.Sub(c.Used) > bounds.MaxAge) {
			remove(c)
			continue
		}
		total += c.Size
	}
	return removed, nil
}

func entryOf(list []CacheEntry, path string) *CacheEntry {
	for i := range list {
		if list[i].Path == path {
			return &list[i]
		}
	}
	return nil
}

// unheld reports whether no process holds a lock on the file at p (a
// live build locks its temporary files and its lock file).
func unheld(p string) bool {
	f, err := os.OpenFile(p, os.O_RDWR|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
