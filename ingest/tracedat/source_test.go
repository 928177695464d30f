package tracedat

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/ftrace"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
	"github.com/tracetui/tracetui/ingest/states/kernel"
)

// testFiles are the committed recordings.
func testFiles(t *testing.T) []string {
	files, err := filepath.Glob("testdata/*.dat")
	if err != nil || len(files) == 0 {
		t.Fatal("no testdata/*.dat")
	}
	return files
}

func TestDetect(t *testing.T) {
	for _, path := range testFiles(t) {
		if ok, err := Detect(path); !ok || err != nil {
			t.Errorf("Detect(%s) = %v, %v", path, ok, err)
		}
	}
	if ok, _ := Detect("testdata/tiny.txt"); ok {
		t.Error("Detect(tiny.txt) = true, want false (text, not trace.dat)")
	}
}

// TestInfo checks what the file header and options say.
func TestInfo(t *testing.T) {
	for _, path := range testFiles(t) {
		src, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		info := src.Info()
		streams := 2 // one per CPU
		if strings.Contains(path, "instances") {
			streams = 4 // one per CPU per buffer: the top one and inst1
		}
		if info.Arch != "x86_64" || info.Format != "tracedat" || info.Streams != streams || src.Clock() != "local" {
			t.Errorf("%s: arch %q, format %q, %d streams, clock %q; want x86_64, tracedat, %d, local",
				path, info.Arch, info.Format, info.Streams, src.Clock(), streams)
		}
		if src.Events() == 0 || info.Start <= 0 || info.End < info.Start {
			t.Errorf("%s: %d events from %d to %d", path, src.Events(), info.Start, info.End)
		}
		src.Close()
	}
}

// TestLostEvents: the cover recording's CPUs overflowed; the pages after
// the loss give "discarded" warnings with the kernel's counts.
func TestLostEvents(t *testing.T) {
	src, err := Open("testdata/cover-v7-zstd.dat", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var lost int64
	for _, w := range src.Warnings() {
		if w.Kind == "discarded" {
			lost += w.Count
			if !strings.Contains(w.Message, "CPU ") || !strings.Contains(w.Message, "offset") {
				t.Errorf("warning does not say where: %s", w.Message)
			}
		}
	}
	if lost == 0 {
		t.Errorf("no discarded events, want trace-cmd's counts (warnings %v)", src.Warnings())
	}
}

// TestSeekProperty: checkpoints at random events, replayed from a second
// source.
func TestSeekProperty(t *testing.T) {
	rng := coretest.Rand(t)
	for _, path := range testFiles(t) {
		sourcetest.SeekProperty(t, rng, func() (core.Source, error) { return Open(path, Options{}) }, 200)
	}
}

func TestSeekRefusesForeignCheckpoints(t *testing.T) {
	src, err := Open("testdata/tiny-v6.dat", Options{})
	if err != nil {
		t.Fatal(err)
	}
	src.Next()
	cp := src.Checkpoint(nil)
	for _, bad := range [][]byte{nil, []byte("td1"), append(slices.Clone(cp[:len(cp)-1]), cp[len(cp)-1]^1), []byte("ft" + string(cp[2:]))} {
		if err := src.Seek(bad); !errors.Is(err, ErrBadCheckpoint) {
			t.Errorf("Seek(%q) = %v, want ErrBadCheckpoint", bad, err)
		}
	}
}

// TestDamagedFiles cuts the files short and overwrites bytes in their
// pages: Open fails with one line naming the file, or reads on with
// warnings; it never panics.
func TestDamagedFiles(t *testing.T) {
	rng := coretest.Rand(t)
	for _, path := range testFiles(t) {
		orig, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 40; i++ {
			b := slices.Clone(orig)
			what := ""
			if i%2 == 0 {
				n := rng.IntN(len(b))
				b, what = b[:n], fmt.Sprintf("cut at %d", n)
			} else {
				for k := 0; k < 8; k++ {
					at := len(b) - 1 - rng.IntN(min(len(b), 64<<10))
					b[at] = byte(rng.Uint32())
				}
				what = "bytes overwritten near the end"
			}
			readAll(t, path+" "+what, b)
		}
	}
}

func readAll(t *testing.T, name string, b []byte) {
	t.Helper()
	src, err := newSource(name, inMemory(b), Options{})
	if err != nil {
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error of several lines: %v", name, err)
		}
		return
	}
	for n := 0; ; n++ {
		_, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		src.AppendLine(nil, 0)
	}
}

