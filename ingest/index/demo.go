package index

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/gen"
)

// The built-in demo trace: what `tracetui` shows with no argument. A
// generated LTTng-kernel-style trace (the R-SHT article's workload), small
// enough to generate and index in a fraction of a second, big enough to
// scroll, zoom and filter.
const (
	demoThreads = 1000
	demoCPUs    = 4
	demoSeed    = 1
	// demoVersion changes when the generator's output changes, so an old
	// demo in the cache is not reused.
	demoVersion = 1
)

// DemoTrace returns the path of the demo trace, generating it into the
// cache directory the first time (gen writes it atomically, so a
// concurrent first run finds either nothing or the whole trace).
func DemoTrace() (string, error) {
	cache, err := CacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, fmt.Sprintf("demo-v%d-%dthreads-seed%d", demoVersion, demoThreads, demoSeed))
	if ctf.IsTrace(dir) {
		return dir, nil
	}
	if err := os.MkdirAll(cache, 0o700); err != nil {
		return "", fmt.Errorf("demo trace: %w", err)
	}
	os.RemoveAll(dir) // a partial directory from an older tracetui: not a trace
	if _, err := gen.Write(dir, gen.Config{Threads: demoThreads, CPUs: demoCPUs, Seed: demoSeed, Hostname: "demo"}); err != nil {
		if ctf.IsTrace(dir) { // another tracetui generated it meanwhile
			return dir, nil
		}
		return "", fmt.Errorf("demo trace: %w", err)
	}
	return dir, nil
}
