package tracedat

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"

	"github.com/tracetui/tracetui/ingest/ftracefmt"
)

// StateVersion is the version of [Source.IndexState]'s encoding, part of
// the index fingerprint: an index holding another version is rebuilt.
const StateVersion = 1

// Version is the reader's version in the index fingerprint. It changes
// when what the reader gives the index changes, or when StateVersion
// does (2: each event's process from the saved tgids).
const Version = 2

// The index state: what a reader opened Indexed needs from the trace's
// metadata, kept in the index at build time so that opening the trace for
// the event table reads no event-format or kallsyms section. Those are
// compressed in a version 7 file (2 MB and 5.4 MB once decompressed on a
// current kernel): decompressing and parsing them cost 150-190 ms of the
// event table's first page on a 1.3 M-event capture, where the page needs
// the formats of a dozen events and the names of a few functions.
//
// Encoding, all integers little-endian:
//
//	"tdstate" and the version byte (8 bytes)
//	u32 formats; per format: u32 n, n bytes of system name,
//	    u32 m, m bytes of format file (as recorded)
//	u64 the lowest symbol address (^0 when kallsyms is empty)
//	u32 symbols; per symbol, by ascending value:
//	    u64 value, u64 the address of its symbol, u32 n, n bytes of name
//	u32 compressed CPU data regions; per region: u64 its file offset,
//	    u32 n chunks, n times (u32 compressed size, u32 size)
//	u32 CRC-32 (IEEE) of every byte before it
//
// The formats are those of the events the trace holds; the symbols are
// the values of the pointer-sized fields of its events that kallsyms
// resolves (a symbol at or below them), so the printed functions of the
// timer, workqueue and kmem events are found without kallsyms. A value
// not listed (an address computed by a print format's expression, an
// array element) makes the reader parse kallsyms as without a state. The
// chunk sizes locate the chunks of compressed CPU data without reading
// their headers all over the file; a region whose chunk count or sizes do
// not match the file is walked as without a state.
var stateMagic = "tdstate" + string(rune(StateVersion))

// ErrState is wrapped by the errors of a state that does not decode.
var ErrState = errors.New("trace.dat index state damaged")

// maxSymbolValues bounds the values collected for the state while
// indexing: past it, the rest are looked up in kallsyms when printed.
const maxSymbolValues = 1 << 20

// indexState is a decoded index state.
type indexState struct {
	formats map[int]stateFormat // by event id, parsed when first met
	first   uint64              // lowest symbol address: nothing below resolves
	values  []uint64
	starts  []uint64
	names   []string
	chunks  map[uint64][]chunkSize // by file offset of the region
}

// IndexState returns the state to keep in the index (see the encoding
// above), after the last event was read from a Source opened without
// Indexed. It parses kallsyms.
func (s *Source) IndexState() []byte {
	out := []byte(stateMagic)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(s.order)))
	for _, cl := range s.order {
		out = appendBytes(out, []byte(cl.format.System))
		out = appendBytes(out, cl.format.Text)
	}
	syms := s.symbols()
	first := ^uint64(0)
	if a, ok := syms.First(); ok {
		first = a
	}
	out = binary.LittleEndian.AppendUint64(out, first)
	values := make([]uint64, 0, len(s.symValues))
	for v := range s.symValues {
		if v >= first {
			values = append(values, v)
		}
	}
	slices.Sort(values)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(values)))
	for _, v := range values {
		name, start, _ := syms.Lookup(v)
		out = binary.LittleEndian.AppendUint64(out, v)
		out = binary.LittleEndian.AppendUint64(out, start)
		out = appendBytes(out, []byte(name))
	}
	return appendChecksum(s.f.appendChunkSizes(out))
}

// appendChecksum appends the CRC-32 of b.
func appendChecksum(b []byte) []byte {
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// appendChunkSizes appends the regions of compressed CPU data with their
// chunk sizes (uncompressed data has no chunks of its own).
func (f *file) appendChunkSizes(out []byte) []byte {
	var cpus []*cpuData
	for bi := range f.buffers {
		for ci := range f.buffers[bi].cpus {
			if d := &f.buffers[bi].cpus[ci]; d.chunks != nil && !d.chunks.stored {
				cpus = append(cpus, d)
			}
		}
	}
	out = binary.LittleEndian.AppendUint32(out, uint32(len(cpus)))
	for _, d := range cpus {
		out = binary.LittleEndian.AppendUint64(out, uint64(d.offset))
		out = binary.LittleEndian.AppendUint32(out, uint32(len(d.chunks.chunks)))
		for _, c := range d.chunks.chunks {
			out = binary.LittleEndian.AppendUint32(out, uint32(c.csize))
			out = binary.LittleEndian.AppendUint32(out, uint32(c.usize))
		}
	}
	return out
}

func appendBytes(dst, b []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(b)))
	return append(dst, b...)
}

