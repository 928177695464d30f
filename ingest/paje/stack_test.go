package paje_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/ingest/paje"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// stackDefs adds SetState and ResetState to paje.MinimalDefs, and a second
// state type.
const stackDefs = paje.MinimalDefs + `%EventDef PajeSetState 5
% Time date
% Type string
% Container string
% Value string
%EndEventDef
%EventDef PajeResetState 6
% Time date
% Type string
% Container string
%EndEventDef
1 MT CT "Mode"
2 0 p2 CT 0 "p2"
`

// stackOp is one state event of a generated trace.
type stackOp struct {
	kind      paje.EventKind
	t         int // milliseconds
	typ, cont string
	value     string
}

func (o stackOp) line() string {
	secs := fmt.Sprintf("%d.%03d", o.t/1000, o.t%1000)
	switch o.kind {
	case paje.EvPushState:
		return fmt.Sprintf("3 %s %s %s %s\n", secs, o.typ, o.cont, o.value)
	case paje.EvPopState:
		return fmt.Sprintf("4 %s %s %s\n", secs, o.typ, o.cont)
	case paje.EvSetState:
		return fmt.Sprintf("5 %s %s %s %s\n", secs, o.typ, o.cont, o.value)
	default:
		return fmt.Sprintf("6 %s %s %s\n", secs, o.typ, o.cont)
	}
}

// referenceStacks is the brute-force model of the state analysis's
// stacks: after every event it writes the top and every depth ever
// reached, as the analysis did before it wrote only what changed.
func referenceStacks(ops []stackOp) *core.MemHistory {
	h := core.NewMemHistory(0)
	tree := h.Attributes()
	type stack struct {
		vals   []string
		depths []core.Key
		top    core.Key
		main   bool
	}
	stacks := map[string]*stack{}
	primary := map[string]string{}
	names := map[string]string{"ST": "State", "MT": "Mode"}
	for _, o := range ops {
		t := core.Time(o.t) * 1_000_000
		st, ok := stacks[o.cont+"/"+o.typ]
		if !ok {
			st = &stack{}
			if _, has := primary[o.cont]; !has {
				primary[o.cont] = o.typ
				st.main, st.top = true, tree.AddPath(core.AttrThreads, o.cont)
			} else {
				st.top = tree.AddPath(core.AttrThreads, o.cont, core.AttrStates, names[o.typ])
			}
			stacks[o.cont+"/"+o.typ] = st
		}
		switch o.kind {
		case paje.EvPushState:
			st.vals = append(st.vals, o.value)
		case paje.EvPopState:
			if len(st.vals) == 0 {
				continue
			}
			st.vals = st.vals[:len(st.vals)-1]
		case paje.EvSetState:
			st.vals = append(st.vals[:0], o.value)
		case paje.EvResetState:
			st.vals = st.vals[:0]
		}
		at := func(d int) core.Value {
			if d >= 0 && d < len(st.vals) {
				return core.String(st.vals[d])
			}
			return core.Null()
		}
		h.Modify(st.top, t, at(len(st.vals)-1))
		if !st.main {
			continue
		}
		for len(st.depths) < len(st.vals) {
			st.depths = append(st.depths, tree.AddPath(core.AttrThreads, o.cont, core.AttrCallStack, fmt.Sprint(len(st.depths)+1)))
		}
		for d, k := range st.depths {
			h.Modify(k, t, at(d))
		}
	}
	return h
}

// stackIntervals lists the intervals of the stack attributes (rows,
// CallStack/<d>, States/<type>) as comparable text.
func stackIntervals(h *core.MemHistory) []string {
	tree := h.Attributes()
	var out []string
	for _, iv := range h.Intervals() {
		p := tree.Path(iv.Key)
		if !strings.HasPrefix(p, core.AttrThreads+"/") || strings.HasSuffix(p, "/"+core.AttrExecName) || strings.HasSuffix(p, "/"+core.AttrPID) {
			continue
		}
		if rest := strings.TrimPrefix(p, core.AttrThreads+"/"); strings.Count(rest, "/") == 1 {
			continue // CallStack or States themselves
		}
		out = append(out, fmt.Sprintf("%s|%d|%d|%s", p, iv.Start, iv.End, iv.Value))
	}
	slices.Sort(out)
	return out
}

// TestStacksAgainstReference runs random push/pop/set/reset sequences on
// two containers and two state types through the reader and the analysis,
// and compares every stack attribute's intervals with the brute-force
// model.
func TestStacksAgainstReference(t *testing.T) {
	rng := coretest.Rand(t)
	for round := range 20 {
		var ops []stackOp
		var text strings.Builder
		text.WriteString(stackDefs)
		tm := 0
		for range 1 + rng.IntN(200) {
			tm += rng.IntN(3) // equal times too
			o := stackOp{t: tm, typ: []string{"ST", "MT"}[rng.IntN(2)], cont: []string{"p1", "p2"}[rng.IntN(2)],
				value: fmt.Sprint("v", rng.IntN(4))}
			switch r := rng.IntN(10); {
			case r < 5:
				o.kind = paje.EvPushState
			case r < 8:
				o.kind = paje.EvPopState
			case r < 9:
				o.kind = paje.EvSetState
			default:
				o.kind = paje.EvResetState
			}
			ops = append(ops, o)
			text.WriteString(o.line())
		}
		src, err := paje.Open(paje.WriteTrace(t, text.String()), paje.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := stackIntervals(analyze(t, src))
		src.Close()
		ref := referenceStacks(ops)
		ref.Close(core.Time(tm) * 1_000_000)
		if want := stackIntervals(ref); !slices.Equal(got, want) {
			t.Fatalf("round %d: stack intervals differ from the reference\n%s\ntrace:\n%s", round, diff(got, want), text.String())
		}
	}
}

// deepPushes returns a trace of n nested pushes on one container, then n
// pops.
func deepPushes(n int) string {
	var b strings.Builder
	b.WriteString(paje.MinimalDefs)
	for i := range n {
		fmt.Fprintf(&b, "3 %d.%06d ST p1 s%d\n", 1+i/1_000_000, i%1_000_000, i)
	}
	for i := range n {
		fmt.Fprintf(&b, "4 %d.%06d ST p1\n", 1+(n+i)/1_000_000, (n+i)%1_000_000)
	}
	return b.String()
}

// BenchmarkDeepPushes reads and analyses 20 000 nested pushes and their
// pops (issue 18: 14 s when every push rewrote the whole stack).
//
//	go test ./ingest/paje -run '^$' -bench DeepPushes -benchtime 3x
func BenchmarkDeepPushes(b *testing.B) {
	path := paje.WriteTrace(b, deepPushes(20_000))
	for range b.N {
		src, err := paje.Open(path, paje.Options{})
		if err != nil {
			b.Fatal(err)
		}
		analyze(b, src)
		src.Close()
	}
}

// TestOpenCancelled: paje.Open's first pass honours its context.
func TestOpenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := paje.Open(paje.WriteTrace(t, deepPushes(10)), paje.Options{Context: ctx}); !errors.Is(err, context.Canceled) {
		t.Errorf("Open with a cancelled context = %v, want context.Canceled", err)
	}
}
