package coretest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
)

func TestCheckTilingAcceptsATiling(t *testing.T) {
	CheckTiling(t, []core.Interval{
		{Key: 0, Start: 10, End: 19}, {Key: 0, Start: 20, End: 30},
		{Key: 1, Start: 10, End: 30},
	}, 2, 10, 30)
}

func TestCheckTilingRejectsGaps(t *testing.T) {
	for name, ivs := range map[string][]core.Interval{
		"gap":     {{Key: 0, Start: 10, End: 18}, {Key: 0, Start: 20, End: 30}},
		"overlap": {{Key: 0, Start: 10, End: 20}, {Key: 0, Start: 20, End: 30}},
		"short":   {{Key: 0, Start: 10, End: 29}},
		"late":    {{Key: 0, Start: 11, End: 30}},
	} {
		ft := &fakeT{TB: t}
		func() {
			defer func() { _ = recover() }()
			CheckTiling(ft, ivs, 1, 10, 30)
		}()
		if !ft.failed {
			t.Errorf("%s: CheckTiling accepted %v", name, ivs)
		}
	}
}

func TestSharedDirFromEnv(t *testing.T) {
	d := t.TempDir()
	if err := os.Mkdir(filepath.Join(d, "traces"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(SharedEnv, d)
	if got := SharedDir(); got != d {
		t.Errorf("SharedDir = %q, want %q", got, d)
	}
	t.Setenv(SharedEnv, filepath.Join(d, "missing"))
	if got := SharedDir(); got != "" {
		t.Errorf("SharedDir with a bad env = %q, want empty", got)
	}
}

// fakeT records Fatalf instead of stopping the real test.
type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(string, ...any) {
	f.failed = true
	panic("fatal")
}
