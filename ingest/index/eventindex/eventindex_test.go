package eventindex

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// build indexes src with checkpoints every k events and returns the
// index bytes.
func build(t testing.TB, src core.Source, k int) []byte {
	t.Helper()
	w, err := NewWriter(t.TempDir(), "", k)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for {
		if _, err := w.Next(src); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	size, r, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(b)) != size {
		t.Fatalf("Finish said %d bytes, read %d", size, len(b))
	}
	return b
}

var class = &core.EventClass{ID: 0, Name: "ev", Fields: []string{"i"}}

// randomEvents returns n events with non-decreasing times and many ties.
func randomEvents(r interface{ IntN(int) int }, n int) []core.Event {
	evs := make([]core.Event, n)
	t := core.Time(1000)
	for i := range evs {
		if r.IntN(3) > 0 {
			t += core.Time(r.IntN(50))
		}
		evs[i] = core.Event{Time: t, CPU: int32(r.IntN(4)), Class: class, Fields: []core.Field{{Kind: core.FieldInt, Int: int64(i)}}}
	}
	return evs
}

// randomIndex indexes up to 3000 random events with checkpoints every k
// events (random) and opens the index.
func randomIndex(t *testing.T, r interface{ IntN(int) int }) (*Index, []core.Event, int) {
	t.Helper()
	k := 1 + r.IntN(70)
	evs := randomEvents(r, r.IntN(3000))
	raw := build(t, coretest.NewSliceSource(core.SourceInfo{}, evs), k)
	x, err := Open(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatalf("%d events every %d: %v", len(evs), k, err)
	}
	return x, evs, k
}

// TestSeekMatchesBruteForce reaches random ranks and times through the
// index and compares with a linear reading of the events.
func TestSeekMatchesBruteForce(t *testing.T) {
	r := coretest.Rand(t)
	for round := range 20 {
		x, evs, k := randomIndex(t, r)
		n := len(evs)
		if x.Events() != int64(n) || x.Every() != int64(k) {
			t.Fatalf("round %d: events %d every %d, want %d %d", round, x.Events(), x.Every(), n, k)
		}
		src := coretest.NewSliceSource(core.SourceInfo{}, evs)
		s := NewSeeker(x, src)
		for range 50 {
			if n == 0 {
				break
			}
			rank := int64(r.IntN(n))
			if err := s.SeekRank(rank); err != nil {
				t.Fatal(err)
			}
			ev, err := src.Next()
			if err != nil || ev.Fields[0].Int != rank {
				t.Fatalf("round %d (n=%d k=%d): SeekRank(%d) then Next = %v, %v", round, n, k, rank, ev, err)
			}
		}
		for range 50 {
			at := core.Time(900 + r.IntN(n*30+200))
			want := int64(n)
			for i, ev := range evs {
				if ev.Time >= at {
					want = int64(i)
					break
				}
			}
			got, err := s.RankAt(at)
			if err != nil || got != want {
				t.Fatalf("round %d (n=%d k=%d): RankAt(%d) = %d, %v; want %d", round, n, k, at, got, err, want)
			}
		}
	}
}

func TestOpenRefusesDamage(t *testing.T) {
	r := coretest.Rand(t)
	raw := build(t, coretest.NewSliceSource(core.SourceInfo{}, randomEvents(r, 500)), 16)
	if _, err := Open(bytes.NewReader(raw[:len(raw)-1]), int64(len(raw)-1)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("truncated: %v", err)
	}
	for _, off := range []int{0, 9, 13, 20, 30, 41, 57} {
		bad := bytes.Clone(raw)
		bad[off] ^= 0x40
		_, err := Open(bytes.NewReader(bad), int64(len(bad)))
		if err == nil {
			t.Errorf("flipped byte %d: opened", off)
		}
	}
	bad := bytes.Clone(raw)
	binary.LittleEndian.PutUint32(bad[8:], version+1)
	binary.LittleEndian.PutUint32(bad[56:], core.CRC32C(bad[:56]))
	if _, err := Open(bytes.NewReader(bad), int64(len(bad))); !errors.Is(err, ErrVersion) {
		t.Errorf("other version: %v, want ErrVersion", err)
	}
	// A blob offset pointing past the blob area is caught when read.
	bad = bytes.Clone(raw)
	binary.LittleEndian.PutUint64(bad[headerSize+8:], 1<<40)
	x, err := Open(bytes.NewReader(bad), int64(len(bad)))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := x.Checkpoint(0, nil); !errors.Is(err, ErrCorrupt) {
		t.Errorf("blob offset out of bounds: %v", err)
	}
}

func TestEmptyTrace(t *testing.T) {
	raw := build(t, coretest.NewSliceSource(core.SourceInfo{}, nil), 8)
	x, err := Open(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	s := NewSeeker(x, coretest.NewSliceSource(core.SourceInfo{}, nil))
	if got, err := s.RankAt(5); got != 0 || err != nil {
		t.Errorf("RankAt on empty = %d, %v", got, err)
	}
	if err := s.SeekRank(0); !errors.Is(err, ErrRange) {
		t.Errorf("SeekRank(0) on empty: %v", err)
	}
}

// FuzzOpen feeds arbitrary bytes to Open and every checkpoint read: errors
// are fine, panics and huge allocations are not.
func FuzzOpen(f *testing.F) {
	evs := []core.Event{{Time: 1, Class: class}, {Time: 2, Class: class}, {Time: 2, Class: class}}
	f.Add(build(f, coretest.NewSliceSource(core.SourceInfo{}, evs), 2))
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := Open(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return
		}
		for i := int64(0); i < x.Entries() && i < 64; i++ {
			x.Checkpoint(i, nil)
		}
		x.ForTime(1)
	})
}
