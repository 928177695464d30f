package profile

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// given is a sample as the test gave it to the writer.
type given struct {
	t     core.Time
	tid   int64
	stack []string // leaf first
}

// randomSamples returns up to a few thousand samples of a few threads in
// time order (often several at one instant), stacks drawn from a few
// random paths over a few names (so paths share prefixes).
func randomSamples(r *rand.Rand) []given {
	names := make([]string, 1+r.IntN(12))
	for i := range names {
		names[i] = "f" + strconv.Itoa(i) + strings.Repeat("é", r.IntN(3))
	}
	stacks := make([][]string, 1+r.IntN(20))
	for i := range stacks {
		s := make([]string, r.IntN(8)) // some empty: not samples
		for j := range s {
			s[j] = names[r.IntN(len(names))]
		}
		stacks[i] = s
	}
	tids := make([]int64, 1+r.IntN(6))
	for i := range tids {
		tids[i] = r.Int64N(100) - 2
	}
	var out []given
	t := core.Time(r.Int64N(1000) - 500)
	for range r.IntN(3000) {
		t += core.Time(r.IntN(3))
		out = append(out, given{t, tids[r.IntN(len(tids))], stacks[r.IntN(len(stacks))]})
	}
	return out
}

// write builds a section of samples with blocks of blockLen samples.
func write(t testing.TB, samples []given, blockLen int) []byte {
	t.Helper()
	w := newWriter(blockLen)
	w.w = bufioTo(&w.mem)
	for _, s := range samples {
		w.Add(s.t, s.tid, s.stack)
	}
	size, r, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if err != nil || int64(len(b)) != size {
		t.Fatalf("%d bytes of %d: %v", len(b), size, err)
	}
	return b
}

// stackOf returns path i's stack, leaf first.
func stackOf(p *Profile, i int32) string {
	var s []string
	for ; i >= 0; i = p.Parent(i) {
		s = append(s, p.Name(i))
	}
	return strings.Join(s, ";")
}

// TestCountMatchesBruteForce: for random samples written in blocks of
// random sizes, the count of random selections of time and threads equals
// a count of the samples given (TRACETUI_SEED replays a run).
func TestCountMatchesBruteForce(t *testing.T) {
	r := coretest.Rand(t)
	ctx := context.Background()
	for range 50 {
		samples := randomSamples(r)
		blockLen := 1 + r.IntN(300)
		b := write(t, samples, blockLen)
		p, err := Open(bytes.NewReader(b), int64(len(b)), nil)
		if err != nil {
			t.Fatal(err)
		}
		var want int64
		for _, s := range samples {
			if len(s.stack) > 0 {
				want++
			}
		}
		if p.Samples() != want {
			t.Fatalf("%d samples, want %d", p.Samples(), want)
		}
		for range 20 {
			from := core.Time(r.Int64N(8000) - 1000)
			to := from + core.Time(r.Int64N(8000))
			var tids []int64
			if r.IntN(3) > 0 {
				for range r.IntN(4) {
					tids = append(tids, r.Int64N(100)-2)
				}
			}
			self, err := p.Count(ctx, from, to, tids)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int64{}
			for i, n := range self {
				if n > 0 {
					got[stackOf(p, int32(i))] += n
				}
			}
			ref := map[string]int64{}
			for _, s := range samples {
				if len(s.stack) > 0 && s.t >= from && s.t < to && (tids == nil || slices.Contains(tids, s.tid)) {
					ref[strings.Join(s.stack, ";")]++
				}
			}
			if len(got) != len(ref) {
				t.Fatalf("blocks of %d, [%d, %d) of %v: %d stacks, want %d", blockLen, from, to, tids, len(got), len(ref))
			}
			for k, n := range ref {
				if got[k] != n {
					t.Fatalf("blocks of %d, [%d, %d) of %v: %q %d samples, want %d", blockLen, from, to, tids, k, got[k], n)
				}
			}
		}
		seen := map[int64]bool{}
		for _, s := range samples {
			if len(s.stack) > 0 {
				seen[s.tid] = true
			}
		}
		if th := p.Threads(); len(th) != len(seen) || !slices.IsSorted(th) {
			t.Fatalf("threads %v, want the %d sampled, ascending", th, len(seen))
		}
	}
}

// TestFileWriter: a writer with a directory spools its blocks to a
// private temporary file, which Close removes.
func TestFileWriter(t *testing.T) {
	dir := t.TempDir()
	w, err := NewWriter(dir, ".x")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3*BlockLen + 5 {
		w.Add(core.Time(i), int64(i%3), []string{"leaf", "main"})
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || !strings.HasPrefix(entries[0].Name(), ".x"+TempPrefix) {
		t.Fatalf("temporary files %v", entries)
	}
	if fi, err := entries[0].Info(); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("temporary file mode %v (%v), want 0600", fi.Mode(), err)
	}
	size, r, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r)
	w.Close()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("left behind: %v", entries)
	}
	p, err := Open(bytes.NewReader(b), size, nil)
	if err != nil {
		t.Fatal(err)
	}
	self, err := p.Count(context.Background(), BlockLen, 2*BlockLen+1, []int64{1})
	if err != nil || p.Len() != 2 || self[1] != (BlockLen+1)/3+1 || stackOf(p, 1) != "leaf;main" {
		t.Fatalf("%d paths, %v, %v", p.Len(), self, err)
	}
}