// TestCorruptPage damages the first page of CPU 0 in a version 6 file:
// a commit size past the page is cut with a warning naming the CPU and
// offset.
func TestCorruptPage(t *testing.T) {
	b, err := os.ReadFile("testdata/tiny-v6.dat")
	if err != nil {
		t.Fatal(err)
	}
	src, err := newSource("tiny-v6.dat", inMemory(b), Options{})
	if err != nil {
		t.Fatal(err)
	}
	cpu0 := src.f.buffers[0].cpus[0]
	b = slices.Clone(b)
	off := cpu0.offset + int64(src.f.header.commitOffset)
	src.f.order.PutUint32(b[off:], 1<<20) // commit size of 1 MB in a 4 KB page
	src, err = newSource("tiny-v6.dat", inMemory(b), Options{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range src.Warnings() {
		found = found || strings.Contains(w.Message, "CPU 0, offset 0") && strings.Contains(w.Message, "commit size")
	}
	if !found {
		t.Errorf("no warning naming CPU 0's first page: %v", src.Warnings())
	}
}

// TestKernelAnalysisMatchesText runs the kernel analysis on tiny.dat and
// on the text the kernel printed of the same events (tiny.txt): with the
// file's nanoseconds rounded to the text's microseconds, the histories are
// the same, interval for interval.
func TestKernelAnalysisMatchesText(t *testing.T) {
	dat, err := Open("testdata/tiny-v6.dat", Options{})
	if err != nil {
		t.Fatal(err)
	}
	txt, err := ftrace.Open("testdata/tiny.txt", ftrace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	analysis := func(s core.StateSink) sourcetest.Analysis { return noWarnings{kernel.New(s, kernel.LayoutFtrace)} }
	got := intervals(sourcetest.Analyze(t, microseconds{dat}, analysis))
	want := intervals(sourcetest.Analyze(t, txt, analysis))
	if len(want) == 0 {
		t.Fatal("the text gives no state")
	}
	for i := 0; i < max(len(got), len(want)); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Fatalf("interval %d: %s, the text gives %s", i, g, w)
		}
	}
}

// microseconds delivers a source's events at their time rounded to the
// microsecond, as the kernel prints them in text.
type microseconds struct{ core.Source }

func (m microseconds) Next() (*core.Event, error) {
	ev, err := m.Source.Next()
	if err == nil {
		ev.Time = usecs(ev.Time)
	}
	return ev, err
}

func (m microseconds) Info() core.SourceInfo {
	info := m.Source.Info()
	info.Start, info.End = usecs(info.Start), usecs(info.End)
	return info
}

// usecs rounds to the microsecond, as the kernel's ns2usecs does.
func usecs(t core.Time) core.Time { return (t + 500) / 1000 * 1000 }

// intervals prints a history's intervals, sorted by path then time.
func intervals(h *core.MemHistory) []string {
	var out []string
	for _, iv := range h.Intervals() {
		out = append(out, fmt.Sprintf("%s [%d, %d] %v", h.Attributes().Path(iv.Key), iv.Start, iv.End, iv.Value))
	}
	slices.Sort(out)
	return out
}

// noWarnings adapts the kernel analysis, which reports no warnings, to
// sourcetest.Analysis.
type noWarnings struct{ *kernel.Analysis }

func (noWarnings) Warnings() []core.Warning { return nil }
