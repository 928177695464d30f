package tracedat

import (
	"encoding/binary"
	"errors"
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
	return !slices.ContainsFunc(s.f.later, func(r sectionRef) bool { return r.id == optKallsyms })
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
// workqueue events), and gives the full reader's lines.
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

// TestIndexStateFallback: a damaged state, or one that misses a value
// looked up, leaves the reader to the file's sections, with the same
// output.
func TestIndexStateFallback(t *testing.T) {
	path := "testdata/cover-v7-zstd.dat"
	state, want := stateOf(t, path)
	st, err := decodeState(state)
	if err != nil {
		t.Fatal(err)
	}
	flipped := slices.Clone(state)
	flipped[len(flipped)/2] ^= 1
	// The state without its symbols (but the lowest address): every
	// function printed is looked up in kallsyms.
	noSyms := encodeState(st.formats, st.first, nil)
	for name, s := range map[string][]byte{"flipped": flipped, "cut": state[:len(state)-9], "empty": {}, "no symbols": noSyms} {
		src, err := Open(path, Options{Indexed: true, State: s})
		if err != nil {
			t.Fatalf("%s state: %v", name, err)
		}
		got, err := lines(src)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s state: the reader differs from the full reader", name)
		}
		if !kallsymsRead(src) {
			t.Errorf("%s state: kallsyms was not read, though the state could not answer", name)
		}
		src.Close()
	}
}

// encodeState builds a state from its parts, as IndexState lays it out
// (the test's way to make states IndexState would not).
func encodeState(formats []*eventFormat, first uint64, values []uint64) []byte {
	out := []byte(stateMagic)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(formats)))
	for _, ef := range formats {
		out = appendBytes(out, []byte(ef.system))
		out = appendBytes(out, ef.text)
	}
	out = binary.LittleEndian.AppendUint64(out, first)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(values)))
	for _, v := range values {
		out = binary.LittleEndian.AppendUint64(out, v)
		out = binary.LittleEndian.AppendUint64(out, v)
		out = appendBytes(out, []byte("f"))
	}
	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
}

// TestIndexStateConcurrentFirstUse: readers opened at once with the same
// state bytes (as the event table's and its filters' are) print the same
// events as the full reader, each parsing and looking up on first use
// (run with -race: nothing of the shared state is written).
func TestIndexStateConcurrentFirstUse(t *testing.T) {
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
			got, err := lines(src)
			if err == nil && !slices.Equal(got, want) {
				err = errors.New("lines differ from the full reader's")
			}
			errs[i] = err
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
