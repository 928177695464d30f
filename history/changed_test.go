package history

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
)

// TestChangedUnderReader: an index truncated or rewritten while open
// never takes the process down nor answers wrongly. Truncated: the
// attribute tree's next read through the mapping faults (the probe's
// SIGBUS, `: > g.tti` under the browser), which reads as damage; without
// the fault handling this test dies of SIGBUS. Rewritten in place by
// another index: the next query sees another size and fails with
// ErrCorrupt, and the attribute tree then answers as absent instead of
// with the new bytes.
func TestChangedUnderReader(t *testing.T) {
	for _, how := range []string{"truncated", "rewritten"} {
		t.Run(how, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "tiny.tti")
			buildTiny(t, path, Options{})
			tree, err := Open(path, OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer tree.Close()
			if err := tree.Check(); err != nil {
				t.Fatal(err)
			}
			at := tree.Attributes()
			keys := at.Len()
			before := make([]string, keys)
			for k := range keys {
				before[k] = at.Path(core.Key(k))
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			start, end := tree.Bounds()
			query := func() error {
				_, err := tree.Query2D(context.Background(), []core.Key{0}, start, end, func(core.Interval) bool { return true })
				return err
			}
			if how == "truncated" {
				if err := os.Truncate(path, 0); err != nil {
					t.Fatal(err)
				}
			} else { // by another index, longer by a byte
				for i := range raw {
					raw[i] ^= 0xff
				}
				if err := os.WriteFile(path, append(raw, 0), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := query(); !errors.Is(err, ErrCorrupt) {
					t.Errorf("query after the file was rewritten: %v, want ErrCorrupt", err)
				}
			}
			for k := range keys {
				if p := at.Path(core.Key(k)); p != "" && p != before[k] {
					t.Errorf("key %d reads %q after the file was %s, was %q", k, p, how, before[k])
				}
			}
			if !errors.Is(at.Err(), ErrCorrupt) {
				t.Errorf("attribute tree's error after the file was %s: %v", how, at.Err())
			}
			if err := query(); !errors.Is(err, ErrCorrupt) {
				t.Errorf("query after the file was %s: %v, want ErrCorrupt", how, err)
			}
			if err := tree.Check(); err == nil {
				t.Errorf("Check passes on a %s index", how)
			}
		})
	}
}

// TestEndStatesCancelled: the end of the states, seconds long at millions
// of keys, stops when the build's context is cancelled.
func TestEndStatesCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	path := filepath.Join(t.TempDir(), "index")
	b, err := Create(path, 0, Options{Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	tr := b.Attributes()
	for i := range 100_000 {
		k := tr.AddPath("Threads", strconv.Itoa(i))
		if err := b.Modify(k, core.Time(i), core.Int32(int32(i))); err != nil {
			t.Fatal(err)
		}
	}
	cancel()
	if err := b.EndStates(100_000); !errors.Is(err, context.Canceled) {
		t.Errorf("EndStates after cancel: %v, want context.Canceled", err)
	}
	b.Abort()
	if _, err := os.Stat(path); err == nil {
		t.Error("a cancelled build left an index")
	}
}
