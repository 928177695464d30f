package index

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// chromeTrace writes a one-event Chrome trace at path, its event at ts (so two calls give two versions of the trace).
func chromeTrace(t *testing.T, path string, ts int) {
	t.Helper()
	must(t, os.WriteFile(path, []byte(`[{"name":"a","ph":"X","ts":`+strconv.Itoa(ts)+`,"dur":2,"pid":1,"tid":1}]`), 0o644))
}

// cacheFiles lists the base names in the cache directory, of the given
// kind ("" for all).
func cacheFiles(t *testing.T, dir, kind string) []string {
	t.Helper()
	list, err := ListCache(dir)
	must(t, err)
	var names []string
	for _, c := range list {
		if kind == "" || c.Kind == kind {
			names = append(names, filepath.Base(c.Path))
		}
	}
	slices.Sort(names)
	return names
}

// TestBuildRemovesSupersededIndex: rebuilding a changed trace removes its
// previous index, and leaves other traces' indexes (issue 18: every change
// left the old full-size index behind).
func TestBuildRemovesSupersededIndex(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("TRACETUI_CACHE_MAX", "0")
	t.Setenv("TRACETUI_CACHE_MAX_AGE", "0")
	ctx := context.Background()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	chromeTrace(t, a, 1)
	chromeTrace(t, b, 1)
	open := func(p string) string {
		tr, err := Open(ctx, p, Options{})
		must(t, err)
		defer tr.Close()
		return tr.Info().Index
	}
	ia1, ib := open(a), open(b)
	chromeTrace(t, a, 3)
	ia2 := open(a)
	if ia1 == ia2 {
		t.Fatal("a changed trace kept its index name")
	}
	cache, _ := CacheDir()
	got := cacheFiles(t, cache, "index")
	for _, want := range []string{filepath.Base(ia2), filepath.Base(ib)} {
		if !slices.Contains(got, want) {
			t.Errorf("cache lost %s: %v", want, got)
		}
	}
	if slices.Contains(got, filepath.Base(ia1)) {
		t.Errorf("superseded index %s kept: %v", filepath.Base(ia1), got)
	}
}

// TestPruneStaleLeftovers: temporary and lock files are removed only when
// older than staleAfter and held by no process.
func TestPruneStaleLeftovers(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	old := now.Add(-2 * staleAfter)
	write := func(name string, mtime time.Time) string {
		p := filepath.Join(dir, name)
		must(t, os.WriteFile(p, []byte("x"), 0o644))
		must(t, os.Chtimes(p, mtime, mtime))
		return p
	}
	write(".t-0123.tti.tmp-aa", old)
	write(".t-0123.tti.evidx-entries-1", old)
	write("t-0123.tti.lock", old)
	write(".t-4567.tti.tmp-bb", now)
	write("t-4567.tti.lock", now)
	write("notes.txt", old)
	held := write("t-89ab.tti.lock", old)
	f, err := os.Open(held)
	must(t, err)
	defer f.Close()
	must(t, syscall.Flock(int(f.Fd()), syscall.LOCK_EX))

	removed, err := PruneCache(dir, "", CacheBounds{}, now)
	must(t, err)
	want := []string{".t-4567.tti.tmp-bb", "notes.txt", "t-4567.tti.lock", "t-89ab.tti.lock"}
	if got := cacheFiles(t, dir, ""); !slices.Equal(got, want) {
		t.Errorf("after pruning: %v, want %v (removed %d)", got, want, len(removed))
	}
}

// TestPruneBounds: beyond the size or age bound the oldest indexes go
// first, never the one kept.
func TestPruneBounds(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx := context.Background()
	dir := t.TempDir()
	var indexes []string
	for i, name := range []string{"a.json", "b.json", "c.json"} {
		p := filepath.Join(dir, name)
		chromeTrace(t, p, 1)
		tr, err := Open(ctx, p, Options{})
		must(t, err)
		indexes = append(indexes, tr.Info().Index)
		tr.Close()
		at := time.Now().Add(time.Duration(i-10) * time.Hour)
		must(t, os.Chtimes(indexes[i], at, at))
	}
	cache, _ := CacheDir()
	st, err := os.Stat(indexes[0])
	must(t, err)
	now := time.Now()
	// Room for two: the oldest goes.
	_, err = PruneCache(cache, "", CacheBounds{MaxBytes: 2*st.Size() + st.Size()/2}, now)
	must(t, err)
	if _, err := os.Stat(indexes[0]); err == nil {
		t.Error("size bound: the oldest index is kept")
	}
	for _, p := range indexes[1:] {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("size bound removed %s", filepath.Base(p))
		}
	}
	// The kept index survives even alone beyond the bound; the others go.
	_, err = PruneCache(cache, indexes[1], CacheBounds{MaxBytes: 1}, now)
	must(t, err)
	if got := cacheFiles(t, cache, "index"); !slices.Equal(got, []string{filepath.Base(indexes[1])}) {
		t.Errorf("after pruning to 1 byte keeping %s: %v", filepath.Base(indexes[1]), got)
	}
	// Age: last used 9 hours ago, bound 8 hours.
	_, err = PruneCache(cache, "", CacheBounds{MaxAge: 8 * time.Hour}, now)
	must(t, err)
	if _, err := os.Stat(indexes[1]); err == nil {
		t.Error("age bound: an index unused for 9 hours is kept with an 8-hour bound")
	}
}

func TestCacheBoundsFromEnv(t *testing.T) {
	cases := []struct {
		max, age string
		want     CacheBounds
		bad      bool
	}{
		{"", "", CacheBounds{defaultCacheMax, defaultCacheMaxAge}, false},
		{"500M", "30d", CacheBounds{500 << 20, 30 * 24 * time.Hour}, false},
		{"0", "0", CacheBounds{}, false},
		{"1024", "12h", CacheBounds{1024, 12 * time.Hour}, false},
		{"-1", "", CacheBounds{}, true},
		{"99999999999T", "", CacheBounds{}, true},
		{"", "-3d", CacheBounds{}, true},
		{"", "soon", CacheBounds{}, true},
	}
	for _, c := range cases {
		t.Setenv("TRACETUI_CACHE_MAX", c.max)
		t.Setenv("TRACETUI_CACHE_MAX_AGE", c.age)
		got, err := CacheBoundsFromEnv()
		if (err != nil) != c.bad || (!c.bad && got != c.want) {
			t.Errorf("max %q age %q: %+v, %v", c.max, c.age, got, err)
		}
	}
}
