package tracedat

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"slices"
	"sync"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// stateOf reads every event of path with the full reader and returns its
// index state and the events' lines.
func stateOf(t testing.TB, path string) ([]byte, []string) {
	t.Helper()
	full, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	all, err := lines(full)
	if err != nil {
		t.Fatal(err)
	}
	return full.IndexState(), all
}

// lines reads every event of src as eventLine prints it.
func lines(src core.Source) ([]string, error) {
	var out []string
	for {
		ev, err := src.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, eventLine(src, ev))
	}
}

// kallsymsRead reports whether a reader read its file's kallsyms section.
func kallsymsRead(s *Source) bool {
	return !slices.ContainsFunc(s.f.later, func(r sectionRef) bool { return r.id == OptKallsyms })
}

// TestIndexStateProperty: a reader opened Indexed with the index state
// of its trace gives, from the checkpoints of a full reader, what the
// full reader gives, on every committed file (seeded, as replay is).
func TestIndexStateProperty(t *testing.T) {
	rng := coretest.Rand(t)
	for _, path := range testFiles(t) {
		state, _ := stateOf(t, path)
		replay(t, rng, path, func() (core.Source, error) {
			return Open(path, Options{Indexed: true, State: state})
		})
	}
}

// TestIndexStateSparesKallsyms: with the state, reading every event of a
// version 7 file and printing it reads neither the format sections nor
// kallsyms, though the events print functions (hrtimer, timer and
// workqueue events), and gives the full reader's lines; the chunks of
// every CPU are located from the state, where the file's headers say.
func TestIndexStateSparesKallsyms(t *testing.T) {
	for _, path := range []string{"testdata/cover-v7-zstd.dat", "testdata/pipes-v7-zstd.dat", "testdata/instances-v7-zstd.dat"} {
		state, want := stateOf(t, path)
		st, err := decodeState(state)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if len(st.values) == 0 {
			t.Fatalf("%s: the state lists no symbol (the test's traces print functions)", path)
		}
		src, err := Open(path, Options{Indexed: true, State: state})
		if err != nil {
			t.Fatal(err)
		}
		if len(st.chunks) != len(src.cpus) {
			t.Errorf("%s: the state has the chunks of %d CPUs, the file %d", path, len(st.chunks), len(src.cpus))
		}
		for _, c := range src.cpus {
			walked, err := src.f.chunkIndex(uint64(c.cpu.offset))
			if err != nil || !slices.Equal(walked.chunks, c.cpu.chunks.chunks) {
				t.Errorf("%s: CPU %d: chunks from the state differ from the file's (%v)", path, c.cpu.cpu, err)
				continue
			}
			size := uint64(0)
			for _, k := range walked.chunks {
				size += 8 + uint64(k.csize)
			}
			if !src.f.chunksFromState(&cpuData{}, uint64(c.cpu.offset), size) {
				t.Errorf("%s: CPU %d: the state's chunk sizes were not taken", path, c.cpu.cpu)
			}
		}
		got, err := lines(src)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: the reader with the state differs from the full reader", path)
		}
		if kallsymsRead(src) || len(src.f.formats) != 0 {
			t.Errorf("%s: the reader with the state read kallsyms (%v) or %d formats of the file", path, kallsymsRead(src), len(src.f.formats))
		}
		src.Close()
	}
}

