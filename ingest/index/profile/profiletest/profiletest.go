// Package profiletest builds a stored profile in memory from a source's
// sampled stacks, for tests and benchmarks of what reads profiles
// without building an index.
//
// It may import core, ingest/index/profile and the standard library.
package profiletest

import (
	"bytes"
	"io"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index/profile"
)

// FromSource reads the sampled stacks of src's events (from its current
// position) into a profile held in memory, as the index would store
// them; a source that is not a core.Stacker gives an empty one. It fails
// tb on an error.
func FromSource(tb testing.TB, src core.Source) *profile.Profile {
	tb.Helper()
	st, ok := src.(core.Stacker)
	if !ok {
		return profile.Empty()
	}
	w, err := profile.NewWriter("", "")
	if err != nil {
		tb.Fatal(err)
	}
	defer w.Close()
	for {
		ev, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatalf("reading the samples: %v", err)
		}
		w.AddEvent(ev, st)
	}
	size, r, err := w.Finish()
	if err != nil {
		tb.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := profile.Open(bytes.NewReader(b), size, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}
