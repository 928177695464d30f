package cli

import (
	"bufio"
	"fmt"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index"
)

// runCache lists the cache directory (every index with its trace, size
// and time since last use, and leftovers) and, with --clean, prunes it as
// a build does (superseded indexes, stale temporary and lock files, the
// bounds TRACETUI_CACHE_MAX and TRACETUI_CACHE_MAX_AGE).
func runCache(e *Env, args []string) error {
	cmd := lookup("cache")
	fs := e.NewFlags(cmd.Name, cmd.Synopsis)
	clean := fs.Bool("clean", false, "remove superseded indexes, stale leftovers and the oldest indexes beyond the bounds")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := Parse(fs, args, 0, 0); err != nil {
		return err
	}
	dir, err := index.CacheDir()
	if err != nil {
		return err
	}
	now := time.Now()
	var removed []index.CacheEntry
	if *clean {
		bounds, err := index.CacheBoundsFromEnv()
		if err != nil {
			return err
		}
		if removed, err = index.PruneCache(dir, "", bounds, now); err != nil {
			return err
		}
	}
	list, err := index.ListCache(dir)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.Stdout, struct {
			Dir     string             `json:"dir"`
			Files   []index.CacheEntry `json:"files"`
			Removed []index.CacheEntry `json:"removed"`
		}{dir, orEmpty(list), orEmpty(removed)})
	}
	w := bufio.NewWriter(e.Stdout)
	total := int64(0)
	for _, c := range list {
		total += c.Size
		trace := c.Trace
		if trace == "" && c.Kind == "index" {
			trace = "(damaged or of another version)"
		}
		fmt.Fprintf(w, "%-9s %10d  %8s ago  %s  %s\n", c.Kind, c.Size, core.FormatDuration(core.Time(now.Sub(c.Used).Truncate(time.Second))), c.Path, trace)
	}
	for _, c := range removed {
		fmt.Fprintf(w, "removed %s %s\n", c.Kind, c.Path)
	}
	fmt.Fprintf(w, "# %s: %d files, %d bytes; %d removed\n", dir, len(list), total, len(removed))
	return w.Flush()
}

// orEmpty makes a nil list print as [] in JSON.
func orEmpty(l []index.CacheEntry) []index.CacheEntry {
	if l == nil {
		return []index.CacheEntry{}
	}
	return l
}
