package history

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// buildTiny writes a small fixed index: three attributes, a few changes of
// every value kind, one section.
func buildTiny(t testing.TB, path string, o Options) *core.MemHistory {
	t.Helper()
	b, err := Create(path, 1000, o)
	if err != nil {
		t.Fatal(err)
	}
	mem := core.NewMemHistory(1000)
	for _, s := range []sink{b, mem} {
		tr := s.Attributes()
		cpu := tr.AddPath("CPUs", "0")
		name := tr.AddPath("Threads", "42", "Exec_name")
		for _, c := range []struct {
			k core.Key
			t core.Time
			v core.Value
		}{
			{cpu, 1010, core.Int32(1)}, {name, 1010, core.String("bash")}, {cpu, 1020, core.Int32(-7)},
			{cpu, 1030, core.Int64(1 << 40)}, {name, 1030, core.String("ls")}, {cpu, 1040, core.Float64(0.5)},
			{cpu, 1050, core.Null()},
		} {
			if err := s.Modify(c.k, c.t, c.v); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := b.AddSection("trace.json", 7, strings.NewReader(`{"a":1}`)); err != nil {
		t.Fatal(err)
	}
	for _, s := range []sink{b, mem} {
		if err := s.Close(1100); err != nil {
			t.Fatal(err)
		}
	}
	return mem
}

// TestGoldenFile pins the bytes of a tiny index: any change to the format
// shows here, and must come with a FormatVersion bump.
func TestGoldenFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny")
	mem := buildTiny(t, path, Options{BlockSize: 2048, MaxChildren: 4, Summarise: core.SummaryRule})
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "tiny.rsht")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		i := 0
		for i < min(len(got), len(want)) && got[i] == want[i] {
			i++
		}
		t.Fatalf("index bytes differ from %s at offset %d (%d vs %d bytes); if the format changed on purpose, bump FormatVersion and run go test -update",
			golden, i, len(got), len(want))
	}
	tr := openChecked(t, golden, OpenOptions{})
	// Four nodes: the root, the R-tree of the changes, that of the first
	// nulls (nulls.go), that of the last states.
	if info := tr.Info(); info.Intervals != int64(len(mem.Intervals())) || info.Nodes != 4 || info.Attributes != 5 || !slices.Equal(info.Sections, []string{"trace.json", SectionSummary}) {
		t.Errorf("Info = %+v", info)
	}
	all := collect(t, func(fn func(core.Interval) bool) (core.QueryStats, error) {
		return tr.Query2D(bg, allKeys(mem), core.MinTime, core.MaxTime, fn)
	})
	if !slices.Equal(all, mem.Intervals()) {
		t.Errorf("golden file holds %v, want %v", all, mem.Intervals())
	}
}

