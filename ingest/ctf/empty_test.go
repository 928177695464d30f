package ctf

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tracetui/tracetui/ingest/internal/bttest"
)

// alike is the mark that stands for the elements of an array past the
// printer's budget.
var alike = regexp.MustCompile(`, \.\.\. \[\d+\.\.\d+\] alike ]`)

// Arrays and sequences whose elements take no space (issue 32 item 5): a
// few bytes may declare billions of elements, which the decoder checks
// against nothing. The printer must not walk or print each of them.

// emptyCases are hostile traces of a few KB whose events hold huge
// arrays of empty elements, in every shape the printer meets. With small
// set, the counts are small, for babeltrace2 to print them.
func emptyCases(small bool) []ctfCase {
	huge, fixed, suffix := uint64(0xffffffff), "4294967295", ""
	if small {
		huge, fixed, suffix = 3, "2", "-small"
	}
	return []ctfCase{
		// The trace: a sequence of structures holding an empty array.
		simple("empty-elements"+suffix, "a sequence of 2^32-1 structures holding an empty array",
			`event { name = "e"; id = 0; fields := struct { uint32_t n; struct { uint8_t z[0]; } s[n]; }; };`,
			func(p *pktw) {
				p.event(0, t0).u32(huge)
				p.event(0, t0+1).u32(3)
			}),
		// Nested sequences of elements that are not of a fixed size (an
		// inner sequence of length k = 0): the decoder looped 2^40 times.
		simple("empty-nested"+suffix, "sequences of 2^32-1 elements holding sequences of 2^32-1 empty elements",
			`event { name = "e"; id = 0; fields := struct { uint32_t k; uint32_t n;
				struct { struct { uint8_t z[event.fields.k]; } c[event.fields.n]; } a[n]; }; };`,
			func(p *pktw) {
				p.event(0, t0).u32(0).u32(huge)
				p.event(0, t0+1).u32(0).u32(2)
			}),
		// Variants whose selected option is an empty structure.
		simple("empty-variants"+suffix, "a sequence of 2^32-1 variants selecting an empty structure",
			`event { name = "e"; id = 0; fields := struct { enum : uint8_t { A = 0, B = 1 } t; uint32_t n;
				variant <t> { struct { } A; uint8_t B; } v[n]; }; };`,
			func(p *pktw) {
				p.event(0, t0).u8(0).u32(huge)
				p.event(0, t0+1).u8(1).u32(2).u8(7).u8(8)
			}),
		// A fixed array of 2^32-1 empty structures inside each element of
		// a sequence.
		simple("empty-fixed"+suffix, "a sequence of 2^32-1 elements each an array of 2^32-1 empty structures",
			`event { name = "e"; id = 0; fields := struct { uint32_t n; struct { struct { } e[`+fixed+`]; } s[n]; }; };`,
			func(p *pktw) {
				p.event(0, t0).u32(huge)
				p.event(0, t0+1).u32(1)
			}),
	}
}

// TestEmptyElementsSmall compares the printing of the hostile shapes with
// small counts with babeltrace2's.
func TestEmptyElementsSmall(t *testing.T) {
	for _, c := range emptyCases(true) {
		t.Run(c.name, func(t *testing.T) {
			dir := writeCase(t, c)
			out, stderr, code := bttest.Run(t, dir)
			if code != 0 {
				t.Fatalf("babeltrace2 exits %d: %s", code, stderr)
			}
			var want []string
			for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				_, after, ok := strings.Cut(l, " e: ")
				if !ok {
					t.Fatalf("babeltrace2 line %q", l)
				}
				want = append(want, after)
			}
			got := printAll(t, dir)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("printed:\n%s\nbabeltrace2:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func writeCase(t *testing.T, c ctfCase) string {
	dir := filepath.Join(t.TempDir(), c.name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for n, b := range c.files {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// printAll returns what AppendContents prints for each event of a trace.
func printAll(t *testing.T, dir string) []string {
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []string
	for {
		ev, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("event %d: %v", len(out), err)
		}
		out = append(out, string(r.AppendContents(nil, ev)))
	}
}

// TestWriteEmptyElements writes the trace into testdata (run with
// -update); TestEmptyElements reads the committed copy.
func TestWriteEmptyElements(t *testing.T) {
	if !*update {
		t.Skip("run with -update to rewrite testdata/empty-elements")
	}
	c := emptyCases(false)[0]
	for n, b := range c.files {
		if err := os.WriteFile(filepath.Join("testdata", c.name, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestEmptyElementsCommitted checks the printing of the trace:
// as babeltrace2 up to the budget, then the mark.
func TestEmptyElementsCommitted(t *testing.T) {
	got := printAll(t, filepath.Join("testdata", "empty-elements"))
	const head = "{ cpu_id = 0 }, { n = 4294967295, s = [ [0] = { z = [ ] }, [1] = { z = [ ] }, "
	const tail = ", [46073] = { z = [ ] }, ... [46074..4294967294] alike ] }"
	if len(got) != 2 || !strings.HasPrefix(got[0], head) || !strings.HasSuffix(got[0], tail) ||
		strings.Count(got[0], "{ z = [ ] }") != 46074 || len(got[0]) > maxRepeatText+200 {
		t.Errorf("first event: %d events, %d bytes", len(got), len(got[0]))
	}
	if want := "{ cpu_id = 0 }, { n = 3, s = [ [0] = { z = [ ] }, [1] = { z = [ ] }, [2] = { z = [ ] } ] }"; len(got) < 2 || got[1] != want {
		t.Errorf("second event: %q, want %q", got[1:], want)
	}
}

// TestEmptyElements prints every event of each hostile trace as dump
// does, and bounds the output, the memory allocated and the time.
func TestEmptyElements(t *testing.T) {
	dirs := map[string]string{"empty-elements(committed)": filepath.Join("testdata", "empty-elements")}
	for _, c := range emptyCases(false) {
		dirs[c.name] = writeCase(t, c)
	}
	for name, dir := range dirs {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			r, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			var line []byte
			total, events := 0, 0
			for {
				ev, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("event %d: %v", events, err)
				}
				line = r.AppendContents(line[:0], ev)
				total += len(line)
				events++
				if len(line) > 1<<16 && !alike.Match(line) {
					t.Errorf("event %d: %d bytes, without the mark for the elements left out: ...%s", events, len(line), line[len(line)-200:])
				}
			}
			elapsed := time.Since(start)
			runtime.ReadMemStats(&after)
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d events, %d bytes printed, %d bytes allocated, %v", events, total, alloc, elapsed)
			if total > 8<<20 {
				t.Errorf("printed %d bytes for a trace of a few KB (cap: 8 MB)", total)
			}
			if alloc > 64<<20 {
				t.Errorf("allocated %d bytes (cap: 64 MB)", alloc)
			}
			// Generous for a loaded machine: unbounded printing takes hours.
			if elapsed > 30*time.Second {
				t.Errorf("took %v (cap: 30 s)", elapsed)
			}
		})
	}
}
