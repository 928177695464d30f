package cli

import (
	"fmt"

	"github.com/tracetui/tracetui/ingest/gen"
)

// maxGenThreads bounds gen --threads: the generator keeps every thread in
// memory.
const maxGenThreads = 1 << 24

// runGen writes a synthetic LTTng-kernel-style CTF trace.
func runGen(e *Env, args []string) error {
	cmd := lookup("gen")
	fs := e.NewFlags(cmd.Name, cmd.Synopsis)
	threads := fs.Int("threads", 0, "number of threads the workload forks (`N` >= 1)")
	cpus := fs.Int("cpus", 4, "number of CPUs, one stream each")
	seed := fs.Uint64("seed", 1, "random seed; the same seed writes the same trace")
	out := fs.String("o", "", "output `DIR` (created; must not exist or be empty)")
	if err := Parse(fs, args, 0, 0); err != nil {
		return err
	}
	if *threads < 1 || *cpus < 1 || *out == "" {
		return Usagef("want --threads N >= 1, --cpus C >= 1 and -o DIR")
	}
	if *threads > maxGenThreads {
		return Usagef("--threads %d: want at most %d (the article's largest workload has 1.6 M)", *threads, maxGenThreads)
	}
	if *cpus > gen.MaxCPUs {
		return Usagef("--cpus %d: want at most %d", *cpus, gen.MaxCPUs)
	}
	st, err := gen.Write(*out, gen.Config{Threads: *threads, CPUs: *cpus, Seed: *seed})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.Stdout, "%s: %d threads, %d events, %d bytes\n", *out, st.Threads, st.Events, st.Bytes)
	return nil
}
