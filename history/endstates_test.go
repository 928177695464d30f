package history

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// endStatesFirst is a sink that ends the states, adds a section, then
// closes: what the index build does.
type endStatesFirst struct{ *Builder }

func (e endStatesFirst) Close(end core.Time) error {
	if err := e.EndStates(end); err != nil {
		return err
	}
	if v := e.Value(0); !v.IsNull() {
		return errors.New("Value after EndStates is not null")
	}
	if err := e.AddSection("rows", 3, strings.NewReader("abc")); err != nil {
		return err
	}
	return e.Builder.Close(end)
}

// TestEndStatesSameBytes: a build that ends the states before adding a
// section and closing writes the file a build that adds it and closes
// writes, pipelined or not.
func TestEndStatesSameBytes(t *testing.T) {
	r := coretest.Rand(t)
	s := randomScenario(r, 3*batchLen+r.IntN(batchLen), 1+r.IntN(2000))
	for _, seq := range []bool{false, true} {
		opts := Options{Layout: LayoutRSHT, BlockSize: 2048, MaxChildren: 8, sequential: seq}
		var files [][]byte
		for _, ended := range []bool{false, true} {
			path := filepath.Join(t.TempDir(), "index")
			b, err := Create(path, s.start, opts)
			if err != nil {
				t.Fatal(err)
			}
			if ended {
				s.replay(t, endStatesFirst{b})
			} else {
				if err := b.AddSection("rows", 3, strings.NewReader("abc")); err != nil {
					t.Fatal(err)
				}
				s.replay(t, b)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, data)
		}
		if !bytes.Equal(files[0], files[1]) {
			t.Fatalf("sequential %v: the build that ended the states first (%d bytes) differs from the other (%d bytes)", seq, len(files[1]), len(files[0]))
		}
	}
}

// TestEndStatesRefuses: after EndStates, a change, a second EndStates, a
// Close at another end and a Close after a new key fail, and nothing is
// left at the path.
func TestEndStatesRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		then func(b *Builder, k core.Key) error
	}{
		{"modify", func(b *Builder, k core.Key) error { return b.Modify(k, 20, core.Int32(2)) }},
		{"twice", func(b *Builder, _ core.Key) error { return b.EndStates(20) }},
		{"other end", func(b *Builder, _ core.Key) error { return b.Close(21) }},
		{"new key", func(b *Builder, _ core.Key) error {
			b.Attributes().AddPath("late")
			return b.Close(20)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "index")
			b, err := Create(path, 0, Options{BlockSize: 2048, MaxChildren: 4})
			if err != nil {
				t.Fatal(err)
			}
			k := b.Attributes().AddPath("k")
			if err := b.Modify(k, 10, core.Int32(1)); err != nil {
				t.Fatal(err)
			}
			if err := b.EndStates(5); !errors.Is(err, core.ErrTimeOrder) {
				t.Fatalf("EndStates before the last change: %v, want ErrTimeOrder", err)
			}
			if err := b.EndStates(20); err != nil {
				t.Fatal(err)
			}
			if err := tc.then(b, k); !errors.Is(err, ErrStatesEnded) {
				t.Fatalf("got %v, want ErrStatesEnded", err)
			}
			b.Abort()
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("index left at the path after Abort: %v", err)
			}
		})
	}
}
