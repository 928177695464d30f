package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/history/historytest"
)

// fullQuery queries every attribute at the start of the trace.
func fullQuery(ix *Index) error {
	start, _ := ix.History().Bounds()
	_, err := ix.History().Full(context.Background(), start, func(core.Interval) bool { return true })
	return err
}

// TestDamagedNodeAtQueryTime: a damaged node met by a query (the index
// opened fine) gives ErrDamaged; in the cache the index is removed and the
// next open rebuilds it; an --index file is left and the message says the
// command that rebuilds it (issue 18: every run failed, nothing rebuilt).
func TestDamagedNodeAtQueryTime(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx := context.Background()
	trace := filepath.Join(t.TempDir(), "t.json")
	must(t, os.WriteFile(trace, []byte(`[{"name":"a","ph":"X","ts":1,"dur":2,"pid":1,"tid":1},{"name":"b","ph":"X","ts":5,"dur":2,"pid":1,"tid":2}]`), 0o644))
	for _, explicit := range []bool{false, true} {
		opts := Options{}
		if explicit {
			opts.IndexPath = filepath.Join(t.TempDir(), "x.tti")
		}
		ix, err := Open(ctx, trace, opts)
		must(t, err)
		path := ix.Info().Index
		ix.Close()
		historytest.DamageNodes(t, path)

		ix, err = Open(ctx, trace, opts)
		must(t, err)
		if ix.Built() {
			t.Fatalf("explicit=%v: the damage is in the header: the test must damage nodes only", explicit)
		}
		err = fullQuery(ix)
		if !errors.Is(err, ErrDamaged) || !errors.Is(err, history.ErrCorrupt) {
			t.Fatalf("explicit=%v: query on damaged nodes: %v, want ErrDamaged wrapping ErrCorrupt", explicit, err)
		}
		// This process still reads its open file; the error is stable.
		if again := fullQuery(ix); !errors.Is(again, ErrDamaged) {
			t.Errorf("explicit=%v: second query: %v", explicit, again)
		}
		ix.Close()
		_, statErr := os.Stat(path)
		if explicit {
			if want := "tracetui index --index " + path + " " + trace; !strings.Contains(err.Error(), want) {
				t.Errorf("--index: %q does not say %q", err, want)
			}
			if statErr != nil {
				t.Errorf("--index file removed: %v", statErr)
			}
			opts.Rebuild = true
		} else {
			if !strings.Contains(err.Error(), "open the trace again") {
				t.Errorf("cache: %q does not say how it is rebuilt", err)
			}
			if statErr == nil {
				t.Error("damaged cache index kept: the next open would fail again")
			}
		}
		ix, err = Open(ctx, trace, opts)
		must(t, err)
		if !ix.Built() {
			t.Errorf("explicit=%v: the next open did not rebuild", explicit)
		}
		if err := fullQuery(ix); err != nil {
			t.Errorf("explicit=%v: query after the rebuild: %v", explicit, err)
		}
		ix.Close()
	}
}
