package history

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// TestFirstNullsStayOutOfTheWay: keys appear one after the other, as
// threads do in a trace, each null until then (nulls.go). A query for two
// keys at the trace's start reads a path of the tree, not one node per
// R-tree (before the first nulls were held back: one per R-tree loaded
// while the keys appeared), whether the nulls go in one group or many;
// the answers match the reference.
func TestFirstNullsStayOutOfTheWay(t *testing.T) {
	rng := coretest.Rand(t)
	for _, group := range []int{nullGroupLen, 700} {
		t.Run(fmt.Sprint("group=", group), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "index")
			b, err := Create(path, 0, Options{})
			if err != nil {
				t.Fatal(err)
			}
			b.nullGroup = group
			mem := core.NewMemHistory(0)
			const keys = 6000
			var ks []core.Key
			var now core.Time
			for i := range keys {
				k := b.Attributes().AddPath("Threads", fmt.Sprint(i), "Status")
				mem.Attributes().AddPath("Threads", fmt.Sprint(i), "Status")
				ks = append(ks, k)
				// Each new key, then a burst of changes of the keys so far.
				for j := range 40 {
					now += core.Time(1 + rng.IntN(50))
					key := ks[len(ks)-1]
					if j > 0 {
						key = ks[rng.IntN(len(ks))]
					}
					v := core.Int32(int32(rng.IntN(5)))
					if err := b.Modify(key, now, v); err != nil {
						t.Fatal(err)
					}
					mem.Modify(key, now, v)
				}
			}
			if err := b.Close(now + 1); err != nil {
				t.Fatal(err)
			}
			mem.Close(now + 1)
			tr := openChecked(t, path, OpenOptions{})
			for _, pair := range [][]core.Key{{ks[10], ks[11]}, {ks[keys/2], ks[keys/2+1]}, {ks[keys-2], ks[keys-1]}} {
				var got []core.Interval
				st, err := tr.Query2DTimes(bg, pair, []core.Time{0}, func(iv core.Interval) bool {
					got = append(got, iv)
					return true
				})
				if err != nil {
					t.Fatal(err)
				}
				var want []core.Interval
				mem.Query2DTimes(bg, pair, []core.Time{0}, func(iv core.Interval) bool {
					want = append(want, iv)
					return true
				})
				core.SortIntervals(got)
				core.SortIntervals(want)
				if !slices.Equal(got, want) {
					t.Fatalf("keys %v at 0: %v, want %v", pair, got, want)
				}
				if st.NodesRead > 2*tr.Info().Depth {
					t.Errorf("keys %v at 0: %d nodes read, tree of depth %d and %d nodes", pair, st.NodesRead, tr.Info().Depth, tr.Info().Nodes)
				}
			}
		})
	}
}
