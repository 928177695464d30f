package cli

import (
	"github.com/tracetui/tracetui/history"
)

// runIndex builds (or rebuilds) a trace's index and describes it.
func runIndex(e *Env, args []string) error {
	cmd := lookup("index")
	fs := e.NewFlags(cmd.Name, cmd.Synopsis)
	layout := fs.String("layout", "rsht", "tree layout: `rsht`, esht or sht")
	fl := addIndexFlags(fs, "write the index to `FILE` instead of the cache")
	if err := Parse(fs, args, 1, 1); err != nil {
		return err
	}
	l, err := history.ParseLayout(*layout)
	if err != nil {
		return Usagef("--layout %q: want rsht, esht or sht", *layout)
	}
	opts := fl.options()
	opts.Layout, opts.Rebuild = l, true
	t, err := e.openTrace(fs.Arg(0), opts)
	if err != nil {
		return err
	}
	defer t.Close()
	return e.printInfo(t.Info(), *fl.asJSON)
}
