package tui

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/gen"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/index/pstree"
	"github.com/tracetui/tracetui/ingest/trace"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// checkStoredTree opens path and fails unless the Control Flow tree built
// from the process tree stored with the index equals the one built from
// the whole-trace query (same rows, labels, order, parents, expansion).
func checkStoredTree(t *testing.T, path string) {
	t.Helper()
	ctx := context.Background()
	tr, err := trace.Open(ctx, path, index.Options{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer tr.Close()
	rows := tr.ControlFlowRows()
	if rows == nil {
		t.Fatalf("%s: no process tree stored with the index", path)
	}
	if got, want := rows.Attributes(), tr.History().Attributes().Len(); got != want {
		t.Fatalf("%s: the stored rows describe %d attributes, the index has %d: they would never be used", path, got, want)
	}
	stored, err := frame.BuildControlFlow(ctx, tr.History(), rows)
	if err != nil {
		t.Fatal(err)
	}
	queried, err := frame.BuildControlFlow(ctx, tr.History(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rowLabels(stored), rowLabels(queried); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: the stored process tree gives %d rows %v, the query %d rows %v", path, len(got), got, len(want), want)
	}
}

// rowLabels lists a tree's rows in depth-first order: depth, label and
// the rest of the row.
func rowLabels(rt *frame.RowTree) []string {
	var out []string
	for i := range int32(rt.Len()) {
		n := rt.Node(i)
		out = append(out, fmt.Sprintf("%d:%s tid=%q kind=%d key=%d thread=%d parent=%d end=%d expanded=%v", n.Depth, n.Label, n.Tid, n.Kind, n.Key, n.Thread, n.Parent, n.End, n.Expanded))
	}
	return out
}

// TestStoredTreeOnTestdata compares the two trees on the project's sample
// traces of every format (processes without leader, tracks, variables,
// call stacks).
func TestStoredTreeOnTestdata(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	for _, p := range []string{
		"chrome/catapult-tracks.json", "chrome/catapult-phases.json", "chrome/clang-ftime-trace.json",
		"chrome/bazel-profile.json", "chrome/ninjatracing.json",
		"paje/g5k-variables.paje", "paje/pajeng-nested.paje",
		"ftrace/tracefs-trace-tgid.txt", "ftrace/trace-cmd-report.txt", "ftrace/rec-tiny.txt",
	} {
		checkStoredTree(t, filepath.Join("..", "testdata", p))
	}
}

// TestStoredTreeOnGenerated compares the two trees on generated kernel
// traces of random sizes (seeded: TRACETUI_SEED replays a run).
func TestStoredTreeOnGenerated(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	r := coretest.Rand(t)
	for i := range 3 {
		dir := filepath.Join(t.TempDir(), "gen"+strconv.Itoa(i))
		cfg := gen.Config{Threads: 1 + r.IntN(60), CPUs: 1 + r.IntN(4), Seed: r.Uint64(), ForkInterval: 1 + r.Int64N(50_000)}
		if _, err := gen.Write(dir, cfg); err != nil {
			t.Fatal(err)
		}
		checkStoredTree(t, dir)
	}
}

// TestStoredTreeNotFitting: stored rows that do not describe the
// history's attribute tree (another index's) are ignored for the query.
func TestStoredTreeNotFitting(t *testing.T) {
	ctx := context.Background()
	h := frametest.NewDemoTrace().Hist
	want, err := frame.BuildControlFlow(ctx, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	other := frame.InMemoryRows(pstree.EncodeRows([]pstree.Row{{Label: "stranger 1", TIDLen: 1, Key: 1 << 30, Thread: 1 << 30, Parent: -1}}, 1<<30))
	got, err := frame.BuildControlFlow(ctx, h, other)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rowLabels(got), rowLabels(want)) {
		t.Errorf("with another index's rows: %v, want %v", rowLabels(got), rowLabels(want))
	}
}