// TestDamage: a changed byte of the header or tables is refused at Open
// with ErrCorrupt (or ErrVersion); a changed byte of a block by Count,
// with ErrCorrupt.
func TestDamage(t *testing.T) {
	r := coretest.Rand(t)
	b := write(t, randomSamples(rand.New(rand.NewPCG(7, 7))), 50)
	h, err := decodeHeader(b, int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	for range 2000 {
		d := bytes.Clone(b)
		at := r.IntN(len(d))
		d[at] ^= byte(1 + r.IntN(255))
		p, err := Open(bytes.NewReader(d), int64(len(d)), nil)
		inBlocks := at >= headerSize && uint64(at) < headerSize+h.blockBytes
		if !inBlocks {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrVersion) {
				t.Fatalf("byte %d changed: %v, want ErrCorrupt", at, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("byte %d of a block changed: %v at open", at, err)
		}
		if _, err := p.Count(context.Background(), -1<<62, 1<<62, nil); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d of a block changed: Count gives %v, want ErrCorrupt", at, err)
		}
	}
	if _, err := Open(bytes.NewReader(b[:len(b)-1]), int64(len(b)-1), nil); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("truncated: %v", err)
	}
	v := bytes.Clone(b)
	binary.LittleEndian.PutUint32(v[8:], version+1)
	if _, err := Open(bytes.NewReader(v), int64(len(v)), nil); !errors.Is(err, ErrVersion) {
		t.Fatalf("another version: %v", err)
	}
}

// TestEmpty: a writer given no sample writes a section of no block.
func TestEmpty(t *testing.T) {
	b := write(t, nil, BlockLen)
	p, err := Open(bytes.NewReader(b), int64(len(b)), nil)
	if err != nil {
		t.Fatal(err)
	}
	self, err := p.Count(context.Background(), 0, 1<<62, nil)
	if err != nil || p.Samples() != 0 || len(self) != 0 || len(p.Threads()) != 0 {
		t.Fatalf("%d samples, %v, %v", p.Samples(), self, err)
	}
	if self, err := Empty().Count(context.Background(), 0, 1, []int64{3}); err != nil || len(self) != 0 {
		t.Fatalf("Empty: %v, %v", self, err)
	}
}

// TestCountCancelled: a cancelled context stops Count.
func TestCountCancelled(t *testing.T) {
	var s []given
	for i := range 10 {
		s = append(s, given{core.Time(i), 1, []string{"a"}})
	}
	b := write(t, s, 2)
	p, err := Open(bytes.NewReader(b), int64(len(b)), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Count(ctx, 0, 10, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("%v, want context.Canceled", err)
	}
}

// withChecksums returns a copy of b whose block and header checksums are
// recomputed where its header and directory let them be found, so that
// mutated bytes reach the checks and reads behind the checksums.
func withChecksums(b []byte) []byte {
	b = bytes.Clone(b)
	h, err := decodeHeader(b, int64(len(b)))
	if err != nil {
		return b
	}
	dir := headerSize + int(h.blockBytes)
	for i := range int(h.blocks) {
		at := dir + i*entrySize
		e := decodeEntry(b[at:])
		start := uint64(headerSize) + e.off
		if e.off <= h.blockBytes && blockSize(e) <= h.blockBytes-e.off {
			binary.LittleEndian.PutUint32(b[at+32:], core.CRC32C(b[start:start+blockSize(e)]))
		}
	}
	binary.LittleEndian.PutUint32(b[12:], checksum(b[:headerSize], b[dir:]))
	return b
}

// FuzzOpenProfile: any bytes, as they are and with their checksums made
// right, open as a profile or fail with ErrCorrupt or ErrVersion; an
// opened one counts every selection without panicking, and with
// ErrCorrupt at worst.
func FuzzOpenProfile(f *testing.F) {
	small := func(seed uint64) []given {
		s := randomSamples(rand.New(rand.NewPCG(seed, seed)))
		return s[:min(len(s), 60)]
	}
	f.Add(write(f, small(1), 7))
	f.Add(write(f, small(2), 1))
	f.Add(write(f, small(3), BlockLen))
	f.Add(write(f, nil, 1))
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, b := range [][]byte{raw, withChecksums(raw)} {
			p, err := Open(bytes.NewReader(b), int64(len(b)), nil)
			if err != nil {
				if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrVersion) {
					t.Fatalf("%v: neither ErrCorrupt nor ErrVersion", err)
				}
				continue
			}
			for i := range p.Len() {
				_ = p.Name(int32(i))
			}
			for _, tids := range [][]int64{nil, p.Threads(), {-1}} {
				for _, r := range [][2]core.Time{{-1 << 62, 1 << 62}, {0, 1}, {p.hdr.first + 1, p.hdr.last}} {
					if _, err := p.Count(context.Background(), r[0], r[1], tids); err != nil && !errors.Is(err, ErrCorrupt) {
						t.Fatal(err)
					}
				}
			}
		}
	})
}
