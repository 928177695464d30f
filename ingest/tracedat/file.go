package tracedat

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"

	"github.com/klauspost/compress/zstd"
	"github.com/tracetui/tracetui/ingest/ftracefmt"
)

// Magic starts every trace.dat file.
const Magic = "\x17\x08\x44tracing"

// Limits on what untrusted lengths may allocate or loop over.
const (
	maxSectionBytes = 1 << 30 // one decompressed section or chunk
	maxCPUs         = 4096
	maxBuffers      = 256
	maxFormats      = 1 << 16
	maxOptions      = 1 << 16
	maxZstdWindow   = 64 << 20 // memory a zstd frame may ask for
)

// Sentinel errors, wrapped by the reader's errors.
var (
	// ErrNotTraceDat: the file does not start with the trace.dat magic.
	ErrNotTraceDat = errors.New("not a trace.dat file (no \\x17\\x08\\x44tracing magic)")
	// ErrVersion: a file version this reader does not know.
	ErrVersion = errors.New("unsupported trace.dat version (6 and 7 are read)")
	// ErrCorrupt: a length or offset in the file points outside it or
	// past what it could hold.
	ErrCorrupt = errors.New("corrupt trace.dat")
)

// file is a trace.dat file's metadata and the raw ring-buffer data of its
// CPUs, read into memory.
type file struct {
	version                 int
	order                   binary.ByteOrder
	longSize                int
	pageSize                int
	compress                string // "" or "none": uncompressed
	header                  pageHeader
	headerPage, headerEvent []byte // header_page and header_event as recorded
	formats                 []*ftracefmt.Format
	kallsyms                []byte
	printk                  []byte
	cmdlines                []byte
	tgids                   map[int32]int32 // thread -> process, from OptSavedTgids
	uname                   string
	clock                   string
	cpuCount                int
	buffers                 []buffer
	tsOffset                int64 // the OFFSET option, added to every timestamp
	data                    *fileData
	later                   []sectionRef  // sections read when first needed (lazy)
	state                   *indexState   // the index's state, whose chunk sizes spare walking the chunks (lazy)
	zstd                    *zstd.Decoder // made on first use, for every section and chunk
	// lazy: compressed CPU data is only located when the file is parsed
	// and decompressed chunk by chunk as it is read (see lazyData).
	lazy bool
}

// buffer is one trace instance's data: its CPUs' ring-buffer pages.
type buffer struct {
	name     string
	clock    string
	pageSize int
	cpus     []cpuData
}

// cpuData is the pages one CPU recorded, read (and decompressed) a chunk
// at a time as they are needed.
type cpuData struct {
	cpu    int
	offset int64     // in the file, for error messages
	chunks *lazyData // read on demand
}

// length is the number of bytes of the CPU's (decompressed) data.
func (d *cpuData) length() int { return d.chunks.size }

// slice returns the bytes [off, off+n) of the CPU's data, cut at its end
// (off must be below length), valid until the next call.
func (d *cpuData) slice(f *file, off, n int) ([]byte, error) {
	return d.chunks.slice(f, off, min(off+n, d.length()))
}

// close releases the zstd decoder, if one was made.
func (f *file) close() {
	if f.zstd != nil {
		f.zstd.Close()
		f.zstd = nil
	}
}

// rd reads fields from a byte slice with bounds checks; the first failure
// sticks in err and every later read returns zero values.
type rd struct {
	b     []byte
	off   int
	order binary.ByteOrder
	err   error
	what  string // section being read, for errors
	base  int64  // file offset of b[0], for errors
}

func (r *rd) fail(format string, a ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s at offset %d: %s", ErrCorrupt, r.what, r.base+int64(r.off), fmt.Sprintf(format, a...))
	}
}

func (r *rd) take(n uint64) []byte {
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)-r.off) {
		r.fail("%d bytes needed, %d left", n, len(r.b)-r.off)
		return nil
	}
	s := r.b[r.off : r.off+int(n)]
	r.off += int(n)
	return s
}

func (r *rd) u16() uint16 {
	if b := r.take(2); b != nil {
		return r.order.Uint16(b)
	}
	return 0
}

func (r *rd) u32() uint32 {
	if b := r.take(4); b != nil {
		return r.order.Uint32(b)
	}
	return 0
}

