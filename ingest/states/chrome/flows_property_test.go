package chrome

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/chrome"
	"github.com/tracetui/tracetui/ingest/chrome/chrometest"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
)

// span is a generated X slice, in µs: [start, end).
type span struct{ start, end int }

// flowStepGen is a generated flow event.
type flowStepGen struct {
	flow, tid, ts int // ts in µs, odd: never a slice's start or end
	ph            byte
	bpE           bool
}

// genSpans fills [from, to) of one thread with slices nested up to
// depth 3, their bounds even: siblings disjoint, children strictly inside
// their parent, so no two slices of a thread begin at the same time.
func genSpans(rng *rand.Rand, from, to, depth int, out []span) []span {
	if depth > 3 {
		return out
	}
	for t := from; ; {
		start := t + 2*(1+rng.IntN(40))
		end := start + 2*(1+rng.IntN(60))
		if end >= to {
			return out
		}
		out = append(out, span{start, end})
		if rng.IntN(2) == 0 {
			out = genSpans(rng, start, end, depth+1, out)
		}
		t = end
	}
}

// TestFlowBindingProperty checks the flow attributes of random traces
// (threads of nested X slices; flows of 2 to 4 steps, one step per
// thread, t and f with or without "bp": "e") against the binding rules
// computed directly from the slices: each attribute holds from its event
// until the end of the slice it binds to (the innermost slice open for s
// and "bp": "e"; else, or with none open, the first slice beginning after
// it), and to the end of the trace when there is none; each Flow_in names
// the previous step's thread and time, where its Flow_out begins.
func TestFlowBindingProperty(t *testing.T) {
	rng := coretest.Rand(t)
	for range 20 {
		nThreads := 2 + rng.IntN(7)
		spans := make([][]span, nThreads+1) // by tid
		var sb strings.Builder
		sb.WriteString("[\n")
		last := 0
		for tid := 1; tid <= nThreads; tid++ {
			spans[tid] = genSpans(rng, 0, 1000, 1, nil)
			for _, s := range spans[tid] {
				fmt.Fprintf(&sb, `{"name": "S", "ph": "X", "ts": %d, "dur": %d, "pid": 1, "tid": %d},`+"\n", s.start, s.end-s.start, tid)
				last = max(last, s.start)
			}
		}
		var steps []flowStepGen
		free := rng.Perm(nThreads) // one flow event per thread
		for flow := 1; len(free) >= 2 && flow <= 3; flow++ {
			n := min(2+rng.IntN(3), len(free))
			ts := 1 + 2*rng.IntN(100)
			for i := range n {
				ph := byte('t')
				switch i {
				case 0:
					ph = 's'
				case n - 1:
					ph = 'f'
				}
				steps = append(steps, flowStepGen{flow: flow, tid: free[i] + 1, ts: ts, ph: ph, bpE: ph != 's' && rng.IntN(2) == 0})
				ts += 2 * (1 + rng.IntN(150))
			}
			free = free[n:]
		}
		for _, s := range steps {
			bp := ""
			if s.bpE {
				bp = `"bp": "e", `
			}
			fmt.Fprintf(&sb, `{"name": "msg", "cat": "ipc", "ph": "%c", %s"id": %d, "ts": %d, "pid": 1, "tid": %d},`+"\n", s.ph, bp, s.flow, s.ts, s.tid)
			last = max(last, s.ts)
		}
		text := strings.TrimSuffix(sb.String(), ",\n") + "\n]\n"
		h := analyzeText(t, text)

		var want []stateAt
		const us = 1000
		for i, s := range steps {
			end, bound := boundEnd(spans[s.tid], s.ts, s.ph == 's' || s.bpE)
			hold := func(attr string, v core.Value) {
				path := fmt.Sprintf("Threads/1:%d/%s", s.tid, attr)
				want = append(want, at(path, core.Time(s.ts*us), v))
				if !bound {
					want = append(want, at(path, core.Time(last*us), v))
					return
				}
				want = append(want, at(path, core.Time(end*us-1), v), at(path, core.Time(end*us), core.Null()))
			}
			label := fmt.Sprintf("ipc/msg#%d", s.flow)
			if s.ph != 's' {
				prev := steps[i-1]
				hold(core.AttrFlowIn, core.String(fmt.Sprintf("%s from 1:%d at %d", label, prev.tid, prev.ts*us)))
			}
			if s.ph != 'f' {
				hold(core.AttrFlowOut, core.String(label))
			}
		}
		n := len(want)
		checkStates(t, h, want)
		if t.Failed() {
			t.Fatalf("%d checks on trace:\n%s", n, text)
		}
	}
}

// boundEnd returns the end of the slice a flow event at ts binds to: the
// innermost slice open at ts (enclosing), else the first slice beginning
// after ts; ok is false when there is none.
func boundEnd(slices []span, ts int, enclosing bool) (int, bool) {
	if enclosing {
		best := -1
		for i, s := range slices {
			if s.start < ts && ts < s.end && (best < 0 || s.start > slices[best].start) {
				best = i
			}
		}
		if best >= 0 {
			return slices[best].end, true
		}
	}
	best := -1
	for i, s := range slices {
		if s.start > ts && (best < 0 || s.start < slices[best].start) {
			best = i
		}
	}
	if best < 0 {
		return 0, false
	}
	return slices[best].end, true
}

// analyzeText runs the analysis over a trace given as text.
func analyzeText(t *testing.T, text string) core.History {
	t.Helper()
	src, err := chrome.Open(chrometest.WriteTemp(t, text), chrome.Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	return sourcetest.Analyze(t, src, func(s core.StateSink) sourcetest.Analysis { return NewAnalysis(s) })
}
