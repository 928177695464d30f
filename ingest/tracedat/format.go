package tracedat

import (
	"fmt"

	"github.com/tracetui/tracetui/ingest/ftracefmt"
)

// pageHeader is where the kernel's ring-buffer page header (header_page)
// keeps the page's timestamp, commit size and data.
type pageHeader struct {
	commitOffset, commitSize int
	dataOffset               int
}

func defaultPageHeader(longSize int) pageHeader {
	return pageHeader{commitOffset: 8, commitSize: longSize, dataOffset: 8 + longSize}
}

// parseHeaderInfo reads the header_page and header_event files.
func (f *file) parseHeaderInfo(r *rd) error {
	if string(r.take(12)) != "header_page\x00" {
		r.fail("no header_page")
		return r.err
	}
	page := r.take(r.u64())
	if string(r.take(13)) != "header_event\x00" {
		r.fail("no header_event")
		return r.err
	}
	event := r.take(r.u64())
	if r.err != nil {
		return r.err
	}
	f.headerPage, f.headerEvent = page, event
	h := defaultPageHeader(f.longSize)
	for _, fd := range ftracefmt.ParseFields(page) {
		switch fd.Name {
		case "commit":
			h.commitOffset, h.commitSize = fd.Offset, fd.Size
		case "data":
			h.dataOffset = fd.Offset
		}
	}
	if h.commitSize != 4 && h.commitSize != 8 || h.dataOffset < h.commitOffset+h.commitSize || h.dataOffset > 64 {
		return fmt.Errorf("%w: header_page: commit at %d (%d bytes), data at %d", ErrCorrupt, h.commitOffset, h.commitSize, h.dataOffset)
	}
	f.header = h
	return nil
}

// parseFormatFiles reads a count and that many (size, format file) pairs.
func (f *file) parseFormatFiles(r *rd, system string) {
	n := r.u32()
	for i := uint32(0); i < n && r.err == nil; i++ {
		text := r.take(r.u64())
		if r.err != nil {
			return
		}
		if len(f.formats) >= maxFormats {
			r.fail("more than %d event formats", maxFormats)
			return
		}
		if ev := ftracefmt.Parse(text, system); ev != nil {
			f.formats = append(f.formats, ev)
		}
	}
}

// parseEventSystems reads a count of systems, each a name and its format files.
func (f *file) parseEventSystems(r *rd) {
	n := r.u32()
	for i := uint32(0); i < n && r.err == nil; i++ {
		f.parseFormatFiles(r, r.str())
	}
}
