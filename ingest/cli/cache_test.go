package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tracetui/tracetui/history/historytest"
)

// TestCLICacheListsAndCleans: `cache --json` lists an index with its
// trace; `cache --clean` removes a stale leftover and keeps the index.
func TestCLICacheListsAndCleans(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	trace := filepath.Join(t.TempDir(), "t.json")
	if err := os.WriteFile(trace, []byte(`[{"name":"a","ph":"X","ts":1,"dur":2,"pid":1,"tid":1}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "index", trace); code != 0 {
		t.Fatalf("index exited %d: %s", code, errOut)
	}
	type listing struct {
		Dir     string
		Files   []struct{ Path, Kind, Trace string }
		Removed []struct{ Path string }
	}
	run := func(args ...string) listing {
		code, out, errOut := runCLI(t, append([]string{"cache", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("cache %v exited %d: %s", args, code, errOut)
		}
		var l listing
		if err := json.Unmarshal([]byte(out), &l); err != nil {
			t.Fatalf("cache --json: %v\n%s", err, out)
		}
		return l
	}
	l := run()
	index := ""
	for _, f := range l.Files {
		if f.Kind == "index" && f.Trace == trace {
			index = f.Path
		}
	}
	if index == "" {
		t.Fatalf("cache does not list the index of %s: %+v", trace, l.Files)
	}
	stale := filepath.Join(l.Dir, "."+filepath.Base(index)+".tmp-0011")
	if err := os.WriteFile(stale, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	l = run("--clean")
	if len(l.Removed) != 1 || l.Removed[0].Path != stale {
		t.Errorf("cache --clean removed %+v, want only %s", l.Removed, stale)
	}
	if _, err := os.Stat(index); err != nil {
		t.Errorf("cache --clean removed the index: %v", err)
	}
	t.Setenv("TRACETUI_CACHE_MAX", "lots")
	if code, _, errOut := runCLI(t, "cache", "--clean"); code != 1 || errOut == "" {
		t.Errorf("cache --clean with TRACETUI_CACHE_MAX=lots: exit %d, stderr %q; want 1 and a message", code, errOut)
	}
}

// TestCLIQueryOnDamagedIndex: `query` meeting a damaged node in a cache
// index says it was removed and exits 1; the next `query` rebuilds and
// succeeds. With --index the message names the command that rebuilds it
// (issue 18: every run failed).
func TestCLIQueryOnDamagedIndex(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	trace := filepath.Join(t.TempDir(), "t.json")
	if err := os.WriteFile(trace, []byte(`[{"name":"a","ph":"X","ts":1,"dur":2,"pid":1,"tid":1},{"name":"b","ph":"X","ts":5,"dur":2,"pid":1,"tid":2}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	explicit := filepath.Join(t.TempDir(), "x.tti")
	for _, index := range []string{"", explicit} {
		args := []string{trace}
		if index != "" {
			args = append([]string{"--index", index}, args...)
		}
		if code, _, errOut := runCLI(t, append([]string{"index"}, args...)...); code != 0 {
			t.Fatalf("index %v exited %d: %s", args, code, errOut)
		}
		path := index
		if path == "" {
			found, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "tracetui", "*.tti"))
			if len(found) != 1 {
				t.Fatalf("cache holds %v, want one index", found)
			}
			path = found[0]
		}
		historytest.DamageNodes(t, path)
		query := append(append([]string{"query"}, args...), "*")
		code, _, errOut := runCLI(t, query...)
		want := "open the trace again to rebuild it"
		if index != "" {
			want = "rebuild it with 'tracetui index --index " + index + " " + trace + "'"
		}
		if code != 1 || !strings.Contains(errOut, "damaged") || !strings.Contains(errOut, want) {
			t.Errorf("%v on a damaged index: exit %d, stderr %q; want 1 and %q", query, code, errOut, want)
		}
		if index != "" {
			continue
		}
		if code, _, errOut = runCLI(t, query...); code != 0 {
			t.Errorf("%v after the damage was reported: exit %d, %s; want a rebuild", query, code, errOut)
		}
	}
}
