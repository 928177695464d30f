package record

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"os"
	"slices"

	"github.com/klauspost/compress/zstd"
	"github.com/tracetui/tracetui/ingest/tracedat"
)

// Meta is what a trace.dat keeps beside the ring-buffer pages.
type Meta struct {
	PageSize    int    // ring-buffer page (sub-buffer) size
	HeaderPage  []byte // events/header_page
	HeaderEvent []byte // events/header_event
	Ftrace      []eventFormat
	Formats     []eventFormat // grouped by system, systems in a row
	Kallsyms    []byte
	Printk      []byte
	Cmdlines    []byte
	Tgids       []byte // "pid tgid" lines, as saved_tgids gives them
	TraceClock  string // trace_clock's content ("[local] global ...")
	Clock       string // the selected clock ("local")
	Uname       string
	CPUCount    int
	Version     string
	CPUStats    []string // per_cpu/cpuN/stats of each CPU written, in order
	// Compress compresses the metadata sections with zstd, and the
	// pages too, by chunks of chunkPages pages.
	Compress bool
}

// cpuPages is one CPU's recorded pages, in a file.
type cpuPages struct {
	cpu  int
	file *os.File
	size int64
}

// le: the files written are little endian (as the machines recording are).
var le = binary.LittleEndian

// zstdVersion is the compressor version written in the header:
// trace-cmd looks the algorithm up by name and accepts it.
const zstdVersion = "1.5.4"

// datWriter writes a version 7 trace.dat to a file, tracking the offset.
type datWriter struct {
	f   *os.File
	w   *bufio.Writer
	off int64
	enc *zstd.Encoder
	err error
}

func (d *datWriter) bytes(b []byte) {
	if d.err != nil {
		return
	}
	n, err := d.w.Write(b)
	d.off += int64(n)
	d.err = err
}

func (d *datWriter) str(s string) { d.bytes(append([]byte(s), 0)) }

func (d *datWriter) u16(v uint16) { d.bytes(le.AppendUint16(nil, v)) }
func (d *datWriter) u32(v uint32) { d.bytes(le.AppendUint32(nil, v)) }
func (d *datWriter) u64(v uint64) { d.bytes(le.AppendUint64(nil, v)) }

// section writes a section header and body; the body is compressed when
// the file is.
func (d *datWriter) section(id uint16, body []byte) int64 {
	at := d.off
	flags := uint16(0)
	if d.enc != nil {
		c := d.enc.EncodeAll(body, nil)
		var b bytes.Buffer
		b.Write(le.AppendUint32(nil, uint32(len(c))))
		b.Write(le.AppendUint32(nil, uint32(len(body))))
		b.Write(c)
		body, flags = b.Bytes(), tracedat.SectionCompressed
	}
	d.u16(id)
	d.u16(flags)
	d.u32(0) // no description string (no strings section)
	d.u64(uint64(len(body)))
	d.bytes(body)
	return at
}

// sectionAt is where a metadata section was written.
type sectionAt struct {
	id  uint16
	off int64
}

// body builds a section's body.
type body struct{ bytes.Buffer }

func (b *body) u32(v uint32) { b.Write(le.AppendUint32(nil, v)) }
func (b *body) u64(v uint64) { b.Write(le.AppendUint64(nil, v)) }
func (b *body) str(s string) { b.WriteString(s); b.WriteByte(0) }

// option appends one option (id, size, data).
func (b *body) option(id uint16, data []byte) {
	b.Write(le.AppendUint16(nil, id))
	b.u32(uint32(len(data)))
	b.Write(data)
}

