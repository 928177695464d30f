package ctf

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
	"github.com/tracetui/tracetui/ingest/gen"
)

// memFile is a data stream file held in memory.
type memFile struct{ *bytes.Reader }

func (memFile) Close() error { return nil }

// memTraces caches compiled metadata by text: compiled plans are
// immutable, so fuzzing decodes streams without recompiling.
var memTraces sync.Map

// openMem opens a trace held in memory: its metadata file and its data
// stream files.
func openMem(meta []byte, streams ...[]byte) (*Reader, error) {
	var tr *traceInfo
	if v, ok := memTraces.Load(string(meta)); ok {
		tr = v.(*traceInfo)
	} else {
		m, err := parseMetadata(meta)
		if err != nil {
			return nil, err
		}
		if tr, err = newTrace(m, "mem", "", false); err != nil {
			return nil, err
		}
		memTraces.Store(string(meta), tr)
	}
	r := &Reader{path: "mem", last: -1, traces: []*traceInfo{tr}}
	for i, b := range streams {
		if len(b) == 0 {
			continue
		}
		s, err := tr.openStream(fmt.Sprintf("stream%d", i), memFile{bytes.NewReader(b)}, int64(len(b)), int32(len(r.streams)))
		if s != nil {
			r.streams = append(r.streams, s)
		}
		if err != nil {
			return nil, err
		}
	}
	r.init(Options{})
	return r, nil
}

// fuzzTrace is a metadata and one of its stream files.
type fuzzTrace struct {
	name   string
	meta   []byte
	stream []byte
}

var (
	fuzzOnce   sync.Once
	fuzzTraces []fuzzTrace
)

// fuzzSeeds returns the metadata the stream fuzzer decodes with (the
// valid conformance traces and a generated trace), with a stream of each.
func fuzzSeeds(tb testing.TB) []fuzzTrace {
	fuzzOnce.Do(func() {
		root := filepath.Join(coretest.ModuleRoot(), "testdata", "ctf")
		manifest, err := os.ReadFile(filepath.Join(root, "MANIFEST"))
		if err != nil {
			return
		}
		for _, l := range strings.Split(string(manifest), "\n") {
			p := strings.Split(l, "\t")
			if len(p) < 2 || p[1] != "valid" {
				continue
			}
			dir := filepath.Join(root, p[0])
			meta, err := os.ReadFile(filepath.Join(dir, "metadata"))
			if err != nil {
				continue // nested traces
			}
			names, _ := dataFiles(dir)
			sort.Strings(names)
			for _, n := range names {
				if b, _ := os.ReadFile(filepath.Join(dir, n)); len(b) > 0 {
					fuzzTraces = append(fuzzTraces, fuzzTrace{p[0], meta, b})
					break
				}
			}
		}
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("tracetui-fuzz-gen-%d", os.Getpid()))
		os.RemoveAll(dir)
		if _, err := gen.Write(dir, gen.Config{Threads: 3, CPUs: 1, Seed: 1, PacketSize: 4096}); err == nil {
			meta, _ := os.ReadFile(filepath.Join(dir, "metadata"))
			b, _ := os.ReadFile(filepath.Join(dir, "channel0_0"))
			fuzzTraces = append(fuzzTraces, fuzzTrace{"gen", meta, b[:min(len(b), 8192)]})
		}
		os.RemoveAll(dir)
	})
	if len(fuzzTraces) == 0 {
		tb.Skip("no conformance traces (testdata/ctf)")
	}
	return fuzzTraces
}

// FuzzStream decodes arbitrary stream bytes with the metadata of a
// conformance trace: every event is decoded, formatted, and a checkpoint
// resumed; the reader must return events or a clean error, never panic,
// allocate from an unchecked length or loop forever.
func FuzzStream(f *testing.F) {
	seeds := fuzzSeeds(f)
	for i, s := range seeds {
		f.Add(uint8(i), s.stream)
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		seeds := fuzzSeeds(t)
		s := seeds[int(which)%len(seeds)]
		decodeAll(t, s.meta, data)
	})
}

// decodeAll decodes stream bytes with meta as the stream fuzz targets do:
// every event is decoded and formatted, and a checkpoint taken at the
// second one is resumed; an error must be one line.
func decodeAll(t *testing.T, meta, data []byte) {
	r, err := openMem(meta, data)
	if err != nil {
		return
	}
	var buf, cp []byte
	for i := 0; ; i++ {
		ev, err := r.Next()
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error: %v", err)
			}
			break
		}
		buf = r.AppendContents(buf[:0], ev)
		if i == 1 {
			cp = r.Checkpoint(nil)
		}
	}
	if cp != nil {
		if err := r.Seek(cp); err == nil {
			r.Next()
		}
	}
}