// TestIndexStateFallback: a damaged state, one that misses a value
// looked up, or one whose chunk sizes do not match the file, leaves the
// reader to the file's sections and chunk headers, with the same output.
func TestIndexStateFallback(t *testing.T) {
	path := "testdata/cover-v7-zstd.dat"
	state, want := stateOf(t, path)
	st, err := decodeState(state)
	if err != nil {
		t.Fatal(err)
	}
	flipped := slices.Clone(state)
	flipped[len(flipped)/2] ^= 1
	noSyms := *st // every function printed is looked up in kallsyms
	noSyms.values = nil
	badChunks := *st
	badChunks.chunks = map[uint64][]chunkSize{}
	for off, sizes := range st.chunks {
		badChunks.chunks[off] = slices.Clone(sizes)
		badChunks.chunks[off][0].csize++
	}
	for _, c := range []struct {
		name     string
		state    []byte
		kallsyms bool // read from the file
	}{
		{"flipped", flipped, true}, {"cut", state[:len(state)-9], true}, {"empty", []byte{}, true},
		{"no symbols", encodeState(&noSyms), true}, {"chunk sizes off", encodeState(&badChunks), false},
	} {
		src, err := Open(path, Options{Indexed: true, State: c.state})
		if err != nil {
			t.Fatalf("%s state: %v", c.name, err)
		}
		got, err := lines(src)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s state: the reader differs from the full reader", c.name)
		}
		if kallsymsRead(src) != c.kallsyms {
			t.Errorf("%s state: kallsyms read %v, want %v", c.name, kallsymsRead(src), c.kallsyms)
		}
		src.Close()
	}
}

// encodeState lays out a decoded state as IndexState does (the test's
// way to make states IndexState would not).
func encodeState(st *indexState) []byte {
	out := []byte(stateMagic)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(st.formats)))
	for _, sf := range st.formats {
		out = appendBytes(out, []byte(sf.system))
		out = appendBytes(out, sf.text)
	}
	out = binary.LittleEndian.AppendUint64(out, st.first)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(st.values)))
	for i, v := range st.values {
		out = binary.LittleEndian.AppendUint64(out, v)
		out = binary.LittleEndian.AppendUint64(out, st.starts[i])
		out = appendBytes(out, []byte(st.names[i]))
	}
	out = binary.LittleEndian.AppendUint32(out, uint32(len(st.chunks)))
	for off, sizes := range st.chunks {
		out = binary.LittleEndian.AppendUint64(out, off)
		out = binary.LittleEndian.AppendUint32(out, uint32(len(sizes)))
		for _, c := range sizes {
			out = binary.LittleEndian.AppendUint32(out, c.csize)
			out = binary.LittleEndian.AppendUint32(out, c.usize)
		}
	}
	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
}

// TestIndexStateConcurrentFirstUse: readers opened at once with the same
// state bytes (as the event table's and its filters' are) print the same
// events as the full reader, each parsing and looking up on first use
// (run with -race: nothing of the shared state is written).
func TestIndexStateConcurrentFirstUse(t *testing.T) {
	const firstEvents = 2000
	path := "testdata/pipes-v7-zstd.dat"
	state, want := stateOf(t, path)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			src, err := Open(path, Options{Indexed: true, State: state})
			if err != nil {
				errs[i] = err
				return
			}
			defer src.Close()
			// The first events, where the readers meet their classes
			// and symbols for the first time: what is raced.
			for k := range min(len(want), firstEvents) {
				ev, err := src.Next()
				if err != nil {
					errs[i] = err
					return
				}
				if got := eventLine(src, ev); got != want[k] {
					errs[i] = fmt.Errorf("event %d = %s, want %s", k, got, want[k])
					return
				}
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("reader %d: %v", i, err)
		}
	}
}

// FuzzIndexState feeds arbitrary states (their checksum made right, so
// the fuzzer reaches the body) to a reader of a committed trace: nothing
// may panic, and a state that decodes has its symbol values ascending.
func FuzzIndexState(f *testing.F) {
	const path = "testdata/cover-v7-zstd.dat"
	state, _ := stateOf(f, path)
	f.Add(state[:len(state)-4])
	f.Add(state[:len(state)/2])
	f.Fuzz(func(t *testing.T, body []byte) {
		data := binary.LittleEndian.AppendUint32(slices.Clip(body), crc32.ChecksumIEEE(body))
		if st, err := decodeState(data); err == nil && !slices.IsSorted(st.values) {
			t.Fatalf("decoded values out of order: %v", st.values)
		}
		src, err := Open(path, Options{Indexed: true, State: data})
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		for range 64 {
			ev, err := src.Next()
			if err != nil {
				break
			}
			src.AppendContents(nil, ev)
		}
	})
}