// writeDat writes a trace.dat version 7 to f: the header, the metadata
// sections, the buffer section with each CPU's pages copied from its
// file (page aligned), then the options section that points to them all
// (the header's first-options offset is patched last). The layout is in
// the package doc.
func writeDat(f *os.File, m *Meta, cpus []cpuPages) error {
	d := &datWriter{f: f, w: bufio.NewWriterSize(f, 1<<20)}
	compression, version := "none", ""
	if m.Compress {
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
		if err != nil {
			return err
		}
		defer enc.Close()
		d.enc, compression, version = enc, "zstd", zstdVersion
	}
	d.bytes([]byte(tracedat.Magic))
	d.str("7")
	d.bytes([]byte{0, 8}) // little endian, 8-byte longs
	d.u32(uint32(m.PageSize))
	d.str(compression)
	d.str(version)
	firstOptions := d.off
	d.u64(0) // patched at the end

	nb := func() *body { return &body{} }
	b := nb()
	b.WriteString("header_page\x00")
	b.u64(uint64(len(m.HeaderPage)))
	b.Write(m.HeaderPage)
	b.WriteString("header_event\x00")
	b.u64(uint64(len(m.HeaderEvent)))
	b.Write(m.HeaderEvent)
	refs := []sectionAt{{tracedat.OptHeaderInfo, d.section(tracedat.OptHeaderInfo, b.Bytes())}}

	b = nb()
	b.u32(uint32(len(m.Ftrace)))
	for _, ev := range m.Ftrace {
		b.u64(uint64(len(ev.text)))
		b.Write(ev.text)
	}
	refs = append(refs, sectionAt{tracedat.OptFtraceEvents, d.section(tracedat.OptFtraceEvents, b.Bytes())})

	b = nb()
	var systems [][]eventFormat
	for i, ev := range m.Formats {
		if i == 0 || ev.system != m.Formats[i-1].system {
			systems = append(systems, nil)
		}
		systems[len(systems)-1] = append(systems[len(systems)-1], ev)
	}
	b.u32(uint32(len(systems)))
	for _, sys := range systems {
		b.str(sys[0].system)
		b.u32(uint32(len(sys)))
		for _, ev := range sys {
			b.u64(uint64(len(ev.text)))
			b.Write(ev.text)
		}
	}
	for _, s := range []struct {
		id   uint16
		data []byte
		long bool
	}{{tracedat.OptEventFormats, b.Bytes(), false}, {tracedat.OptKallsyms, m.Kallsyms, false},
		{tracedat.OptPrintk, m.Printk, false}, {tracedat.OptCmdlines, m.Cmdlines, true}} {
		data := s.data
		if s.id != tracedat.OptEventFormats {
			sb := nb()
			if s.long {
				sb.u64(uint64(len(data)))
			} else {
				sb.u32(uint32(len(data)))
			}
			sb.Write(data)
			data = sb.Bytes()
		}
		refs = append(refs, struct {
			id  uint16
			off int64
		}{s.id, d.section(s.id, data)})
	}

	bufferAt := d.off
	offsets, sizes, err := d.buffer(m, cpus)
	if err != nil {
		return err
	}

	// The options section.
	ob := nb()
	for _, r := range refs {
		ob.option(r.id, le.AppendUint64(nil, uint64(r.off)))
	}
	ob.option(tracedat.OptTraceClock, append([]byte(m.TraceClock), 0))
	ob.option(tracedat.OptUname, append([]byte(m.Uname), 0))
	ob.option(tracedat.OptCPUCount, le.AppendUint32(nil, uint32(m.CPUCount)))
	if m.Version != "" {
		ob.option(tracedat.OptVersion, append([]byte(m.Version), 0))
	}
	if len(m.Tgids) > 0 {
		ob.option(tracedat.OptSavedTgids, append(slices.Clip(m.Tgids), 0))
	}
	for _, st := range m.CPUStats {
		ob.option(tracedat.OptCPUStat, append([]byte(st), 0))
	}
	bo := nb()
	bo.u64(uint64(bufferAt))
	bo.str("") // the top buffer: trace-cmd report prints no buffer name
	bo.str(m.Clock)
	bo.u32(uint32(m.PageSize))
	bo.u32(uint32(len(cpus)))
	for i, c := range cpus {
		bo.u32(uint32(c.cpu))
		bo.u64(uint64(offsets[i]))
		bo.u64(uint64(sizes[i]))
	}
	ob.option(tracedat.OptBuffer, bo.Bytes())
	ob.option(tracedat.OptDone, le.AppendUint64(nil, 0))
	optionsAt := d.off
	d.u16(tracedat.OptDone)
	d.u16(0) // never compressed: the reader's chain starts here
	d.u32(0)
	d.u64(uint64(ob.Len()))
	d.bytes(ob.Bytes())
	if d.err != nil {
		return d.err
	}
	if err := d.w.Flush(); err != nil {
		return err
	}
	_, err = f.WriteAt(le.AppendUint64(nil, uint64(optionsAt)), firstOptions)
	return err
}
