package tracedat

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
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

// fieldDef is one field of an event format.
type fieldDef struct {
	name     string
	typ      string // the C type as the format file gives it
	offset   int
	size     int
	signed   bool
	dataLoc  bool // __data_loc: a u32 (length<<16 | offset) to the data
	relLoc   bool // __rel_loc: the offset is from the end of the field
	array    bool // a fixed array (name[N])
	elemSize int  // element size of arrays and __data_loc arrays
	str      bool // char arrays and __data_loc char[]: text
}

// eventFormat is an event's format file: its id, fields and print format.
type eventFormat struct {
	id       int
	system   string
	name     string
	common   []fieldDef // common_type, common_flags, common_preempt_count, common_pid
	fields   []fieldDef
	printFmt string
	text     []byte       // the format file as recorded
	print    *printFormat // parsed on first use, nil when it does not parse
	parsed   bool
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
	for _, fd := range parseFields(page) {
		switch fd.name {
		case "commit":
			h.commitOffset, h.commitSize = fd.offset, fd.size
		case "data":
			h.dataOffset = fd.offset
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
		if ev := parseFormat(text, system); ev != nil {
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

// cutLine returns b's first line, without its newline, and the rest.
func cutLine(b []byte) (line, rest []byte) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}

// formatID returns the "ID:" of a format file, without parsing the rest.
func formatID(text []byte) (int, bool) {
	for len(text) > 0 {
		var line []byte
		line, text = cutLine(text)
		if t := bytes.TrimSpace(line); bytes.HasPrefix(t, []byte("ID:")) {
			id, err := strconv.Atoi(string(bytes.TrimSpace(t[len("ID:"):])))
			return id, err == nil && id >= 0
		}
	}
	return 0, false
}

// parseFormat parses one format file; nil when it names no event.
func parseFormat(text []byte, system string) *eventFormat {
	ev := &eventFormat{system: system, id: -1, text: text}
	for _, line := range strings.Split(string(text), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "name:"):
			ev.name = strings.TrimSpace(t[len("name:"):])
		case strings.HasPrefix(t, "ID:"):
			if id, err := strconv.Atoi(strings.TrimSpace(t[len("ID:"):])); err == nil {
				ev.id = id
			}
		case strings.HasPrefix(t, "print fmt:"):
			ev.printFmt = strings.TrimSpace(t[len("print fmt:"):])
		}
	}
	if ev.name == "" || ev.id < 0 {
		return nil
	}
	for _, fd := range parseFields(text) {
		if strings.HasPrefix(fd.name, "common_") {
			ev.common = append(ev.common, fd)
		} else {
			ev.fields = append(ev.fields, fd)
		}
	}
	return ev
}

// parseFields reads the "field:TYPE NAME; offset:N; size:N; signed:N;"
// lines of a format file.
func parseFields(text []byte) []fieldDef {
	var out []fieldDef
	for _, line := range bytes.Split(text, []byte("\n")) {
		t := strings.TrimSpace(string(line))
		if !strings.HasPrefix(t, "field:") {
			continue
		}
		var fd fieldDef
		ok := false
		for _, part := range strings.Split(t, ";") {
			k, v, found := strings.Cut(strings.TrimSpace(part), ":")
			if !found {
				continue
			}
			v = strings.TrimSpace(v)
			switch k {
			case "field":
				fd.typ, fd.name, ok = splitDecl(v)
			case "offset":
				fd.offset, _ = strconv.Atoi(v)
			case "size":
				fd.size, _ = strconv.Atoi(v)
			case "signed":
				fd.signed = v == "1"
			}
		}
		if !ok || fd.offset < 0 || fd.size < 0 || fd.offset > 1<<16 || fd.size > 1<<16 {
			continue
		}
		fd.classify()
		out = append(out, fd)
	}
	return out
}

// splitDecl splits "unsigned long args[6]" into its type and name
// ("unsigned long[6]"... kept as "unsigned long", "args[6]").
func splitDecl(decl string) (typ, name string, ok bool) {
	i := strings.LastIndexAny(decl, " \t*")
	if i < 0 || i == len(decl)-1 {
		return "", "", false
	}
	return strings.TrimSpace(decl[:i+1]), decl[i+1:], true
}

// classify derives the field's kind from its declaration.
func (fd *fieldDef) classify() {
	switch {
	case strings.HasPrefix(fd.typ, "__data_loc "):
		fd.dataLoc = true
		fd.typ = strings.TrimPrefix(fd.typ, "__data_loc ")
	case strings.HasPrefix(fd.typ, "__rel_loc "):
		fd.dataLoc, fd.relLoc = true, true
		fd.typ = strings.TrimPrefix(fd.typ, "__rel_loc ")
	}
	count := 0
	if b := strings.IndexByte(fd.name, '['); b >= 0 {
		count, _ = strconv.Atoi(strings.TrimSuffix(fd.name[b+1:], "]"))
		fd.name = fd.name[:b]
		fd.array = !fd.dataLoc
	}
	base := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(fd.typ), "[]"))
	fd.str = (fd.array || fd.dataLoc) && (base == "char" || base == "const char")
	fd.elemSize = elemSize(base)
	if fd.array && count > 0 && fd.size%count == 0 {
		fd.elemSize = fd.size / count
	}
	if fd.elemSize == 0 {
		fd.elemSize = 1
	}
}

// elemSize is the size of a C scalar type, 0 when not known.
func elemSize(t string) int {
	t = strings.TrimPrefix(t, "const ")
	t = strings.TrimPrefix(t, "unsigned ")
	t = strings.TrimPrefix(t, "signed ")
	switch {
	case strings.HasSuffix(t, "*"):
		return 8
	case t == "char", t == "u8", t == "s8", t == "bool", t == "__u8", t == "__s8":
		return 1
	case t == "short", t == "u16", t == "s16", t == "__u16", t == "__s16":
		return 2
	case t == "int", t == "u32", t == "s32", t == "__u32", t == "__s32", t == "pid_t", t == "":
		return 4
	case t == "long", t == "u64", t == "s64", t == "__u64", t == "__s64", t == "long long", t == "size_t", t == "unsigned long":
		return 8
	}
	return 0
}
