package trace

import (
	"context"
	"fmt"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/states/callstack"
)

// FrameLabels returns the namer of call-stack frames of this trace: its
// addresses resolved by a [callstack.Resolver] (symbolsFile, the --symbols
// nm listing, if not ""; else a mapping file beside the trace; then the
// binaries the statedump recorded) in the process of each thread
// (Threads/<tid>/PID, read once). Problems that leave the rest usable are
// returned as warnings.
func (t *Trace) FrameLabels(ctx context.Context, symbolsFile string) (core.FrameLabeler, []string, error) {
	h := t.History()
	r, warnings, err := callstack.LoadResolver(ctx, h, callstack.ResolverOptions{SymbolsFile: symbolsFile, TracePath: t.Info().Trace})
	if err != nil {
		return nil, nil, err
	}
	at := h.Attributes()
	pidKeys := at.Glob(core.AttrThreads + "/*/" + core.AttrPID)
	pids := make(map[core.Key]string, len(pidKeys)) // Threads/<tid> -> its process, as Processes/<pid> names it
	start, end := h.Bounds()
	if _, err := h.Query2D(ctx, pidKeys, start, end, func(iv core.Interval) bool {
		if !iv.Value.IsNull() {
			pids[at.Parent(iv.Key)] = iv.Value.String()
		}
		return true
	}); err != nil {
		return nil, nil, fmt.Errorf("reading the threads' processes: %w", err)
	}
	return func(thread core.Key, v core.Value) string { return r.Label(pids[thread], v) }, warnings, nil
}
