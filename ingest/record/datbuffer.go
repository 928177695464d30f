package record

import (
	"fmt"
	"io"

	"github.com/tracetui/tracetui/ingest/tracedat"
)

// chunkPages is how many pages a compressed chunk of CPU data holds (as
// trace-cmd compresses them): a reader decompresses one chunk to reach
// an event.
const chunkPages = 10

// buffer writes the buffer section: its header, zeros up to a page
// boundary, then the data of each CPU in turn: its pages as recorded, or
// compressed (a u32 count of chunks, then each chunk's u32 compressed
// size, u32 size and zstd frame). It returns where each CPU's data
// starts and its size (compressed: without the count, as trace-cmd
// counts it). The section's size, known at the end, is patched in.
func (d *datWriter) buffer(m *Meta, cpus []cpuPages) (offsets, sizes []int64, err error) {
	at := d.off
	flags := uint16(0)
	if d.enc != nil {
		flags = tracedat.SectionCompressed
	}
	d.u16(tracedat.OptBuffer)
	d.u16(flags)
	d.u32(0)
	d.u64(0) // the size, patched
	page := int64(m.PageSize)
	d.bytes(make([]byte, (d.off+page-1)/page*page-d.off))
	if d.err == nil {
		d.err = d.w.Flush() // the pages go straight to the file
	}
	for _, c := range cpus {
		offsets = append(offsets, d.off)
		if d.err != nil {
			return nil, nil, d.err
		}
		if _, err := c.file.Seek(0, io.SeekStart); err != nil {
			return nil, nil, fmt.Errorf("CPU %d pages: %w", c.cpu, err)
		}
		var n int64
		if d.enc != nil {
			n, err = d.chunks(c, int(page))
		} else {
			// copy_file_range(2) where the file system has it: no copy
			// through user space (nor any, with reflinks).
			n, err = d.f.ReadFrom(io.LimitReader(c.file, c.size))
			d.off += n
			if err == nil && n != c.size {
				err = fmt.Errorf("CPU %d pages: %d bytes of %d", c.cpu, n, c.size)
			}
		}
		if err != nil {
			return nil, nil, err
		}
		sizes = append(sizes, n)
	}
	if d.err == nil {
		d.err = d.w.Flush()
	}
	if d.err == nil {
		_, d.err = d.f.WriteAt(le.AppendUint64(nil, uint64(d.off-at-16)), at+8)
	}
	return offsets, sizes, d.err
}

// chunks writes one CPU's pages compressed, chunkPages pages a chunk,
// and returns the bytes written after the count of chunks.
func (d *datWriter) chunks(c cpuPages, page int) (int64, error) {
	size := int64(chunkPages * page)
	count := (c.size + size - 1) / size
	d.u32(uint32(count))
	start := d.off
	buf := make([]byte, size)
	var out []byte
	for left := c.size; left > 0 && d.err == nil; {
		n := min(left, size)
		if _, err := io.ReadFull(c.file, buf[:n]); err != nil {
			return 0, fmt.Errorf("CPU %d pages: %w", c.cpu, err)
		}
		out = d.enc.EncodeAll(buf[:n], out[:0])
		d.u32(uint32(len(out)))
		d.u32(uint32(n))
		d.bytes(out)
		left -= n
	}
	return d.off - start, d.err
}