func TestSections(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index")
	b, err := Create(path, 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("0123456789abcdef"), 300_000) // 4.8 MB, streamed
	if err := b.AddSection("events", int64(len(big)), io.MultiReader(bytes.NewReader(big[:1000]), bytes.NewReader(big[1000:]))); err != nil {
		t.Fatal(err)
	}
	if err := b.AddSection("events", 1, strings.NewReader("x")); err == nil {
		t.Error("a second section with the same name was accepted")
	}
	if err := b.AddSection("short", 10, strings.NewReader("abc")); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("short reader: %v", err)
	}
	if err := b.AddSection("", 0, strings.NewReader("")); err == nil {
		t.Error("empty name accepted")
	}
	if err := b.AddSection("info", 2, strings.NewReader("{}")); err != nil {
		t.Fatal(err)
	}
	b.Attributes().AddPath("k")
	if err := b.Close(10); err != nil {
		t.Fatal(err)
	}
	tr := openChecked(t, path, OpenOptions{})
	for name, want := range map[string][]byte{"events": big, "info": []byte("{}")} {
		sr, err := tr.Section(name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(sr)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("section %q: %d bytes, %v; want %d", name, len(got), err, len(want))
		}
	}
	if _, err := tr.Section("short"); !errors.Is(err, ErrNoSection) {
		t.Errorf("the failed section exists: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

// TestOpenRefusesBadFiles: every kind of damage is an error of the right
// kind on open, never a panic.
func TestOpenRefusesBadFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	buildTiny(t, good, Options{BlockSize: 2048, MaxChildren: 4})
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(b []byte) []byte) []byte { return f(slices.Clone(data)) }
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrTruncated},
		{"magic only", data[:5], ErrTruncated},
		{"text", []byte("{\"traceEvents\": []}\n" + strings.Repeat(" ", 200)), ErrNotIndex},
		{"short text", []byte("hi"), ErrNotIndex},
		{"header cut", data[:100], ErrTruncated},
		{"nodes cut", data[:3000], ErrTruncated},
		{"tail cut", data[:len(data)-1], ErrTruncated},
		{"trailing bytes", append(slices.Clone(data), 0), ErrCorrupt},
		{"newer version", edit(func(b []byte) []byte { b[8] = FormatVersion + 1; return b }), ErrVersion},
		{"older version", edit(func(b []byte) []byte { b[8] = 0; return b }), ErrVersion},
		{"version 1 (before classes)", edit(func(b []byte) []byte { b[8] = 1; return b }), ErrVersion},
		{"reserved bytes", edit(func(b []byte) []byte { b[140] = 1; return fixChecksums(b) }), ErrCorrupt},
		{"too many classes", edit(func(b []byte) []byte { le.PutUint32(b[128:], 99); return fixChecksums(b) }), ErrCorrupt},
		{"header flip", edit(func(b []byte) []byte { b[30] ^= 1; return b }), ErrCorrupt},
		{"root flip", edit(func(b []byte) []byte { b[2048+100] ^= 0x40; return b }), ErrCorrupt},
		{"section table flip", edit(func(b []byte) []byte { b[len(b)-3] ^= 1; return b }), ErrCorrupt},
	}
	for _, c := range cases {
		p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_"))
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		tr, err := Open(p, OpenOptions{})
		if err == nil {
			tr.Close()
		}
		if !errors.Is(err, c.want) {
			t.Errorf("%s: Open = %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := Open(filepath.Join(dir, "missing"), OpenOptions{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestCorruptionNeverGivesAWrongAnswer flips random bytes of a deep tree:
// Open or a query may fail, but a query that succeeds returns exactly the
// reference intervals, and Check always finds the damage.
func TestCorruptionNeverGivesAWrongAnswer(t *testing.T) {
	r := coretest.Rand(t)
	s := randomScenario(r, 3000, 40)
	mem := core.NewMemHistory(s.start)
	s.replay(t, mem)
	path := buildScenario(t, s, Options{BlockSize: 2048, MaxChildren: 3})
	openChecked(t, path, OpenOptions{})
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	keys := allKeys(mem)
	bad := filepath.Join(t.TempDir(), "bad")
	answered := 0
	for range 60 {
		b := slices.Clone(data)
		pos := r.IntN(len(b))
		b[pos] ^= byte(1 + r.IntN(255))
		if err := os.WriteFile(bad, b, 0o644); err != nil {
			t.Fatal(err)
		}
		tr, err := Open(bad, OpenOptions{})
		if err != nil {
			continue
		}
		var got []core.Interval
		_, qerr := tr.Query2D(bg, keys, core.MinTime, core.MaxTime, func(iv core.Interval) bool { got = append(got, iv); return true })
		if qerr == nil {
			answered++
			core.SortIntervals(got)
			if !slices.Equal(got, mem.Intervals()) {
				t.Fatalf("byte %d flipped: the query answered %d intervals, want %d", pos, len(got), len(mem.Intervals()))
			}
		} else if !errors.Is(qerr, ErrCorrupt) && !errors.Is(qerr, ErrTruncated) {
			t.Fatalf("byte %d flipped: query error %v", pos, qerr)
		}
		if cerr := tr.Check(); cerr == nil {
			t.Fatalf("byte %d flipped: Check found nothing", pos)
		}
		tr.Close()
	}
	t.Logf("%d of 60 damaged files still answered the full query (damage outside the nodes it read)", answered)
}

func TestBuilderRejects(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index")
	if _, err := Create(path, 0, Options{BlockSize: 1000}); err == nil {
		t.Error("block size 1000 accepted")
	}
	if _, err := Create(path, 0, Options{MaxChildren: 1}); err == nil {
		t.Error("max children 1 accepted")
	}
	b, err := Create(path, 100, Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := b.Attributes().AddPath("k")
	if err := b.Modify(k, 99, core.Int32(1)); !errors.Is(err, core.ErrTimeOrder) {
		t.Errorf("change before the start: %v", err)
	}
	if err := b.Modify(k, 150, core.Int32(1)); err != nil {
		t.Fatal(err)
	}
	if b.Value(k) != core.Int32(1) || b.Value(99) != core.Null() {
		t.Errorf("Value = %v", b.Value(k))
	}
	if err := b.Modify(k, 140, core.Int32(2)); !errors.Is(err, core.ErrTimeOrder) {
		t.Errorf("change back in time: %v", err)
	}
	if err := b.Modify(9, 160, core.Int32(2)); !errors.Is(err, core.ErrBadKey) {
		t.Errorf("unknown key: %v", err)
	}
	if err := b.Modify(k, 160, core.String("\xff")); !errors.Is(err, core.ErrBadValue) {
		t.Errorf("bad UTF-8: %v", err)
	}
	if err := b.Close(120); !errors.Is(err, core.ErrTimeOrder) {
		t.Errorf("close before the last change: %v", err)
	}
	if err := b.Close(200); err != nil {
		t.Fatal(err)
	}
	if err := b.Modify(k, 300, core.Null()); !errors.Is(err, core.ErrClosed) {
		t.Errorf("Modify after Close: %v", err)
	}
	if err := b.Close(300); !errors.Is(err, core.ErrClosed) {
		t.Errorf("Close twice: %v", err)
	}
	openChecked(t, path, OpenOptions{})

	// Abort leaves nothing behind.
	dir := t.TempDir()
	b, err = Create(filepath.Join(dir, "index"), 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.AddSection("s", 1, strings.NewReader("x")); err != nil {
		t.Fatal(err)
	}
	b.Abort()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("Abort left %v", entries)
	}
	if err := b.Close(1); !errors.Is(err, core.ErrClosed) {
		t.Errorf("Close after Abort: %v", err)
	}
}

func TestParseLayout(t *testing.T) {
	for _, l := range []Layout{LayoutRSHT, LayoutESHT, LayoutSHT} {
		if got, err := ParseLayout(l.String()); err != nil || got != l {
			t.Errorf("ParseLayout(%q) = %v, %v", l, got, err)
		}
	}
	if _, err := ParseLayout("btree"); err == nil {
		t.Error("ParseLayout(btree) succeeded")
	}
}

// TestEmptyIndex: a trace without any attribute still makes a valid index.
func TestEmptyIndex(t *testing.T) {
	for _, l := range []Layout{LayoutRSHT, LayoutESHT, LayoutSHT} {
		path := filepath.Join(t.TempDir(), "index")
		b, err := Create(path, 5, Options{Layout: l})
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Close(50); err != nil {
			t.Fatal(err)
		}
		tr := openChecked(t, path, OpenOptions{})
		if s, e := tr.Bounds(); s != 5 || e != 50 || tr.Attributes().Len() != 0 {
			t.Errorf("%s: bounds %d, %d, %d attributes", l, s, e, tr.Attributes().Len())
		}
		if _, _, err := tr.Single(bg, 0, 10); !errors.Is(err, core.ErrNoState) || !errors.Is(err, core.ErrBadKey) {
			t.Errorf("%s: Single on an empty index: %v", l, err)
		}
		if got := collect(t, func(fn func(core.Interval) bool) (core.QueryStats, error) { return tr.Full(bg, 10, fn) }); len(got) != 0 {
			t.Errorf("%s: Full = %v", l, got)
		}
	}
}

// TestDamagedTail: damage in the attribute tree or a section is reported
// when they are read (and by Check), not hidden.
func TestDamagedTail(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	buildTiny(t, good, Options{BlockSize: 2048, MaxChildren: 4})
	tr := openChecked(t, good, OpenOptions{})
	h := *tr.hdr
	tr.Close()
	if _, err := tr.Full(bg, h.start, func(core.Interval) bool { return true }); !errors.Is(err, ErrTreeClosed) {
		t.Errorf("query after Close: %v", err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	for name, off := range map[string]uint64{"attributes": h.attrOff + 3, "section": h.attrOff + h.attrLen + 2} {
		b := slices.Clone(data)
		b[off] ^= 0x20
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		tr, err := Open(p, OpenOptions{})
		if err != nil {
			t.Fatalf("%s: Open: %v", name, err)
		}
		defer tr.Close()
		if err := tr.Check(); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: Check = %v, want ErrCorrupt", name, err)
		}
		_, aerr := tr.LoadAttributes()
		if name == "attributes" {
			if !errors.Is(aerr, ErrCorrupt) || tr.Attributes().Len() != 0 {
				t.Errorf("damaged attribute tree: %v, %d attributes", aerr, tr.Attributes().Len())
			}
		} else if aerr != nil {
			t.Errorf("section damage broke the attributes: %v", aerr)
		}
	}
}
