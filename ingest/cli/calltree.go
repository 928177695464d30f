package cli

import (
	"context"
	"fmt"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/query/calltree"
	"github.com/tracetui/tracetui/ingest/trace"
)

// runCallTree prints the call tree of a thread (or of every thread with a
// call stack) over a time range.
func runCallTree(e *Env, args []string) error {
	cmd := lookup("calltree")
	fs := e.NewFlags(cmd.Name, cmd.Synopsis)
	fl := addIndexFlags(fs, "read (or build) the index at `FILE` instead of the cache")
	var from, to timeFlag
	fs.Var(&from, "from", "start `T` (ns, 12.5ms, or +200us from the trace start; default: trace start)")
	fs.Var(&to, "to", "end `T`, excluded (default: after the trace end)")
	tid := fs.String("tid", "", "aggregate the thread `TID` only (its Threads/<TID> name; default: every thread)")
	symbols := fs.String("symbols", "", "name addresses from the nm listing `FILE`")
	if err := Parse(fs, args, 1, 1); err != nil {
		return err
	}
	t, err := e.openTrace(fs.Arg(0), index.Options{IndexPath: *fl.index, Format: *fl.format})
	if err != nil {
		return err
	}
	defer t.Close()
	ctx := context.Background()
	label, warnings, err := t.FrameLabels(ctx, *symbols)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintf(e.Stderr, "tracetui: warning: %s\n", w)
	}
	h := t.History()
	start, end := h.Bounds()
	f, l, err := resolveRange(&from, &to, start, end, end+1)
	if err != nil {
		return err
	}
	opts := calltree.Options{From: f, To: l, Label: label}
	if *tid != "" {
		k, ok := h.Attributes().Lookup(core.AttrThreads + "/" + *tid)
		if !ok {
			return fmt.Errorf("no thread %q in the trace: `tracetui query TRACE 'Threads/*'` lists them", *tid)
		}
		opts.Threads = []core.Key{k}
	}
	prof, err := t.Profile(ctx)
	if err != nil {
		return err
	}
	var root *calltree.Node
	if prof.Samples() > 0 { // a profile of samples (perf.data)
		var tids []int64
		if opts.Threads != nil {
			tids = trace.ThreadIDs(h.Attributes(), opts.Threads)
		}
		root, err = profileTree(ctx, prof, f, l, tids)
	} else {
		root, err = calltree.Compute(ctx, h, opts)
	}
	if err != nil {
		return err
	}
	cut := calltree.Cut(root, calltree.MaxDepth)
	if *fl.asJSON {
		children := root.Children
		if children == nil {
			children = []*calltree.Node{}
		}
		out := struct {
			From     core.Time        `json:"from_ns"`
			To       core.Time        `json:"to_ns"`
			Total    core.Time        `json:"total_ns"`
			Children []*calltree.Node `json:"children"`
			MaxDepth int              `json:"max_depth,omitempty"`
			Cut      int64            `json:"cut_nodes,omitempty"`
			Samples  bool             `json:"samples,omitempty"` // counts, not ns
		}{From: opts.From, To: opts.To, Total: root.Total, Children: children, Samples: root.Samples}
		if cut > 0 {
			out.MaxDepth, out.Cut = calltree.MaxDepth, cut
		}
		return writeJSON(e.Stdout, out)
	}
	if err := calltree.WriteText(e.Stdout, root); err != nil {
		return err
	}
	if cut > 0 {
		fmt.Fprintf(e.Stdout, "... %d call paths deeper than %d levels not shown (narrow with --tid, --from and --to)\n", cut, calltree.MaxDepth)
	}
	return nil
}

// profileTree is the call tree of the samples of threads tids (nil: all)
// in [from, to).
func profileTree(ctx context.Context, p *trace.Profile, from, to core.Time, tids []int64) (*calltree.Node, error) {
	self, err := p.Count(ctx, from, to, tids)
	if err != nil {
		return nil, err
	}
	return calltree.FromSamples(ctx, p, self)
}
