package cli

import (
	"fmt"

	"github.com/tracetui/tracetui/ingest"
)

// runDump prints a trace's events as babeltrace2 does, without an index.
func runDump(e *Env, args []string) error {
	cmd := lookup("dump")
	fs := e.NewFlags(cmd.Name, cmd.Synopsis)
	limit := fs.Int64("limit", 0, "stop after `N` events (0: all)")
	format := FormatFlag(fs)
	if err := Parse(fs, args, 1, 1); err != nil {
		return err
	}
	if *limit < 0 {
		return Usagef("--limit %d: want 0 or more", *limit)
	}
	src, err := ingest.OpenSource(fs.Arg(0), *format, ingest.OpenEnv{})
	if err != nil {
		return err
	}
	defer src.Close()
	if err := ingest.Dump(e.Stdout, src, *limit); err != nil {
		return err
	}
	// The tracer's reports of lost events go to stderr, as babeltrace2
	// prints them.
	for _, w := range src.Warnings() {
		fmt.Fprintln(e.Stderr, w.Message)
	}
	return nil
}
