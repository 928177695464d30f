package cli_test

import (
	"encoding/json"
	"github.com/tracetui/tracetui/core/coretest"
	"path/filepath"
	"strings"
	"testing"
)

// The committed pair of perf.data profiles (ingest/query/diff's testdata).
const (
	baseProfile = "../query/diff/testdata/base.data"
	newProfile  = "../query/diff/testdata/new.data"
)

// calltreeNode is a node of `calltree --json`.
type calltreeNode struct {
	Name     string          `json:"function"`
	Self     int64           `json:"self_ns"`
	Children []*calltreeNode `json:"children"`
}

// selfPaths runs `calltree --json` on path and flattens it: self samples
// by call path "outer;...;leaf".
func selfPaths(t *testing.T, path string) map[string]int64 {
	t.Helper()
	code, out, errOut := runCLI(t, "calltree", "--json", path)
	if code != 0 {
		t.Fatalf("calltree %s: exit %d: %s", path, code, errOut)
	}
	var root calltreeNode
	if err := json.Unmarshal([]byte(out), &root); err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	var walk func(n *calltreeNode, prefix string)
	walk = func(n *calltreeNode, prefix string) {
		for _, c := range n.Children {
			if c.Self > 0 {
				got[prefix+c.Name] += c.Self
			}
			walk(c, prefix+c.Name+";")
		}
	}
	walk(&root, "")
	return got
}

// TestCLIDiffSamples: `diff --calltree --json` of two perf.data profiles
// says its call tree is in samples, and its rows are `calltree --json`
// of each side, path by path (every path that has samples on one side,
// none left out with --top 10000); the text names samples, not time.
func TestCLIDiffSamples(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	base, next := selfPaths(t, baseProfile), selfPaths(t, newProfile)
	code, out, errOut := runCLI(t, "diff", "--json", "--calltree", "--top", "10000", baseProfile, newProfile)
	if code != 0 {
		t.Fatalf("diff: exit %d: %s", code, errOut)
	}
	var r struct {
		Unit     string `json:"calltree_unit"`
		CallTree []struct {
			Path      string `json:"path"`
			BaseSelf  int64  `json:"base_self"`
			NewSelf   int64  `json:"new_self"`
			DeltaSelf int64  `json:"delta_self"`
		} `json:"calltree"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Unit != "samples" {
		t.Errorf("calltree_unit %q, want samples", r.Unit)
	}
	seen := map[string]bool{}
	for _, p := range r.CallTree {
		if p.BaseSelf != base[p.Path] || p.NewSelf != next[p.Path] || p.DeltaSelf != p.NewSelf-p.BaseSelf || seen[p.Path] {
			t.Fatalf("%+v: calltree says base %d, new %d (or the path is twice)", p, base[p.Path], next[p.Path])
		}
		seen[p.Path] = true
	}
	for _, m := range []map[string]int64{base, next} {
		for k := range m {
			if !seen[k] {
				t.Fatalf("path %q left out", k)
			}
		}
	}
	if len(seen) < 20 {
		t.Fatalf("%d call paths", len(seen))
	}
	code, out, errOut = runCLI(t, "diff", "--calltree", "--top", "3", baseProfile, newProfile)
	if code != 0 || !strings.Contains(out, "self samples per call path") {
		t.Fatalf("diff text: exit %d: %s%s", code, out, errOut)
	}
}

// TestCLIDiffThreads: --base-tids and --new-tids compare threads; a
// thread with itself is one row of zeros named by both sides; one
// without the other, or a bad list, is a usage error.
func TestCLIDiffThreads(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	trace := filepath.Join(coretest.SharedTraces(t), "ctf", "bug446190")
	code, out, errOut := runCLI(t, "diff", "--json", "--base-tids", "482", "--new-tids", "482", trace, trace)
	if code != 0 {
		t.Fatalf("diff: exit %d: %s", code, errOut)
	}
	var r struct {
		Base    string `json:"base"`
		Threads []struct {
			Name    string `json:"name"`
			BaseNS  int64  `json:"base_ns"`
			DeltaNS int64  `json:"delta_ns"`
		} `json:"threads"`
		IRQs []any `json:"irqs"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Threads) != 1 || r.Threads[0].BaseNS == 0 || r.Threads[0].DeltaNS != 0 || !strings.HasSuffix(r.Threads[0].Name, " 482 vs "+strings.Split(r.Threads[0].Name, " vs ")[0]) ||
		len(r.IRQs) != 0 || !strings.HasSuffix(r.Base, " threads 482") {
		t.Fatalf("thread 482 with itself: %s", out)
	}
	for _, args := range [][]string{{"--base-tids", "482"}, {"--base-tids", "a", "--new-tids", "1"}} {
		if code, _, errOut := runCLI(t, append(append([]string{"diff"}, args...), trace, trace)...); code != 2 {
			t.Errorf("diff %v: exit %d, want 2: %s", args, code, errOut)
		}
	}
}
