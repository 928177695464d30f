package index

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
)

// TestDamagedSectionsGuarded flips bytes in the middle of each section of a
// kernel trace's cached index (the summaries included), opens it again
// and uses everything the opened index offers: every error must be
// ErrDamaged (never a raw checksum error), and once one is reported the
// cache entry must be gone, so the next open rebuilds it. It catches a
// method of the history that escapes the guard (the summary query did,
// through an embedded *history.Tree).
func TestDamagedSectionsGuarded(t *testing.T) {
	t.Run("ftrace", func(t *testing.T) {
		damageSections(t, filepath.Join("..", "..", "testdata", "ftrace", "rec-tiny.txt"), "summary")
	})
	t.Run("perfdata", func(t *testing.T) { // sampled stacks
		damageSections(t, filepath.Join("..", "perfdata", "testdata", "switch.perf"), sectionProfile)
	})
}

// damageSections damages each section of trace's index in turn; the
// index must have the section named want.
func damageSections(t *testing.T, trace, want string) {
	opts := openOpts(t)
	ctx := context.Background()
	ix, err := Open(ctx, trace, opts)
	must(t, err)
	path := ix.Info().Index
	type span struct{ off, n int64 }
	sections := map[string]span{}
	for _, name := range ix.Tree().Info().Sections {
		sec, err := ix.Tree().Section(name)
		must(t, err)
		_, off, n := sec.Outer()
		sections[name] = span{off, n}
	}
	ix.Close()
	if _, ok := sections[want]; !ok {
		t.Fatalf("the index of %s has no %s section (sections %v): the test needs one", trace, want, sections)
	}
	clean, err := os.ReadFile(path)
	must(t, err)
	for name, s := range sections {
		t.Run(name, func(t *testing.T) {
			raw := append([]byte(nil), clean...)
			for i := int64(0); i < 8 && i < s.n; i++ {
				raw[s.off+s.n/2+i-min(4, s.n/2)] ^= 0xa5
			}
			must(t, os.WriteFile(path, raw, 0o600))
			ix, err := Open(ctx, trace, opts)
			must(t, err)
			defer ix.Close()
			if ix.Built() {
				return // found at open and rebuilt: nothing damaged is read
			}
			reported := false
			use := func(what string, err error) {
				if err == nil {
					return
				}
				if !errors.Is(err, ErrDamaged) {
					t.Errorf("%s on a damaged %s section: %v, want ErrDamaged", what, name, err)
				}
				reported = true
			}
			exercise(ctx, ix, use)
			_, statErr := os.Stat(path)
			if reported && statErr == nil {
				t.Errorf("damage in %s reported, but the cache entry is kept: the next open would fail again", name)
			}
		})
		must(t, os.WriteFile(path, clean, 0o600))
	}
}

// exercise calls every query the opened index offers, passing each error
// to use.
func exercise(ctx context.Context, ix *Index, use func(what string, err error)) {
	h := ix.History()
	start, end := h.Bounds()
	keys := make([]core.Key, h.Attributes().Len())
	for i := range keys {
		keys[i] = core.Key(i)
	}
	all := func(core.Interval) bool { return true }
	for _, at := range []core.Time{start, start + (end-start)/2, end} {
		_, err := h.Full(ctx, at, all)
		use("Full", err)
		for _, k := range keys {
			_, _, err := h.Single(ctx, k, at)
			use("Single", err)
		}
	}
	_, err := h.Query2D(ctx, keys, start, end, all)
	use("Query2D", err)
	_, err = h.Query2DTimes(ctx, keys, []core.Time{start, end}, all)
	use("Query2DTimes", err)
	sz, ok := h.(core.Summarizer)
	if !ok {
		use("Summarizer", errors.New("the history offers no summaries"))
		return
	}
	for _, width := range []core.Time{1, (end - start) / 100, end - start} {
		_, _, err := sz.Summary(ctx, keys, start, end, max(width, 1), func(core.Key, core.SummaryRun) bool { return true })
		use("Summary", err)
	}
	ix.ControlFlowRows()
	p, err := ix.Profile()
	use("Profile", err)
	if err == nil {
		_, err := p.Count(ctx, start, end+1, nil)
		use("Profile.Count", err)
	}
	src, err := ix.OpenSource()
	use("OpenSource", err)
	if err == nil {
		for {
			if _, err := src.Next(); err != nil {
				if err != io.EOF {
					use("Next", err)
				}
				break
			}
		}
		src.Close()
	}
}
