package cli

import (
	"bufio"
	"errors"
	"fmt"
	"strconv"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/query/critpath"
)

// runCritpath prints the critical path of a thread over [--from, --to).
func runCritpath(e *Env, args []string) error {
	cmd := lookup("critpath")
	fs := e.NewFlags(cmd.Name, cmd.Synopsis)
	fl := addIndexFlags(fs, "read (or build) the index at `FILE` instead of the cache")
	from, to := addRangeFlags(fs)
	if err := Parse(fs, args, 2, 2); err != nil {
		return err
	}
	tid, err := strconv.ParseInt(fs.Arg(1), 10, 32)
	if err != nil || tid <= 0 {
		return Usagef("TID %q: want a thread id (a number > 0)", fs.Arg(1))
	}
	t, err := e.openTrace(fs.Arg(0), index.Options{IndexPath: *fl.index, Format: *fl.format})
	if err != nil {
		return err
	}
	defer t.Close()
	start, end := t.History().Bounds()
	f, l, err := resolveRange(from, to, start, end, end+1)
	if err != nil {
		return err
	}
	ctx := e.Context()
	p, err := critpath.Compute(ctx, t.History(), critpath.Worker{TID: int32(tid), CPU: -1}, f, l, critpath.Options{})
	if errors.Is(err, critpath.ErrNoThread) {
		return fmt.Errorf("thread %d has no state in this range of the index (list the threads with: tracetui query TRACE 'Threads/*/Exec_name'): %w", tid, err)
	}
	if err != nil {
		return err
	}
	if *fl.asJSON {
		return writeJSON(e.Stdout, critpathJSON(p))
	}
	w := bufio.NewWriter(e.Stdout)
	fmt.Fprintf(w, "# critical path of %s over [%s, %s): %d segments, %d edges visited\n",
		workerText(p, p.Target), core.FormatTimestamp(p.From), core.FormatTimestamp(p.To), len(p.Segments), p.Work)
	if p.Truncated {
		fmt.Fprintln(w, "# work bound reached: some waits are \"unknown\" (ask for a shorter range)")
	}
	for _, s := range p.Segments {
		fmt.Fprintf(w, "%s %12s  %-24s %-13s %s\n", core.FormatTimestamp(s.Start), core.FormatDuration(s.End-s.Start),
			workerText(p, s.Worker), s.State, s.Reason)
	}
	return w.Flush()
}

// workerText is "name tid", "swapper/<cpu> 0" for an idle thread.
func workerText(p *critpath.Path, w critpath.Worker) string {
	name := p.Names[w]
	if w.TID == 0 && name == "" {
		name = "swapper/" + strconv.Itoa(int(w.CPU))
	}
	if name == "" {
		return strconv.Itoa(int(w.TID))
	}
	return name + " " + strconv.Itoa(int(w.TID))
}

// critpathJSON shapes a path for --json.
func critpathJSON(p *critpath.Path) any {
	type segment struct {
		Start  core.Time `json:"start_ns"`
		End    core.Time `json:"end_ns"`
		TID    int32     `json:"tid"`
		CPU    *int32    `json:"cpu,omitempty"` // idle threads only
		State  string    `json:"state"`
		Reason string    `json:"reason"`
	}
	out := struct {
		TID       int32     `json:"tid"`
		From      core.Time `json:"from_ns"`
		To        core.Time `json:"to_ns"`
		Truncated bool      `json:"truncated"`
		Segments  []segment `json:"segments"`
	}{TID: p.Target.TID, From: p.From, To: p.To, Truncated: p.Truncated, Segments: []segment{}}
	for _, s := range p.Segments {
		sg := segment{Start: s.Start, End: s.End, TID: s.Worker.TID, State: s.State.String(), Reason: s.Reason}
		if s.Worker.TID == 0 {
			sg.CPU = &s.Worker.CPU
		}
		out.Segments = append(out.Segments, sg)
	}
	return out
}