// decodeState reads an index state, checking every length against the
// bytes there are.
func decodeState(b []byte) (*indexState, error) {
	if len(b) < len(stateMagic)+4 || string(b[:len(stateMagic)]) != stateMagic {
		return nil, fmt.Errorf("%w: no %q header", ErrState, stateMagic)
	}
	body := b[:len(b)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrState)
	}
	r := &rd{b: body, off: len(stateMagic), order: binary.LittleEndian, what: "index state"}
	st := &indexState{}
	n := r.u32()
	if uint64(n) > uint64(len(body))/8 {
		r.fail("%d formats", n)
		n = 0
	}
	st.formats = make(map[int]stateFormat, n)
	for i := uint32(0); i < n && r.err == nil; i++ {
		system := string(r.take(uint64(r.u32())))
		text := r.take(uint64(r.u32()))
		if id, ok := ftracefmt.FormatID(text); ok && r.err == nil {
			st.formats[id] = stateFormat{system: system, text: text}
		}
	}
	st.first = r.u64()
	n = r.u32()
	if uint64(n) > uint64(len(body))/20 {
		r.fail("%d symbols", n)
	}
	if r.err == nil {
		st.values, st.starts, st.names = make([]uint64, 0, n), make([]uint64, 0, n), make([]string, 0, n)
	}
	for i := uint32(0); i < n && r.err == nil; i++ {
		v, start, name := r.u64(), r.u64(), string(r.take(uint64(r.u32())))
		if k := len(st.values); k > 0 && v <= st.values[k-1] {
			r.fail("symbol values out of order")
		}
		st.values, st.starts, st.names = append(st.values, v), append(st.starts, start), append(st.names, name)
	}
	st.chunks = decodeChunkSizes(r)
	if r.err == nil && r.off != len(body) {
		r.fail("%d bytes after the symbols", len(body)-r.off)
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: %w", ErrState, r.err)
	}
	return st, nil
}

// stateFormat is an event's format file kept in a state.
type stateFormat struct {
	system string
	text   []byte
}

// format parses the format of event id, nil when the state has none (or
// it names no event).
func (st *indexState) format(id int) *ftracefmt.Format {
	sf, ok := st.formats[id]
	if !ok {
		return nil
	}
	ef := ftracefmt.Parse(sf.text, sf.system)
	if ef == nil || ef.ID != id {
		return nil
	}
	return ef
}

// decodeChunkSizes reads the regions of compressed CPU data of a state.
func decodeChunkSizes(r *rd) map[uint64][]chunkSize {
	n := r.u32()
	if uint64(n) > uint64(len(r.b)-r.off)/12 {
		r.fail("%d regions of CPU data", n)
		return nil
	}
	out := make(map[uint64][]chunkSize, n)
	for i := uint32(0); i < n && r.err == nil; i++ {
		off, count := r.u64(), r.u32()
		if uint64(count) > uint64(len(r.b)-r.off)/8 {
			r.fail("%d chunks", count)
			return nil
		}
		sizes := make([]chunkSize, count)
		for k := range sizes {
			sizes[k] = chunkSize{csize: r.u32(), usize: r.u32()}
		}
		out[off] = sizes
	}
	return out
}

// lookup resolves addr from the state: found reports whether the state
// knows (a value it lists, or one below every symbol); if not, kallsyms
// has to be asked.
func (st *indexState) lookup(addr uint64) (name string, start uint64, ok, found bool) {
	if addr < st.first {
		return "", 0, false, true
	}
	i, hit := slices.BinarySearch(st.values, addr)
	if !hit {
		return "", 0, false, false
	}
	return st.names[i], st.starts[i], true, true
}

// collectSymbolValue notes a field's value for the index state when it
// may be a kernel address (the high bit of a 64-bit value set).
func (s *Source) collectSymbolValue(fd *ftracefmt.Field, v int64) {
	if s.symValues == nil || fd.Size != 8 || v >= 0 || len(s.symValues) >= maxSymbolValues {
		return
	}
	s.symValues[uint64(v)] = struct{}{}
}
