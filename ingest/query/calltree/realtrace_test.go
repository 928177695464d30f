package calltree

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
	"github.com/tracetui/tracetui/ingest/states/callstack"
)

// glxgears traced with liblttng-ust-cyg-profile (shared traces), its
// addresses named by the mapping file beside it: main is the only
// outermost function and its total is the time the thread's own
// attribute (the outermost frame) is set; the calls of each function,
// summed over the tree, equal its func_entry events in the trace.
func TestRealTraceCygProfile(t *testing.T) {
	trace := filepath.Join(coretest.SharedTraces(t), "ctf", "cyg-profile", "glxgears-cyg-profile")
	open := func() *ctf.Reader {
		src, err := ctf.Open(trace)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { src.Close() })
		return src
	}
	h := sourcetest.Analyze(t, open(), func(s core.StateSink) sourcetest.Analysis { return quiet{callstack.New(s)} })
	r, warnings, err := callstack.LoadResolver(context.Background(), h, callstack.ResolverOptions{TracePath: trace})
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	th, ok := h.Attributes().Lookup("Threads/16073")
	if !ok {
		t.Fatal("no thread 16073")
	}
	root, err := Compute(context.Background(), h, Options{Threads: []core.Key{th},
		Label: func(_ core.Key, v core.Value) string { return r.Label("", v) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(root.Children) != 1 || root.Children[0].Name != "main" {
		t.Fatalf("outermost functions %v, want main only", names(root.Children))
	}
	start, end := h.Bounds()
	var running core.Time
	if _, err := h.Query2D(context.Background(), []core.Key{th}, start, end, func(iv core.Interval) bool {
		if !iv.Value.IsNull() {
			running += iv.Duration()
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if main := root.Children[0]; main.Total != running || main.Calls != 1 {
		t.Errorf("main: %d calls, total %d ns; want 1 call and the thread's running time %d ns", main.Calls, main.Total, running)
	}

	calls := map[string]int64{}
	var count func(n *Node)
	count = func(n *Node) {
		for _, c := range n.Children {
			calls[c.Name] += c.Calls
			count(c)
		}
	}
	count(root)
	entries := map[string]int64{}
	coretest.ForEachEvent(t, open(), func(ev *core.Event) {
		if strings.HasSuffix(ev.Class.Name, ":func_entry") {
			entries[r.Label("", core.Int64(ev.Field(ev.Class.FieldIndex("addr")).Int))]++
		}
	})
	if len(entries) < 10 {
		t.Fatalf("only %d functions entered", len(entries))
	}
	for name, n := range entries {
		if calls[name] != n {
			t.Errorf("%s: %d calls in the tree, %d func_entry events", name, calls[name], n)
		}
	}
}

// quiet gives the call stack analysis, which never warns, the warnings
// method sourcetest needs.
type quiet struct{ *callstack.Analysis }

func (quiet) Warnings() []core.Warning { return nil }

func names(nodes []*Node) []string {
	var out []string
	for _, n := range nodes {
		out = append(out, n.Name)
	}
	return out
}
