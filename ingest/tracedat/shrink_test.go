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
)

// TestShrink writes a small version 6 copy of a recording for testdata,
// when TRACETUI_TRACEDAT_SHRINK is "in.dat:out.dat": the same records,
// options, saved cmdlines and printk formats, but only the formats of the
// events the records hold and only the kernel symbols their report names
// (a recording's kallsyms is ~1 MB compressed). `trace-cmd report` prints
// the same lines for both, which TestReportMatchesTraceCmd checks. Buffer
// instances are kept (BUFFER options, a flyrecord each).
func TestShrink(t *testing.T) {
	arg := os.Getenv("TRACETUI_TRACEDAT_SHRINK")
	if arg == "" {
		t.Skip("TRACETUI_TRACEDAT_SHRINK=in.dat:out.dat not set")
	}
	in, out, _ := strings.Cut(arg, ":")
	src, err := Open(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var report bytes.Buffer
	if _, _, err := src.Report(&report, 0); err != nil {
		t.Fatal(err)
	}
	words := map[string]bool{}
	for _, w := range regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_.]*`).FindAllString(report.String(), -1) {
		words[w] = true
	}
	f := src.f
	// Keep each named symbol and the one after it: libtraceevent only
	// resolves an address below the next symbol.
	lines := strings.SplitAfter(string(f.kallsyms), "\n")
	sort.SliceStable(lines, func(i, j int) bool { return symAddr(lines[i]) < symAddr(lines[j]) })
	var syms bytes.Buffer
	for i, line := range lines {
		if keep(line, words) || i > 0 && keep(lines[i-1], words) {
			syms.WriteString(line)
		}
	}
	if err := os.WriteFile(out, writeV6(t, src, syms.Bytes()), 0o644); err != nil {
		t.Fatal(err)
	}
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
	var systems []string
	bySystem := map[string][]*eventFormat{}
	for _, cl := range src.order {
		ef := cl.format
		if ef.system == "ftrace" {
			continue
		}
		if bySystem[ef.system] == nil {
			systems = append(systems, ef.system)
		}
		bySystem[ef.system] = append(bySystem[ef.system], ef)
	}
	u32(len(systems))
	for _, sys := range systems {
		b = append(append(b, sys...), 0)
		u32(len(bySystem[sys]))
		for _, ef := range bySystem[sys] {
			u64(len(ef.text))
			b = append(b, ef.text...)
		}
	}
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
	option(optTraceClock, "["+src.Clock()+"]")
	option(optUname, f.uname)
	// A BUFFER option per instance: the offset of its flyrecord (set
	// below) and its name.
	var bufAt []int
	for _, buf := range f.buffers[1:] {
		b = o.AppendUint16(b, optBuffer)
		u32(8 + len(buf.name) + 1)
		bufAt = append(bufAt, len(b))
		u64(0)
		b = append(append(b, buf.name...), 0)
	}
	b = o.AppendUint16(b, optDone)
	for i, buf := range f.buffers {
		if i > 0 {
			f.order.PutUint64(b[bufAt[i-1]:], uint64(len(b)))
		}
		b = appendFlyrecord(b, o, f.pageSize, buf.cpus)
	}
	return b
}

// appendFlyrecord appends a buffer's "flyrecord", its (offset, size) per
// CPU and the CPUs' pages, each CPU's from a page boundary.
func appendFlyrecord(b []byte, o binary.AppendByteOrder, pageSize int, cpus []cpuData) []byte {
	b = append(b, "flyrecord\x00"...)
	at := len(b) + 16*len(cpus)
	for _, c := range cpus {
		at = (at + pageSize - 1) / pageSize * pageSize
		b = o.AppendUint64(b, uint64(at))
		b = o.AppendUint64(b, uint64(len(c.data)))
		at += len(c.data)
	}
	for _, c := range cpus {
		for len(b)%pageSize != 0 {
			b = append(b, 0)
		}
		b = append(b, c.data...)
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
