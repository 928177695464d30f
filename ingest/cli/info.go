package cli

import (
	"bufio"
	"fmt"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index"
)

// runInfo describes an existing index without building one.
func runInfo(e *Env, args []string) error {
	cmd := lookup("info")
	fs := e.NewFlags(cmd.Name, cmd.Synopsis)
	fl := addIndexFlags(fs, "read the index at `FILE` instead of the cache")
	check := fs.Bool("check", false, "verify every node and section checksum (reads the whole index)")
	if err := Parse(fs, args, 1, 1); err != nil {
		return err
	}
	path, ready, err := index.Locate(fs.Arg(0), fl.options())
	if err != nil {
		return err
	}
	if !ready {
		return fmt.Errorf("%s has no up-to-date index (looked for %s): run 'tracetui index %s'", fs.Arg(0), path, fs.Arg(0))
	}
	ix, err := index.OpenIndexFile(path, index.Options{})
	if err != nil {
		return err
	}
	defer ix.Close()
	if *check {
		// Opening checks the header only; a damaged node shows when a
		// query reads it (issue 18: info called such an index fine).
		if err := ix.Tree().Check(); err != nil {
			rebuild := "tracetui index " + fs.Arg(0)
			if fl.options().IndexPath != "" {
				rebuild = "tracetui index --index " + path + " " + fs.Arg(0)
			}
			return fmt.Errorf("the index %s is damaged (%w): rebuild it with '%s'", path, err, rebuild)
		}
	}
	return e.printInfo(ix.Info(), *fl.asJSON)
}

// printInfo prints what an index holds, as text or JSON (`index` and
// `info`).
func (e *Env) printInfo(in index.IndexInfo, asJSON bool) error {
	if asJSON {
		return writeJSON(e.Stdout, in.IndexSummary)
	}
	w := bufio.NewWriter(e.Stdout)
	fmt.Fprintf(w, "trace        %s\n", in.Trace)
	fmt.Fprintf(w, "index        %s\n", in.Index)
	fmt.Fprintf(w, "format       %s, %d streams\n", in.Format, in.Streams)
	fmt.Fprintf(w, "events       %d (%d lost)\n", in.Events, in.LostEvents)
	fmt.Fprintf(w, "time         %s .. %s (%s)\n", core.FormatTimestamp(in.StartNS), core.FormatTimestamp(in.EndNS), core.FormatDuration(in.EndNS-in.StartNS))
	fmt.Fprintf(w, "attributes   %d\n", in.Attributes)
	fmt.Fprintf(w, "intervals    %d", in.Intervals)
	if in.Intervals > 0 {
		fmt.Fprintf(w, " (%.1f bytes each)", float64(in.IndexBytes)/float64(in.Intervals))
	}
	fmt.Fprintf(w, "\nindex bytes  %d\n", in.IndexBytes)
	fmt.Fprintf(w, "tree         %s, depth %d, %d nodes\n", in.Layout, in.Depth, in.Nodes)
	fmt.Fprintf(w, "build        %.0f ms\n", in.BuildMS)
	if in.IndexSummary.Warnings > 0 {
		fmt.Fprintf(w, "warnings     %d (first: %s)\n", in.IndexSummary.Warnings, in.FirstWarnings[0])
	}
	return w.Flush()
}
