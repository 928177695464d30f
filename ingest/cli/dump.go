package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/tracetui/tracetui/core"
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
	ctx := e.Context()
	src, err := ingest.OpenSource(fs.Arg(0), *format, ingest.OpenEnv{Context: ctx})
	if err != nil {
		return err
	}
	defer src.Close()
	last, all, err := ingest.DumpUntil(cancelWriter{e.Stdout, ctx}, src, *limit)
	if err != nil {
		return err
	}
	// The tracer's reports of lost events go to stderr, as babeltrace2
	// prints them; after --limit, only those of the part printed (issue
	// 18: `dump --limit 1` printed the whole file's).
	later := int64(0)
	for _, w := range src.Warnings() {
		if !all && (w.Time == 0 || w.Time > last) {
			later += core.WarningCount([]core.Warning{w})
			continue
		}
		fmt.Fprintln(e.Stderr, w.Message)
	}
	if later > 0 {
		fmt.Fprintf(e.Stderr, "(%d more warnings about the rest of the trace: run without --limit to see them)\n", later)
	}
	return nil
}

// cancelWriter fails every write once ctx is done, so that a dump stops at
// its next buffer of output when Ctrl-C cancels the run.
type cancelWriter struct {
	w   io.Writer
	ctx context.Context
}

func (c cancelWriter) Write(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(b)
}
