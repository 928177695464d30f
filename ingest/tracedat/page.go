package tracedat

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Ring-buffer event header type_len values (kernel/trace/ring_buffer.c).
const (
	typePadding    = 29
	typeTimeExtend = 30
	typeTimeStamp  = 31
	tsShift        = 27
	commitMask     = 1<<27 - 1 // page flags live above the size
	missedEvents   = 1 << 31
	missedStored   = 1 << 30
)

// cpuReader walks one CPU's ring-buffer pages, record by record.
type cpuReader struct {
	f     *file
	buf   *buffer
	cpu   *cpuData
	index int32 // stream index

	page    int    // index of the current page
	pg      []byte // the current page's bytes (header included)
	pos     int    // offset of the next event in the current page's data
	end     int    // commit size of the current page
	ts      int64  // time of the last event read
	started bool   // the current page's header was read

	// the record last read
	recTS   int64
	recData []byte
	// recLost: events were lost before this record (recLostN of them, -1
	// when the kernel did not store the count).
	recLost  bool
	recLostN int64
	lost     bool // the current page starts after lost events
	lostN    int64
	done     bool
	mark     mark // where the pending record starts, for checkpoints
}

// pageWarning is a problem found in a page that did not stop reading.
type pageWarning struct {
	lost    int64 // events the kernel dropped before this page, -1 if unknown
	message string
	// damaged: a compressed chunk did not decompress (the full reader
	// refuses such a file when its first pass meets it).
	damaged bool
}

// mark is a cpuReader's position: enough to resume reading there.
type mark struct {
	page, pos int
	ts        int64
	started   bool
}

func (c *cpuReader) state() mark { return mark{c.page, c.pos, c.ts, c.started} }

// resume moves the reader to m (from a checkpoint); the next call to next
// reads on from there. warn hears of a damaged chunk met reopening the
// page (the page's other problems were reported when it was first read).
func (c *cpuReader) resume(m mark, warn func(pageWarning)) {
	*c = cpuReader{f: c.f, buf: c.buf, cpu: c.cpu, index: c.index, page: m.page}
	if m.started {
		damaged := func(w pageWarning) {
			if w.damaged {
				warn(w)
			}
		}
		if _, ok := c.openPage(damaged); ok {
			c.pos, c.ts = min(m.pos, c.end), m.ts
		}
	}
}

// openPage reads the header of the current page: its commit size (into
// c.end) and time; false past the last page.
func (c *cpuReader) openPage(warn func(pageWarning)) (ts int64, ok bool) {
	ps, h := c.buf.pageSize, c.f.header
	off := c.page * ps
	if off >= c.cpu.length() {
		c.done = true
		return 0, false
	}
	pg, err := c.cpu.slice(c.f, off, ps)
	for err != nil {
		// A damaged compressed chunk costs its pages only (and a page
		// that straddles it): reading goes on at the first page past it,
		// as trace-cmd does.
		var ce *chunkError
		if !errors.As(err, &ce) {
			warn(pageWarning{damaged: true, message: c.where(off, "%v; the rest of this CPU's data is skipped", err)})
			c.done = true
			return 0, false
		}
		next := max((ce.c.at+ce.c.usize+ps-1)/ps, c.page+1)
		lostTo := min(next*ps, c.cpu.length())
		warn(pageWarning{damaged: true, message: c.where(off, "%v: pages %d to %d (%d bytes of events) skipped, the rest read",
			ce, c.page, next-1, lostTo-off)})
		c.page = next
		off = c.page * ps
		if off >= c.cpu.length() {
			c.done = true
			return 0, false
		}
		pg, err = c.cpu.slice(c.f, off, ps)
	}
	c.pg = pg
	if len(pg) < h.dataOffset {
		warn(pageWarning{message: c.where(off, "page truncated to %d bytes, ignored", len(pg))})
		c.done = true
		return 0, false
	}
	ts = int64(c.f.order.Uint64(pg[0:8]))
	var commit uint64
	if h.commitSize == 8 {
		commit = c.f.order.Uint64(pg[h.commitOffset:])
	} else {
		commit = uint64(c.f.order.Uint32(pg[h.commitOffset:]))
	}
	size := int(commit & commitMask)
	room := len(pg) - h.dataOffset
	if size > room {
		warn(pageWarning{message: c.where(off, "commit size %d past the page's %d data bytes, cut", size, room)})
		size = room
	}
	if commit&missedEvents != 0 {
		lost := int64(-1)
		if commit&missedStored != 0 && size+c.f.longSize <= room {
			lostB := pg[h.dataOffset+size:]
			if c.f.longSize == 8 {
				lost = int64(c.f.order.Uint64(lostB))
			} else {
				lost = int64(c.f.order.Uint32(lostB))
			}
		}
		msg := "lost events (count not recorded)"
		if lost >= 0 {
			msg = fmt.Sprintf("%d events lost", lost)
		}
		warn(pageWarning{lost: lost, message: c.where(off, "%s before this page", msg)})
		c.lost, c.lostN = true, lost
	}
	c.pos, c.end, c.started = 0, size, true
	return ts, true
}

