package tracedat

import (
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
)

// TestIndexedSeekProperty: a reader opened Indexed (no first pass,
// chunks decompressed as read), sought to the checkpoints of a full
// reader, gives the same events from there, on every committed file
// (version 6, 7, 7 with zstd, instances) and a zlib rebuild of one.
func TestIndexedSeekProperty(t *testing.T) {
	rng := coretest.Rand(t)
	b, err := os.ReadFile("testdata/pipes-v7-zstd.dat")
	if err != nil {
		t.Fatal(err)
	}
	files := append(testFiles(t), sourcetest.File(t, "pipes-v7-zlib.dat", zlibFromZstd(t, b)))
	for _, path := range files {
		replay(t, rng, path, func() (core.Source, error) { return Open(path, Options{Indexed: true}) })
	}
}

// replay reads the file with the full reader, keeping 30 checkpoints at
// random events, then seeks a reader opened by other to each (in random
// order) and checks that the next 200 events have the same time, CPU,
// stream, class name and contents.
func replay(t *testing.T, rng *rand.Rand, path string, other func() (core.Source, error)) {
	t.Helper()
	full, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	n := int(full.Events())
	picked := map[int]bool{0: true, n: true} // the first event and EOF
	for range 28 {
		picked[rng.IntN(n+1)] = true
	}
	var all []string
	cps := map[int][]byte{}
	for i := 0; ; i++ {
		if picked[i] {
			cps[i] = full.Checkpoint(nil)
		}
		ev, err := full.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, eventLine(full, ev))
	}
	seeker, err := other()
	if err != nil {
		t.Fatal(err)
	}
	defer seeker.Close()
	at := slices.Collect(maps.Keys(cps))
	slices.Sort(at)
	rng.Shuffle(len(at), func(i, j int) { at[i], at[j] = at[j], at[i] })
	for _, k := range at {
		if err := seeker.Seek(cps[k]); err != nil {
			t.Fatalf("%s: Seek to event %d: %v", path, k, err)
		}
		for j := k; j < min(len(all), k+200); j++ {
			ev, err := seeker.Next()
			if err != nil {
				t.Fatalf("%s: after Seek to event %d: event %d: %v", path, k, j, err)
			}
			if got := eventLine(seeker, ev); got != all[j] {
				t.Fatalf("%s: after Seek to event %d: event %d = %s, want %s", path, k, j, got, all[j])
			}
		}
		if k+200 >= len(all) {
			if _, err := seeker.Next(); err != io.EOF {
				t.Fatalf("%s: after Seek to event %d: an event past the %d of the full reader (%v)", path, k, len(all), err)
			}
		}
	}
}

// eventLine is what replay compares of an event.
func eventLine(src core.Source, ev *core.Event) string {
	return fmt.Sprintf("%d cpu%d s%d %s %s", ev.Time, ev.CPU, ev.Stream, ev.Class.Name, src.AppendContents(nil, ev))
}

// TestIndexedRechunked: with the CPUs' data cut into chunks of random
// sizes (pages straddling chunks, empty chunks), an Indexed reader still
// gives what the full reader gives from any checkpoint.
func TestIndexedRechunked(t *testing.T) {
	rng := coretest.Rand(t)
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	for _, path := range []string{"testdata/pipes-v7-zstd.dat", "testdata/instances-v7-zstd.dat", "testdata/cover-v7-zstd.dat"} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		full, err := parseFile(inMemory(b), false, nil)
		if err != nil {
			t.Fatal(err)
		}
		seed := rng.Uint64()
		rechunked := func() (core.Source, error) {
			s, err := newSource(path, inMemory(b), Options{Indexed: true})
			if err != nil {
				return nil, err
			}
			cut := rand.New(rand.NewPCG(seed, 1)) // the same cuts for every reader
			for bi, buf := range s.f.buffers {
				for ci := range buf.cpus {
					if d := &buf.cpus[ci]; d.chunks != nil {
						d.chunks = chunked(cut, enc, decompressed(t, full, &full.buffers[bi].cpus[ci]), buf.pageSize)
					}
				}
			}
			s.rewind()
			return s, nil
		}
		replay(t, rng, path, rechunked)
	}
}

// decompressed returns the whole of a CPU's data.
func decompressed(t *testing.T, f *file, d *cpuData) []byte {
	t.Helper()
	var out []byte
	for at := 0; at < d.length(); {
		b, err := d.slice(f, at, 1<<16)
		if err != nil {
			t.Fatal(err)
		}
		out, at = append(out, b...), at+len(b)
	}
	return out
}

// chunked compresses data as zstd chunks of random sizes, from empty to
// three pages.
func chunked(rng *rand.Rand, enc *zstd.Encoder, data []byte, pageSize int) *lazyData {
	l := &lazyData{cur: -1}
	var blob []byte // the compressed chunks, one after the other
	for at := 0; at < len(data); {
		n := min(len(data)-at, rng.IntN(3*pageSize+1))
		off := len(blob)
		blob = enc.EncodeAll(data[at:at+n], blob)
		l.chunks = append(l.chunks, chunk{at: at, usize: n, csize: len(blob) - off, off: int64(off)})
		at += n
	}
	l.size, l.src = len(data), inMemory(blob)
	return l
}

