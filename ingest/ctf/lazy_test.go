package ctf

import (
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/gen"
)

// TestLazyEventClasses: a reader given the index's metadata compiles no
// event class at open, and only those of the events it reads; one that
// parses the text compiles them all.
func TestLazyEventClasses(t *testing.T) {
	dirs := map[string]string{"generated": filepath.Join(t.TempDir(), "gen")}
	if _, err := gen.Write(dirs["generated"], gen.Config{Threads: 10, CPUs: 2, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if d := coretest.SharedDir(); d != "" {
		dirs["bug446190"] = filepath.Join(d, "traces", "ctf", "bug446190")
	}
	ready := func(r *Reader) (n, of int) {
		for _, tr := range r.traces {
			for _, sp := range tr.plan.streams {
				for _, ep := range sp.events {
					if ep.ready {
						n++
					}
					of++
				}
			}
		}
		return n, of
	}
	for name, dir := range dirs {
		full, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if n, of := ready(full); n != of {
			t.Errorf("%s: %d of %d classes compiled at open from the text", name, n, of)
		}
		state := full.IndexState()
		full.Close()
		r, err := OpenOptions(dir, Options{Pages: true, Metadata: state})
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := ready(r); n != 0 {
			t.Errorf("%s: %d classes compiled at open from the index's metadata", name, n)
		}
		seen := map[int]bool{}
		for range 50 {
			ev, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			seen[ev.Class.ID] = true
		}
		// Each stream has decoded its next event, not yet returned.
		if n, of := ready(r); n < len(seen) || n > len(seen)+len(r.streams) || n == of {
			t.Errorf("%s: %d classes compiled after reading events of %d (of %d; %d streams)", name, n, len(seen), of, len(r.streams))
		}
		r.Close()
	}
}
