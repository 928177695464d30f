package cli

import (
	"github.com/tracetui/tracetui/ingest/query/stats"
)

// runStats prints CPU usage, system call, wake-up latency and interrupt
// statistics over a range, from the index (package ingest/query/stats).
func runStats(e *Env, args []string) error {
	cmd := lookup("stats")
	fs := e.NewFlags(cmd.Name, cmd.Synopsis)
	fl := addIndexFlags(fs, "read (or build) the index at `FILE` instead of the cache")
	from, to := addRangeFlags(fs)
	top := fs.Int("top", stats.DefaultTop, "list the `N` slowest calls, worst latencies and longest interrupts")
	if err := Parse(fs, args, 1, 1); err != nil {
		return err
	}
	if *top < 1 || *top > stats.MaxTop {
		return Usagef("--top %d: want 1 to %d", *top, stats.MaxTop)
	}
	t, err := fl.open(e, fs)
	if err != nil {
		return err
	}
	defer t.Close()
	ctx := e.Context()
	h := t.History()
	start, end := h.Bounds()
	f, l, err := resolveRange(from, to, start, end, end+1)
	if err != nil {
		return err
	}
	rep, err := stats.Compute(ctx, h, stats.Options{From: f, To: l, Top: *top})
	if err != nil {
		return err
	}
	if *fl.asJSON {
		return writeJSON(e.Stdout, rep)
	}
	return rep.WriteText(e.Stdout)
}
