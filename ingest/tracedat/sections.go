package tracedat

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/klauspost/compress/zstd"
	"github.com/tracetui/tracetui/ingest/ftracefmt"
)

// Option and section ids (trace-cmd.dat.v7(5)); in version 7 a section's
// id is the id of the option that points to it. Exported for the writer
// (package ingest/record), which lays files out as this package reads them.
const (
	OptDone         = 0
	OptDate         = 1
	OptCPUStat      = 2
	OptBuffer       = 3
	OptTraceClock   = 4
	OptUname        = 5
	OptOffset       = 7
	OptCPUCount     = 8
	OptVersion      = 9
	OptHeaderInfo   = 16
	OptFtraceEvents = 17
	OptEventFormats = 18
	OptKallsyms     = 19
	OptPrintk       = 20
	OptCmdlines     = 21
	// OptSavedTgids holds the kernel's saved_tgids ("pid tgid" lines,
	// NUL-terminated): not one of trace-cmd's options, which `trace-cmd
	// report` skips; the id and text are gpuvis's, which reads them too.
	OptSavedTgids = 32
)

// SectionCompressed is the section-header flag of a compressed section.
const SectionCompressed = 1

// parseV6 reads a version 6 file: its metadata in a fixed order, the
// options, then the flyrecord's per-CPU offsets.
func (f *file) parseV6(r *rd) error {
	r.what = "header info"
	if err := f.parseHeaderInfo(r); err != nil {
		return err
	}
	r.what = "ftrace event formats"
	f.parseFormatFiles(r, "ftrace")
	r.what = "event formats"
	f.parseEventSystems(r)
	r.what = "kallsyms"
	f.kallsyms = r.take(uint64(r.u32()))
	r.what = "printk formats"
	f.printk = r.take(uint64(r.u32()))
	r.what = "saved cmdlines"
	f.cmdlines = r.take(r.u64())
	r.what = "CPU count"
	ncpu := r.u32()
	if r.err != nil {
		return r.err
	}
	if ncpu > maxCPUs {
		return fmt.Errorf("%w: %d CPUs", ErrCorrupt, ncpu)
	}
	f.cpuCount = int(ncpu)
	var instances []buffer
	var instOffsets []uint64
	for r.err == nil {
		r.what = "options"
		tag := r.take(10)
		if r.err != nil {
			return r.err
		}
		switch string(tag) {
		case "options  \x00":
			for n := 0; ; n++ {
				id := r.u16()
				if r.err != nil || id == OptDone {
					break
				}
				data := r.take(uint64(r.u32()))
				if n > maxOptions {
					r.fail("more than %d options", maxOptions)
				}
				if id == OptBuffer && len(data) >= 8 {
					instOffsets = append(instOffsets, f.order.Uint64(data))
					instances = append(instances, buffer{name: cstr(data[8:])})
					continue
				}
				f.option(id, data)
			}
		case "flyrecord\x00":
			top := buffer{clock: f.clock, pageSize: f.pageSize}
			top.cpus = f.v6CPUs(r, int(ncpu))
			f.buffers = append(f.buffers, top)
			for i, off := range instOffsets {
				if off >= uint64(f.data.size) || len(f.buffers) >= maxBuffers {
					return fmt.Errorf("%w: buffer %q at offset %d, past the end of the file", ErrCorrupt, instances[i].name, off)
				}
				// Its flyrecord: the tag, then an offset and a size per CPU.
				b, err := f.data.read(off, min(uint64(f.data.size)-off, uint64(len("flyrecord\x00"))+16*uint64(ncpu)))
				if err != nil {
					return err
				}
				ir := &rd{b: b, order: f.order, what: "buffer " + strconv.Quote(instances[i].name)}
				ir.take(uint64(len("flyrecord\x00")) * boolU(bytes.HasPrefix(b, []byte("flyrecord\x00"))))
				inst := instances[i]
				inst.clock, inst.pageSize = f.clock, f.pageSize
				inst.cpus = f.v6CPUs(ir, int(ncpu))
				if ir.err != nil {
					return ir.err
				}
				f.buffers = append(f.buffers, inst)
			}
			return r.err
		case "latency  \x00":
			return fmt.Errorf("%w: a latency-tracer (text) capture, not flyrecord data: use `trace-cmd report` on it", ErrVersion)
		default:
			r.fail("%q where \"options\" or \"flyrecord\" was expected", tag)
		}
	}
	return r.err
}

