package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/tracetui/tracetui/history"
)

// runBench runs a named benchmark on a trace: paper, the R-SHT article's
// Control Flow workload, or frames, the browser's navigation script.
func runBench(e *Env, args []string) error {
	cmd := lookup("bench")
	if len(args) == 0 || (args[0] != "paper" && args[0] != "frames") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			fmt.Fprintf(e.Stderr, "usage: tracetui %s\n", cmd.Synopsis)
			return flag.ErrHelp
		}
		return Usagef("want the benchmark name: paper or frames")
	}
	fs := e.NewFlags("bench "+args[0], cmd.Synopsis)
	fl := addIndexFlags(fs, "read (or build) the index at `FILE` instead of the cache; an existing current index is used whatever its layout")
	layout := fs.String("layout", "rsht", "tree layout of the index built when there is none: `rsht`, esht or sht")
	if err := Parse(fs, args[1:], 1, 1); err != nil {
		return err
	}
	l, err := history.ParseLayout(*layout)
	if err != nil {
		return Usagef("--layout %q: want rsht, esht or sht", *layout)
	}
	opts := fl.options()
	opts.Layout = l
	t, err := e.openTrace(fs.Arg(0), opts)
	if err != nil {
		return err
	}
	if args[0] == "frames" {
		return e.benchFrames(t, *fl.asJSON) // closes t
	}
	defer t.Close()
	res, err := t.PaperBench(context.Background())
	if err != nil {
		return err
	}
	if *fl.asJSON {
		return writeJSON(e.Stdout, res)
	}
	fmt.Fprintf(e.Stdout, "trace     %s (%d threads, %s layout)\n", t.Info().Trace, res.Threads, res.Layout)
	fmt.Fprintf(e.Stdout, "pstree    %8.2f ms  %6d nodes read\n", res.PsTreeMS, res.PsTreeNodes)
	fmt.Fprintf(e.Stdout, "zoom      %8.2f ms  %6d nodes read  %d frames\n", res.ZoomMS, res.ZoomNodes, res.ZoomFrames)
	return nil
}
