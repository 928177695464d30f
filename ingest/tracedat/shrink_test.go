package tracedat

import (
	"bytes"
	"encoding/binary"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/tracetui/tracetui/ingest/ftracefmt"
)

// TestShrink writes a small version 6 copy of a recording for testdata,
// when TRACETUI_TRACEDAT_SHRINK is "in.dat:out.dat": the same records,
// options, saved cmdlines and printk formats, but only the formats of the
// events the records hold and only the kernel symbols their report names
// (a recording's kallsyms is ~1 MB compressed). `trace-cmd report` prints
// the same lines for both, which TestReportMatchesTraceCmd checks. Buffer
// instances are kept (BUFFER options, a flyrecord each).
// TRACETUI_TRACEDAT_SHRINK7 does the same for a version 7 file, which it
// keeps in version 7: its kallsyms and event formats sections cut (a
// little-endian file), every other byte as it is.
func TestShrink(t *testing.T) {
	arg, v7 := os.Getenv("TRACETUI_TRACEDAT_SHRINK"), false
	if arg == "" {
		arg, v7 = os.Getenv("TRACETUI_TRACEDAT_SHRINK7"), true
	}
	if arg == "" {
		t.Skip("TRACETUI_TRACEDAT_SHRINK=in.dat:out.dat (or TRACETUI_TRACEDAT_SHRINK7) not set")
	}
	in, out, _ := strings.Cut(arg, ":")
	src, err := Open(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	syms := shrunkKallsyms(t, src)
	var b []byte
	if v7 {
		b = shrinkV7(t, in, syms, appendEventSystems(nil, binary.LittleEndian, src))
	} else {
		b = writeV6(t, src, syms)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// shrunkKallsyms returns the kernel symbols src's report names, each with
// the one after it: libtraceevent only resolves an address below the next
// symbol.
func shrunkKallsyms(t *testing.T, src *Source) []byte {
	var report bytes.Buffer
	if _, _, err := src.Report(&report, 0); err != nil {
		t.Fatal(err)
	}
	words := map[string]bool{}
	for _, w := range regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_.]*`).FindAllString(report.String(), -1) {
		words[w] = true
	}
	lines := strings.SplitAfter(string(src.f.kallsyms), "\n")
	sort.SliceStable(lines, func(i, j int) bool { return symAddr(lines[i]) < symAddr(lines[j]) })
	var syms bytes.Buffer
	for i, line := range lines {
		if keep(line, words) || i > 0 && keep(lines[i-1], words) {
			syms.WriteString(line)
		}
	}
	return syms.Bytes()
}

// shrinkV7 rebuilds the zstd version 7 file at path with the given
// kallsyms and event formats sections.
func shrinkV7(t *testing.T, path string, kallsyms, formats []byte) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parseFile(inMemory(b), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.compress != "zstd" {
		t.Fatalf("compression %q: only zstd files are shrunk", f.compress)
	}
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	z := &rezip{t: t, f: f, b: b,
		compress: func(data []byte) []byte { return enc.EncodeAll(data, nil) },
		sectionData: func(id uint16, _ []byte) ([]byte, bool) {
			switch id {
			case OptKallsyms:
				return append(binary.LittleEndian.AppendUint32(nil, uint32(len(kallsyms))), kallsyms...), true
			case OptEventFormats:
				return formats, true
			}
			return nil, false
		}}
	return z.rebuild()
}

// writeV6 lays out a version 6 file (trace-cmd.dat.v6(5)).
func writeV6(t *testing.T, src *Source, kallsyms []byte) []byte {
	f := src.f
	o := f.order.(binary.AppendByteOrder)
	var b []byte
	u32 := func(v int) { b = o.AppendUint32(b, uint32(v)) }
	u64 := func(v int) { b = o.AppendUint64(b, uint64(v)) }
	b = append(b, Magic...)
	b = append(b, "6\x00"...)
	b = append(b, byte(boolU(f.order == binary.BigEndian)), byte(f.longSize))
	u32(f.pageSize)
	b = append(b, "header_page\x00"...)
	u64(len(f.headerPage))
	b = append(b, f.headerPage...)
	b = append(b, "header_event\x00"...)
	u64(len(f.headerEvent))
	b = append(b, f.headerEvent...)
	u32(0) // no ftrace (function tracer) formats
	b = appendEventSystems(b, o, src)
	u32(len(kallsyms))
	b = append(b, kallsyms...)
	u32(len(f.printk))
	b = append(b, f.printk...)
	u64(len(f.cmdlines))
	b = append(b, f.cmdlines...)
	if len(f.buffers) == 0 || f.buffers[0].name != "" {
		t.Fatal("the first buffer is not the top one")
	}
	u32(len(f.buffers[0].cpus))
	b = append(b, "options  \x00"...)
	option := func(id int, s string) {
		b = o.AppendUint16(b, uint16(id))
		u32(len(s) + 1)
		b = append(append(b, s...), 0)
	}
	option(OptTraceClock, "["+src.Clock()+"]")
	option(OptUname, f.uname)
	// A BUFFER option per instance: the offset of its flyrecord (set
	// below) and its name.
	var bufAt []int
	for _, buf := range f.buffers[1:] {
		b = o.AppendUint16(b, OptBuffer)
		u32(8 + len(buf.name) + 1)
		bufAt = append(bufAt, len(b))
		u64(0)
		b = append(append(b, buf.name...), 0)
	}
	b = o.AppendUint16(b, OptDone)
	for i, buf := range f.buffers {
		if i > 0 {
			f.order.PutUint64(b[bufAt[i-1]:], uint64(len(b)))
		}
		b = appendFlyrecord(b, o, f, buf.cpus)
	}
	return b
}

// appendFlyrecord appends a buffer's "flyrecord", its (offset, size) per
// CPU and the CPUs' pages, each CPU's from a page boundary.
func appendFlyrecord(b []byte, o binary.AppendByteOrder, f *file, cpus []cpuData) []byte {
	pageSize := f.pageSize
	b = append(b, "flyrecord\x00"...)
	at := len(b) + 16*len(cpus)
	for _, c := range cpus {
		at = (at + pageSize - 1) / pageSize * pageSize
		b = o.AppendUint64(b, uint64(at))
		b = o.AppendUint64(b, uint64(c.length()))
		at += c.length()
	}
	for _, c := range cpus {
		for len(b)%pageSize != 0 {
			b = append(b, 0)
		}
		if c.length() > 0 {
			data, err := c.slice(f, 0, c.length())
			if err != nil {
				panic(err) // the file was read once already
			}
			b = append(b, data...)
		}
	}
	return b
}

// appendEventSystems appends the formats of the events src's records
// hold, by system, as the event formats section holds them: a count of
// systems, then each one's name, count of formats and formats.
func appendEventSystems(b []byte, o binary.AppendByteOrder, src *Source) []byte {
	var systems []string
	bySystem := map[string][]*ftracefmt.Format{}
	for _, cl := range src.order {
		ef := cl.format
		if ef.System == "ftrace" {
			continue
		}
		if bySystem[ef.System] == nil {
			systems = append(systems, ef.System)
		}
		bySystem[ef.System] = append(bySystem[ef.System], ef)
	}
	b = o.AppendUint32(b, uint32(len(systems)))
	for _, sys := range systems {
		b = append(append(b, sys...), 0)
		b = o.AppendUint32(b, uint32(len(bySystem[sys])))
		for _, ef := range bySystem[sys] {
			b = o.AppendUint64(b, uint64(len(ef.Text)))
			b = append(b, ef.Text...)
		}
	}
	return b
}

func keep(line string, words map[string]bool) bool {
	fl := strings.Fields(line)
	return len(fl) >= 3 && words[fl[2]]
}

func symAddr(line string) uint64 {
	a, _, _ := strings.Cut(line, " ")
	v, _ := strconv.ParseUint(a, 16, 64)
	return v
}