// next reads the next data record into recTS and recData, reporting page
// problems to warn; false (and done) after the last one.
func (c *cpuReader) next(warn func(pageWarning)) bool {
	c.mark = c.state()
	for !c.done {
		if !c.started {
			ts, ok := c.openPage(warn)
			if !ok {
				return false
			}
			c.ts = ts
		}
		if c.pos >= c.end {
			c.page++
			c.started = false
			continue
		}
		if c.event(warn) {
			return true
		}
	}
	return false
}

// event decodes the event header at c.pos; true when it is a data record.
func (c *cpuReader) event(warn func(pageWarning)) bool {
	off := c.page*c.buf.pageSize + c.f.header.dataOffset
	data := c.pg[c.f.header.dataOffset : c.f.header.dataOffset+c.end]
	if c.end-c.pos < 4 {
		warn(pageWarning{message: c.where(off+c.pos, "event header cut by the end of the page, rest of page skipped")})
		c.pos = c.end
		return false
	}
	hdr := c.f.order.Uint32(data[c.pos:])
	typeLen, delta := hdr&31, int64(hdr>>5)
	if c.f.order == binary.BigEndian { // type_len is then the high bits
		typeLen, delta = hdr>>27, int64(hdr&(1<<27-1))
	}
	p := c.pos + 4
	arg := func() (uint32, bool) {
		if c.end-p < 4 {
			warn(pageWarning{message: c.where(off+c.pos, "event of type %d cut by the end of the page, rest of page skipped", typeLen)})
			c.pos = c.end
			return 0, false
		}
		v := c.f.order.Uint32(data[p:])
		return v, true
	}
	switch typeLen {
	case typePadding:
		if delta == 0 { // the rest of the page is empty
			c.pos = c.end
			return false
		}
		n, ok := arg()
		if !ok {
			return false
		}
		c.pos = p + int(min(n, uint32(c.end)))
		return false
	case typeTimeExtend:
		n, ok := arg()
		if !ok {
			return false
		}
		c.ts += int64(n)<<tsShift + delta
		c.pos = p + 4
		return false
	case typeTimeStamp:
		n, ok := arg()
		if !ok {
			return false
		}
		// An absolute time: the page's high bits are kept.
		abs := int64(n)<<tsShift + delta
		c.ts = c.ts&^(1<<59-1) | abs
		c.pos = p + 4
		return false
	}
	var length int
	if typeLen == 0 {
		n, ok := arg()
		if !ok {
			return false
		}
		if n < 4 {
			warn(pageWarning{message: c.where(off+c.pos, "event length %d, rest of page skipped", n)})
			c.pos = c.end
			return false
		}
		length = int(n) - 4
		p += 4
	} else {
		length = int(typeLen) * 4
	}
	if length > c.end-p {
		warn(pageWarning{message: c.where(off+c.pos, "event of %d bytes past the page's commit size, rest of page skipped", length)})
		c.pos = c.end
		return false
	}
	c.ts += delta
	c.recTS, c.recData = c.ts, data[p:p+length]
	c.recLost, c.recLostN, c.lost = c.lost, c.lostN, false
	c.pos = p + (length+3)&^3
	return true
}

// where names a place in this CPU's data for warnings and errors.
func (c *cpuReader) where(off int, format string, a ...any) string {
	name := ""
	if c.buf.name != "" {
		name = fmt.Sprintf("buffer %q ", c.buf.name)
	}
	return fmt.Sprintf("%sCPU %d, offset %d of its data (file offset %d): %s", name, c.cpu.cpu, off, c.cpu.offset+int64(off), fmt.Sprintf(format, a...))
}
