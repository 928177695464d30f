package index

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/ftrace"
)

// TestSeekOnly: the readers skip their first pass only when the build's
// warnings are all kept and none is a time jump.
func TestSeekOnly(t *testing.T) {
	warn := func(kinds ...string) IndexInfo {
		var in IndexInfo
		for _, k := range kinds {
			in.Warnings = append(in.Warnings, core.Warning{Kind: k})
		}
		in.IndexSummary.Warnings = int64(len(kinds))
		return in
	}
	cut := warn("skipped-line")
	cut.IndexSummary.Warnings = 5000
	for _, c := range []struct {
		name string
		in   IndexInfo
		want bool
	}{
		{"clean", warn(), true},
		{"skipped lines", warn("skipped-line", "discarded"), true},
		{"a time jump", warn("skipped-line", ftrace.WarnTimeJump), false},
		{"warnings summed up", warn(core.WarningMore), false},
		{"warnings cut", cut, false},
	} {
		if got := seekOnly(c.in); got != c.want {
			t.Errorf("%s: seekOnly = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestFtraceTableSkipsTheFirstPass: the event table of an indexed ftrace
// capture reads through a reader that skipped its first pass (it knows
// no event count), and its rows are the capture's events.
func TestFtraceTableSkipsTheFirstPass(t *testing.T) {
	src := filepath.Join(coretest.ModuleRoot(), "testdata", "ftrace", "rec-tiny.txt")
	b, err := os.ReadFile(src)
	must(t, err)
	trace := filepath.Join(t.TempDir(), "tiny.txt")
	must(t, os.WriteFile(trace, b, 0o644))
	x, r := tableReader(t, trace)
	if n := r.(*ftrace.Source).Events(); n != 0 {
		t.Errorf("the table's reader counted %d events: it ran the first pass", n)
	}
	full, err := ftrace.Open(trace, ftrace.Options{})
	must(t, err)
	defer full.Close()
	for i := range x.Info().Events {
		want, err := full.Next()
		must(t, err)
		w := want.Class.Name + string(full.AppendContents(nil, want))
		got, err := r.Next()
		must(t, err)
		if g := got.Class.Name + string(r.AppendContents(nil, got)); g != w || got.Time != want.Time {
			t.Fatalf("event %d: %d %s, want %d %s", i, got.Time, g, want.Time, w)
		}
	}
}