func (r *rd) u64() uint64 {
	if b := r.take(8); b != nil {
		return r.order.Uint64(b)
	}
	return 0
}

// str reads a NUL-terminated string.
func (r *rd) str() string {
	if r.err != nil {
		return ""
	}
	i := bytes.IndexByte(r.b[r.off:], 0)
	if i < 0 {
		r.fail("string without its terminating NUL")
		return ""
	}
	s := string(r.b[r.off : r.off+i])
	r.off += i + 1
	return s
}

// cstr returns b up to its first NUL.
func cstr(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(bytes.TrimRight(b, "\n"))
}

// headBytes is how much of the file's start is read for its header: the
// magic, version, sizes and (version 7) compression and first options
// offset fit in it.
const headBytes = 4096

// parseFile reads the metadata and data of a trace.dat; lazy leaves
// compressed CPU data to be decompressed as it is read (the decoder is
// then kept, for [file.close]) and the event formats, kallsyms and printk
// formats of a version 7 file to be read when first needed
// ([file.loadSections]); st, if not nil, gives the chunk sizes of
// compressed CPU data. Of a version 6 file, the metadata at its start is
// read (see v6Prefix); the CPU data is read as it is needed.
func parseFile(d *fileData, lazy bool, st *indexState) (*file, error) {
	return parseFileFirst(d, lazy, st, v6Prefix)
}

// parseFileFirst is parseFile reading first bytes of a version 6 file
// for its metadata.
func parseFileFirst(d *fileData, lazy bool, st *indexState, first int64) (*file, error) {
	f, err := parsePrefix(d, d.all, lazy, st)
	if err != nil || f.version != 6 || d.all != nil {
		return f, err
	}
	for n := min(d.size, first); ; n = min(d.size, 4*n) {
		meta, err := d.read(0, uint64(n))
		if err != nil {
			return nil, err
		}
		if f, err = parsePrefix(d, meta, lazy, st); err == nil || n == d.size {
			return f, err
		}
	}
}

// v6Prefix is how much of a version 6 file is read first for its
// metadata (headers, event formats, kallsyms, printk formats, cmdlines,
// options and the CPU data's offsets, all before the data): enough for
// current kernels' kallsyms; when the metadata does not parse within it,
// four times as much is read, up to the whole file.
const v6Prefix = 16 << 20

// parsePrefix is parseFile with meta, a prefix of a version 6 file that
// its metadata must fit in (nil: the version is read and a version 6
// file is returned unparsed, for parseFile to read its prefix).
func parsePrefix(d *fileData, meta []byte, lazy bool, st *indexState) (*file, error) {
	head, err := d.read(0, uint64(min(d.size, headBytes)))
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(head, []byte(Magic)) {
		return nil, ErrNotTraceDat
	}
	r := &rd{b: head, off: len(Magic), what: "file header", order: binary.LittleEndian}
	v, err := strconv.Atoi(r.str())
	if r.err != nil {
		return nil, r.err
	}
	if err != nil || (v != 6 && v != 7) {
		return nil, fmt.Errorf("%w: version %d", ErrVersion, v)
	}
	if v == 6 { // its sections follow each other from the header on
		if meta == nil {
			return &file{version: v}, nil
		}
		r.b = meta
	}
	f := &file{version: v, data: d, lazy: lazy, state: st}
	endian := r.take(1)
	long := r.take(1)
	if r.err != nil {
		return nil, r.err
	}
	if endian[0] == 1 {
		f.order = binary.BigEndian
	} else {
		f.order = binary.LittleEndian
	}
	r.order = f.order
	f.longSize = int(long[0])
	if f.longSize != 4 && f.longSize != 8 {
		return nil, fmt.Errorf("%w: long size %d (4 or 8 expected)", ErrCorrupt, f.longSize)
	}
	f.pageSize = int(r.u32())
	if r.err == nil && (f.pageSize < 64 || f.pageSize > 1<<24) {
		return nil, fmt.Errorf("%w: page size %d", ErrCorrupt, f.pageSize)
	}
	if v == 6 {
		err = f.parseV6(r)
	} else {
		err = f.parseV7(r)
	}
	if err != nil {
		return nil, err
	}
	if f.header.dataOffset == 0 {
		f.header = defaultPageHeader(f.longSize)
	}
	return f, nil
}