func boolU(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// v6CPUs reads a flyrecord's (offset, size) pair per CPU.
func (f *file) v6CPUs(r *rd, n int) []cpuData {
	var cpus []cpuData
	for i := 0; i < n && r.err == nil; i++ {
		off, size := r.u64(), r.u64()
		l, err := f.storedData(off, size)
		if err != nil {
			r.fail("CPU %d: %v", i, err)
			break
		}
		cpus = append(cpus, cpuData{cpu: i, offset: int64(off), chunks: l})
	}
	return cpus
}

// option records what an option says about the whole trace.
func (f *file) option(id uint16, data []byte) {
	switch id {
	case OptTraceClock:
		f.clock = selectedClock(cstr(data))
	case OptUname:
		f.uname = cstr(data)
	case OptOffset:
		if v, err := strconv.ParseInt(strings.TrimSpace(cstr(data)), 0, 64); err == nil {
			f.tsOffset = v
		}
	case OptCPUCount:
		if len(data) >= 4 {
			f.cpuCount = int(f.order.Uint32(data))
		}
	case OptSavedTgids:
		f.tgids = ftracefmt.ParseTgids(data)
	}
}

// selectedClock returns the bracketed clock of trace_clock's content
// ("[local] global counter"), or the content when nothing is bracketed.
func selectedClock(s string) string {
	if i := strings.IndexByte(s, '['); i >= 0 {
		if j := strings.IndexByte(s[i:], ']'); j > 0 {
			return s[i+1 : i+j]
		}
	}
	return strings.TrimSpace(s)
}

// parseV7 reads a version 7 file: the compression header, then a chain of
// options sections pointing to the other sections.
func (f *file) parseV7(r *rd) error {
	r.what = "compression header"
	f.compress = r.str()
	r.str() // the compressor's version
	next := r.u64()
	if r.err != nil {
		return r.err
	}
	var refs []sectionRef
	var bufOpts [][]byte
	for n := 0; next != 0; n++ {
		if n >= maxOptions {
			return fmt.Errorf("%w: more than %d options sections (a loop?)", ErrCorrupt, maxOptions)
		}
		body, err := f.section(next, OptDone)
		if err != nil {
			return err
		}
		or := &rd{b: body, order: f.order, what: "options section", base: int64(next)}
		next = 0
		for or.err == nil && or.off < len(or.b) {
			id := or.u16()
			data := or.take(uint64(or.u32()))
			switch {
			case or.err != nil:
			case id == OptDone:
				if len(data) >= 8 {
					next = f.order.Uint64(data)
				}
			case id >= OptHeaderInfo && id <= OptCmdlines && len(data) >= 8:
				refs = append(refs, sectionRef{id, f.order.Uint64(data)})
			case id == OptBuffer:
				bufOpts = append(bufOpts, data)
			default:
				f.option(id, data)
			}
		}
		if or.err != nil {
			return or.err
		}
	}
	for _, ref := range refs {
		if f.lazy && ref.id != OptHeaderInfo && ref.id != OptCmdlines {
			f.later = append(f.later, ref)
			continue
		}
		if err := f.readSection(ref); err != nil {
			return err
		}
	}
	for _, data := range bufOpts {
		if len(f.buffers) >= maxBuffers {
			return fmt.Errorf("%w: more than %d buffers", ErrCorrupt, maxBuffers)
		}
		b, err := f.parseBufferV7(data)
		if err != nil {
			return err
		}
		f.buffers = append(f.buffers, b)
	}
	return nil
}

// sectionRef is where a version 7 file keeps a section.
type sectionRef struct {
	id  uint16
	off uint64
}

// readSection reads and parses one section of a version 7 file.
func (f *file) readSection(ref sectionRef) error {
	body, err := f.section(ref.off, ref.id)
	if err != nil {
		return err
	}
	sr := &rd{b: body, order: f.order, base: int64(ref.off)}
	switch ref.id {
	case OptHeaderInfo:
		sr.what = "header info"
		if err := f.parseHeaderInfo(sr); err != nil {
			return err
		}
	case OptFtraceEvents:
		sr.what = "ftrace event formats"
		f.parseFormatFiles(sr, "ftrace")
	case OptEventFormats:
		sr.what = "event formats"
		f.parseEventSystems(sr)
	case OptKallsyms:
		sr.what = "kallsyms"
		f.kallsyms = sr.take(uint64(sr.u32()))
	case OptPrintk:
		sr.what = "printk formats"
		f.printk = sr.take(uint64(sr.u32()))
	case OptCmdlines:
		sr.what = "saved cmdlines"
		f.cmdlines = sr.take(sr.u64())
	}
	return sr.err
}

// loadSections reads the sections with the given ids that a lazily
// parsed file left for later (each once).
func (f *file) loadSections(ids ...uint16) error {
	keep := f.later[:0]
	var err error
	for _, ref := range f.later {
		if err == nil && slices.Contains(ids, ref.id) {
			err = f.readSection(ref)
			continue
		}
		keep = append(keep, ref)
	}
	f.later = keep
	return err
}

// parseBufferV7 reads a BUFFER option and the CPU data it points to.
func (f *file) parseBufferV7(data []byte) (buffer, error) {
	r := &rd{b: data, order: f.order, what: "buffer option"}
	secOff := r.u64()
	b := buffer{name: r.str(), clock: r.str(), pageSize: int(r.u32())}
	n := r.u32()
	if r.err != nil {
		return b, r.err
	}
	if n > maxCPUs {
		return b, fmt.Errorf("%w: buffer %q has %d CPUs", ErrCorrupt, b.name, n)
	}
	if b.pageSize < 64 || b.pageSize > 1<<24 {
		return b, fmt.Errorf("%w: buffer %q: page size %d", ErrCorrupt, b.name, b.pageSize)
	}
	flags := uint16(0)
	if h, err := f.data.read(secOff, 4); err == nil {
		flags = f.order.Uint16(h[2:])
	}
	compressed := flags&SectionCompressed != 0 && f.compress != "" && f.compress != "none"
	for i := uint32(0); i < n; i++ {
		cpu, off, size := r.u32(), r.u64(), r.u64()
		if compressed && size > 0 {
			// The size counts the chunks, not the count before them:
			// read the chunks from the offset on.
			if off > uint64(f.data.size) {
				return b, fmt.Errorf("%w: buffer %q CPU %d: data at offset %d, past the end of the file", ErrCorrupt, b.name, cpu, off)
			}
			d := cpuData{cpu: int(cpu), offset: int64(off)}
			var err error
			// Chunks are decompressed one at a time as they are read, also
			// by the two passes of a full reader: decompressed whole, the
			// data of a 13 MB capture (1.7 M events) took 200 MB and 1 s
			// before its first event.
			if !f.lazy || !f.chunksFromState(&d, off, size) {
				d.chunks, err = f.chunkIndex(off)
			}
			if err != nil {
				return b, fmt.Errorf("buffer %q CPU %d: %w", b.name, cpu, err)
			}
			b.cpus = append(b.cpus, d)
			continue
		}
		l, err := f.storedData(off, size)
		if err != nil {
			return b, fmt.Errorf("buffer %q CPU %d: %w", b.name, cpu, err)
		}
		b.cpus = append(b.cpus, cpuData{cpu: int(cpu), offset: int64(off), chunks: l})
	}
	return b, nil
}

// section returns the body of the section at off (decompressed), checking
// its id.
func (f *file) section(off uint64, id uint16) ([]byte, error) {
	if off > uint64(f.data.size) {
		return nil, fmt.Errorf("%w: section %d at offset %d, past the end of the file", ErrCorrupt, id, off)
	}
	head, err := f.data.read(off, min(16, uint64(f.data.size)-off))
	if err != nil {
		return nil, err
	}
	r := &rd{b: head, order: f.order, what: "section header", base: int64(off)}
	gotID, flags := r.u16(), r.u16()
	r.u32() // description string id
	size := r.u64()
	if r.err != nil {
		return nil, r.err
	}
	body, err := f.data.read(off+16, size)
	if err != nil {
		return nil, fmt.Errorf("section %d at offset %d: %w", id, off, err)
	}
	if gotID != id {
		return nil, fmt.Errorf("%w: section at offset %d has id %d, %d expected", ErrCorrupt, off, gotID, id)
	}
	if flags&SectionCompressed == 0 {
		return body, nil
	}
	cr := &rd{b: body, order: f.order, what: "compressed section", base: int64(off) + 16}
	csize, usize := cr.u32(), cr.u32()
	data := cr.take(uint64(csize))
	if cr.err != nil {
		return nil, cr.err
	}
	out, err := f.decompress(nil, data, usize)
	if err != nil {
		return nil, fmt.Errorf("section %d at offset %d: %w", id, off, err)
	}
	return out, nil
}

// decompress appends the decompression of data, which must give exactly
// usize bytes, to dst.
func (f *file) decompress(dst, data []byte, usize uint32) ([]byte, error) {
	if usize > maxSectionBytes {
		return nil, fmt.Errorf("%w: %d bytes once decompressed", ErrCorrupt, usize)
	}
	start := len(dst)
	switch f.compress {
	case "zstd":
		if f.zstd == nil {
			d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxZstdWindow))
			if err != nil {
				return nil, err
			}
			f.zstd = d
		}
		// Grow the output by doubling (chunks append to one CPU's data),
		// by no more than the data could give.
		if need := min(int(usize), 1024*len(data)+64<<10); cap(dst)-len(dst) < need {
			dst = append(make([]byte, 0, max(2*cap(dst), len(dst)+need)), dst...)
		}
		out, err := f.zstd.DecodeAll(data, dst)
		if err != nil {
			return nil, fmt.Errorf("%w: zstd: %v", ErrCorrupt, err)
		}
		dst = out
	case "zlib":
		z, err := zlib.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("%w: zlib: %v", ErrCorrupt, err)
		}
		// Grow with what the data really gives, not with the announced size.
		buf := bytes.NewBuffer(dst)
		if _, err := io.Copy(buf, io.LimitReader(z, int64(usize)+1)); err != nil {
			return nil, fmt.Errorf("%w: zlib: %v", ErrCorrupt, err)
		}
		dst = buf.Bytes()
	default:
		return nil, fmt.Errorf("%w: compression %q (zstd and zlib are read)", ErrVersion, f.compress)
	}
	if n := len(dst) - start; n != int(usize) {
		return nil, fmt.Errorf("%w: %s data gives %d bytes, %d announced", ErrCorrupt, f.compress, n, usize)
	}
	return dst, nil
}
