package ftracefmt

import (
	"bytes"
	"strconv"
	"strings"
)

// Field is one field of an event format.
type Field struct {
	Name     string
	Type     string // the C type as the format file gives it
	Offset   int
	Size     int
	Signed   bool
	DataLoc  bool // __data_loc: a u32 (length<<16 | offset) to the data
	RelLoc   bool // __rel_loc: the offset is from the end of the field
	Array    bool // a fixed array (name[N])
	ElemSize int  // element size of arrays and __data_loc arrays
	Str      bool // char arrays and __data_loc char[]: text
}

// Format is an event's format file: its id, fields and print format.
type Format struct {
	ID       int
	System   string
	Name     string
	Common   []Field // common_type, common_flags, common_preempt_count, common_pid
	Fields   []Field
	PrintFmt string
	Text     []byte       // the format file as recorded
	print    *printFormat // parsed on first use, nil when it does not parse
	parsed   bool
}

// cutLine returns b's first line, without its newline, and the rest.
func cutLine(b []byte) (line, rest []byte) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}

// FormatID returns the "ID:" of a format file, without parsing the rest.
func FormatID(text []byte) (int, bool) {
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

// Parse parses one format file (the kernel's events/SYSTEM/NAME/format
// text) of the named system; nil when it names no event or has no ID.
func Parse(text []byte, system string) *Format {
	ev := &Format{System: system, ID: -1, Text: text}
	for _, line := range strings.Split(string(text), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "name:"):
			ev.Name = strings.TrimSpace(t[len("name:"):])
		case strings.HasPrefix(t, "ID:"):
			if id, err := strconv.Atoi(strings.TrimSpace(t[len("ID:"):])); err == nil {
				ev.ID = id
			}
		case strings.HasPrefix(t, "print fmt:"):
			ev.PrintFmt = strings.TrimSpace(t[len("print fmt:"):])
		}
	}
	if ev.Name == "" || ev.ID < 0 {
		return nil
	}
	for _, fd := range ParseFields(text) {
		if strings.HasPrefix(fd.Name, "common_") {
			ev.Common = append(ev.Common, fd)
		} else {
			ev.Fields = append(ev.Fields, fd)
		}
	}
	return ev
}

// ParseFields reads the "field:TYPE NAME; offset:N; size:N; signed:N;"
// lines of a format file.
func ParseFields(text []byte) []Field {
	var out []Field
	for _, line := range bytes.Split(text, []byte("\n")) {
		t := strings.TrimSpace(string(line))
		if !strings.HasPrefix(t, "field:") {
			continue
		}
		var fd Field
		ok := false
		for _, part := range strings.Split(t, ";") {
			k, v, found := strings.Cut(strings.TrimSpace(part), ":")
			if !found {
				continue
			}
			v = strings.TrimSpace(v)
			switch k {
			case "field":
				fd.Type, fd.Name, ok = splitDecl(v)
			case "offset":
				fd.Offset, _ = strconv.Atoi(v)
			case "size":
				fd.Size, _ = strconv.Atoi(v)
			case "signed":
				fd.Signed = v == "1"
			}
		}
		if !ok || fd.Offset < 0 || fd.Size < 0 || fd.Offset > 1<<16 || fd.Size > 1<<16 {
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
func (fd *Field) classify() {
	switch {
	case strings.HasPrefix(fd.Type, "__data_loc "):
		fd.DataLoc = true
		fd.Type = strings.TrimPrefix(fd.Type, "__data_loc ")
	case strings.HasPrefix(fd.Type, "__rel_loc "):
		fd.DataLoc, fd.RelLoc = true, true
		fd.Type = strings.TrimPrefix(fd.Type, "__rel_loc ")
	}
	count := 0
	if b := strings.IndexByte(fd.Name, '['); b >= 0 {
		count, _ = strconv.Atoi(strings.TrimSuffix(fd.Name[b+1:], "]"))
		fd.Name = fd.Name[:b]
		fd.Array = !fd.DataLoc
	}
	base := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(fd.Type), "[]"))
	fd.Str = (fd.Array || fd.DataLoc) && (base == "char" || base == "const char")
	fd.ElemSize = elemSize(base)
	if fd.Array && count > 0 && fd.Size%count == 0 {
		fd.ElemSize = fd.Size / count
	}
	if fd.ElemSize == 0 {
		fd.ElemSize = 1
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