// FuzzMetadata compiles arbitrary metadata into a decoding plan: the
// parser and the plan compiler must accept or refuse it with an error,
// never panic, and stay bounded (typedefs that expand exponentially are
// refused).
func FuzzMetadata(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s.meta)
	}
	f.Add([]byte("/* CTF 1.8 */ typealias integer { size = 8; } := u8; trace { major = 1; minor = 8; byte_order = le; };" +
		"typedef struct { u8 a; u8 b; } t0; typedef struct { t0 a; t0 b; } t1; typedef struct { t1 a; t1 b; } t2;" +
		"event { name = \"e\"; fields := struct { t2 x; u8 n; variant <n> { u8 a; } v; u8 s[n]; }; };"))
	f.Fuzz(func(t *testing.T, data []byte) {
		text, err := tsdl.Decode(data)
		if err != nil {
			return
		}
		m, err := tsdl.Parse(text)
		if err != nil {
			return
		}
		if _, err := compileTrace(m, false); err != nil {
			var e *tsdl.Error
			if !errors.As(err, &e) {
				t.Fatalf("plan error is not a *tsdl.Error: %v", err)
			}
		}
	})
}

// FuzzMetadataModel compiles arbitrary bytes decoded as the binary form
// of a metadata model (what an index keeps for its readers, see state.go):
// the decoder and the plan compiler must accept or refuse them with an
// error, never panic.
func FuzzMetadataModel(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		text, err := tsdl.Decode(s.meta)
		if err != nil {
			continue
		}
		if m, err := tsdl.Parse(text); err == nil {
			if b, err := m.AppendBinary(nil); err == nil {
				f.Add(b)
			}
		}
	}
	ctf2Dirs, _ := filepath.Glob(filepath.Join("testdata", "ctf2", "*", "metadata"))
	for _, p := range ctf2Dirs {
		if b, err := os.ReadFile(p); err == nil {
			if m, err := parseMetadata(b); err == nil {
				if b, err := m.AppendBinary(nil); err == nil {
					f.Add(b)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := tsdl.DecodeBinary(data)
		if err != nil {
			if !errors.Is(err, tsdl.ErrBinary) {
				t.Fatalf("decode error does not wrap ErrBinary: %v", err)
			}
			return
		}
		compileTrace(m, false) // an error is fine; a panic is not
		if tp, err := compileTrace(m, true); err == nil {
			for _, sp := range tp.streams {
				for _, ep := range sp.events {
					sp.prepare(ep)
				}
			}
		}
	})
}

// TestExponentialTypedefs: a short metadata whose typedefs double at each
// level is refused, not expanded.
func TestExponentialTypedefs(t *testing.T) {
	var b strings.Builder
	b.WriteString("/* CTF 1.8 */ typealias integer { size = 8; } := u8; trace { major = 1; minor = 8; byte_order = le; };\ntypedef u8 t0;\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "typedef struct { t%d a; t%d b; } t%d;\n", i-1, i-1, i)
	}
	b.WriteString(`event { name = "e"; fields := struct { t40 x; }; };`)
	m, err := tsdl.Parse([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := compileTrace(m, false); err == nil || !strings.Contains(err.Error(), "expands to more than") {
		t.Fatalf("compileTrace = %v, want an expansion error", err)
	}
}

// TestHugeLengthsAreChecked: lengths taken from the stream are checked
// against the packet before anything is allocated or looped over.
func TestHugeLengthsAreChecked(t *testing.T) {
	meta := []byte(`/* CTF 1.8 */
typealias integer { size = 8; align = 8; } := u8;
typealias integer { size = 64; align = 8; } := u64;
trace { major = 1; minor = 8; byte_order = le; };
event { name = "e"; fields := struct { u64 n; u8 text[n]; struct { } empty[n]; u64 seq[n]; string s; }; };`)
	for _, n := range []uint64{1 << 62, 1<<64 - 1, 1 << 21} {
		data := make([]byte, 64)
		for i := 0; i < 8; i++ {
			data[i] = byte(n >> (8 * i))
		}
		r, err := openMem(meta, data)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Next(); err == nil {
			t.Errorf("length %d accepted", n)
		}
	}
}
