package ftrace

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
)

// TestIndexedSeekProperty checks that a reader opened Indexed (no first
// pass), sought to the checkpoints of a normal reader, replays the same
// events, on every sample whose first pass found no time jump (the only
// case the index lets it be used in).
func TestIndexedSeekProperty(t *testing.T) {
	rng := coretest.Rand(t)
	for _, name := range append(slices.Clone(samples), "rec-tiny") {
		path := filepath.Join(sampleDir, name+".txt")
		src, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		jumps := slices.ContainsFunc(src.Warnings(), func(w core.Warning) bool { return w.Kind == WarnTimeJump })
		src.Close()
		if jumps {
			continue
		}
		sourcetest.SeekPropertyOther(t, rng,
			func() (core.Source, error) { return Open(path, Options{}) },
			func() (core.Source, error) { return Open(path, Options{Indexed: true}) }, 1<<20)
	}
}

// TestIndexedSkipsTheFirstPass checks what an Indexed reader gives up:
// no warnings, no bounds, no event count.
func TestIndexedSkipsTheFirstPass(t *testing.T) {
	src, err := Open(filepath.Join(sampleDir, "garbled.txt"), Options{Indexed: true})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if w := src.Warnings(); len(w) != 0 || src.Events() != 0 || src.Info().End != 0 {
		t.Errorf("Indexed reader: warnings %v, events %d, end %d; want none before reading", w, src.Events(), src.Info().End)
	}
	if _, err := src.Next(); err != nil {
		t.Fatalf("Next: %v", err)
	}
	if w := src.Warnings(); len(w) != 0 {
		t.Errorf("Indexed reader warned while reading: %v", w)
	}
}