// TestIndexedSkipsTheFirstPass: an Indexed reader has no warnings, no
// bounds and no count, and has decompressed one chunk per CPU before it
// reads.
func TestIndexedSkipsTheFirstPass(t *testing.T) {
	src, err := Open("testdata/cover-v7-zstd.dat", Options{Indexed: true})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if w := src.Warnings(); len(w) != 0 || src.Events() != 0 || src.Info().End != 0 {
		t.Errorf("Indexed reader: warnings %v, events %d, end %d; want none before reading", w, src.Events(), src.Info().End)
	}
	for _, c := range src.cpus { // positioned: the first chunk of each CPU decompressed, no other
		if c.cpu.chunks == nil || c.cpu.chunks.cur > 0 || len(c.cpu.chunks.chunks) < 2 {
			t.Fatalf("CPU %d: data not read lazily (chunks %+v)", c.cpu.cpu, c.cpu.chunks)
		}
	}
	if _, err := src.Next(); err != nil {
		t.Fatalf("Next: %v", err)
	}
	if w := src.Warnings(); len(w) != 0 {
		t.Errorf("Indexed reader warned while reading: %v", w)
	}
}

// TestDamagedChunkCostsItsPages: a chunk that does not decompress costs
// only the pages it holds, as trace-cmd report recovers the rest (issue
// 32: 8 bad bytes lost a 1.4 M-event capture): the full reader and the
// Indexed one read every event of the intact file but those of the
// damaged chunk's pages, and say which pages were skipped, once per
// reading of them.
func TestDamagedChunkCostsItsPages(t *testing.T) {
	b, err := os.ReadFile("testdata/pipes-v7-zstd.dat")
	if err != nil {
		t.Fatal(err)
	}
	probe, err := newSource("probe", inMemory(b), Options{Indexed: true})
	if err != nil {
		t.Fatal(err)
	}
	chunks := probe.f.buffers[0].cpus[0].chunks.chunks
	if len(chunks) < 2 {
		t.Fatalf("CPU 0 of the sample has %d chunks: the test needs one after the damaged one", len(chunks))
	}
	pageSize := probe.f.pageSize
	lostPages := (chunks[0].at + chunks[0].usize + pageSize - 1) / pageSize
	probe.Close()
	type ev struct {
		stream int32
		t      core.Time
	}
	read := func(src core.Source) (out []ev) {
		for {
			e, err := src.Next()
			if err != nil {
				return out
			}
			out = append(out, ev{e.Stream, e.Time})
		}
	}
	intactSrc, err := Open("testdata/pipes-v7-zstd.dat", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer intactSrc.Close()
	intact := read(intactSrc)
	// The reference: the intact events of CPU 0's pages past the damaged
	// chunk's, and every other CPU's.
	var want []ev
	ref, err := Open("testdata/pipes-v7-zstd.dat", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	for {
		e, err := ref.Next()
		if err != nil {
			break
		}
		cpu := ref.cpus[e.Stream]
		if e.Stream == 0 && cpu.page < lostPages {
			continue
		}
		want = append(want, ev{e.Stream, e.Time})
	}
	if len(want) == len(intact) || !slices.ContainsFunc(want, func(e ev) bool { return e.stream == 0 }) {
		t.Fatalf("reference: %d of %d events, CPU 0 among them: the damaged chunk must hold some of CPU 0's events, not all", len(want), len(intact))
	}
	path := sourcetest.File(t, "damaged.dat", damageChunk(t, b))
	for _, indexed := range []bool{false, true} {
		src, err := Open(path, Options{Indexed: indexed})
		if err != nil {
			t.Fatalf("indexed=%v: %v", indexed, err)
		}
		got := read(src)
		if !slices.Equal(got, want) {
			t.Errorf("indexed=%v: %d events, want the %d of the intact file outside CPU 0's pages 0 to %d", indexed, len(got), len(want), lostPages-1)
		}
		w := src.Warnings()
		if len(w) != 1 || w[0].Kind != "corrupt-page" || w[0].Stream != 0 || !strings.Contains(w[0].Message, fmt.Sprintf("pages 0 to %d", lostPages-1)) || !strings.Contains(w[0].Message, "the rest read") {
			t.Errorf("indexed=%v: warnings %v, want one corrupt-page on stream 0 naming pages 0 to %d", indexed, w, lostPages-1)
		}
		src.Close()
	}
}

// TestFullReaderDecompressesByChunk: the full reader (the index build's)
// keeps compressed CPU data compressed, decompressing one chunk per CPU at
// a time through both its passes, and gives the index state every chunk's
// sizes.
func TestFullReaderDecompressesByChunk(t *testing.T) {
	src, err := Open("testdata/cover-v7-zstd.dat", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for {
		if _, err := src.Next(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if src.Events() == 0 {
		t.Fatal("no event")
	}
	st, err := decodeState(src.IndexState())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range src.cpus {
		d := c.cpu
		if d.chunks.stored || len(d.chunks.chunks) < 2 {
			t.Fatalf("CPU %d: data decompressed whole or not in chunks", d.cpu)
		}
		most := 0
		for _, ch := range d.chunks.chunks {
			most = max(most, ch.usize)
		}
		if len(d.chunks.buf) > most {
			t.Errorf("CPU %d: %d bytes decompressed at once, the largest chunk is %d", d.cpu, len(d.chunks.buf), most)
		}
		if sizes := st.chunks[uint64(d.offset)]; len(sizes) != len(d.chunks.chunks) {
			t.Errorf("CPU %d: %d chunk sizes in the index state, %d chunks", d.cpu, len(sizes), len(d.chunks.chunks))
		}
	}
}
