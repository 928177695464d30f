package pstree

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/tracetui/tracetui/core"
)

// SectionName is the name of the index section holding the encoded table.
const SectionName = "pstree"

// ErrCorrupt is returned by [Decode] for bytes that are not an encoded
// table.
var ErrCorrupt = errors.New("process tree section is corrupt")

// magic starts an encoded table; its last byte is the format version.
const magic = "PST1"

// Encode returns t in the section's format, all integers varints:
//
//	"PST1"
//	uvarint  thread count
//	per thread, in Threads order:
//	  uvarint  key
//	  byte     1 when the thread has a PID, else 0
//	  varint   PID (only when it has one)
//	  uvarint  name length, then the name's bytes
//	uvarint  process count
//	per process, by increasing PID:
//	  varint   PID
//	  uvarint  name length, then the name's bytes
func Encode(t *Table) []byte {
	b := []byte(magic)
	b = binary.AppendUvarint(b, uint64(len(t.Threads)))
	for _, th := range t.Threads {
		b = binary.AppendUvarint(b, uint64(th.Key))
		if th.HasPID {
			b = append(b, 1)
			b = binary.AppendVarint(b, th.PID)
		} else {
			b = append(b, 0)
		}
		b = appendString(b, th.Name)
	}
	pids := make([]int64, 0, len(t.Processes))
	for pid := range t.Processes {
		pids = append(pids, pid)
	}
	slices.Sort(pids)
	b = binary.AppendUvarint(b, uint64(len(pids)))
	for _, pid := range pids {
		b = binary.AppendVarint(b, pid)
		b = appendString(b, t.Processes[pid])
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// Decode reads a table that [Encode] wrote. Every count and length is
// checked against the bytes left before anything is allocated; the names
// share one copy of data.
func Decode(data []byte) (*Table, error) {
	if len(data) < len(magic) || string(data[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: no %q header", ErrCorrupt, magic)
	}
	d := decoder{s: string(data), off: len(magic)}
	// A thread takes at least 3 bytes, a process 2.
	n := d.count(3)
	t := &Table{Threads: make([]Thread, n)}
	for i := range t.Threads {
		th := &t.Threads[i]
		key := d.uvarint()
		if key > math.MaxInt32 {
			d.fail("thread key out of range")
		}
		th.Key = core.Key(key)
		switch d.byte() {
		case 0:
		case 1:
			th.PID, th.HasPID = d.varint(), true
		default:
			d.fail("bad PID flag")
		}
		th.Name = d.string()
	}
	m := d.count(2)
	t.Processes = make(map[int64]string, m)
	for range m {
		pid := d.varint()
		t.Processes[pid] = d.string()
	}
	if d.err == nil && d.off != len(d.s) {
		d.fail("trailing bytes")
	}
	if d.err != nil {
		return nil, d.err
	}
	return t, nil
}

// decoder reads varints and strings from s; after the first error every
// read returns zero values.
type decoder struct {
	s   string
	off int
	err error
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s at byte %d", ErrCorrupt, what, d.off)
	}
	d.off = len(d.s)
}

func (d *decoder) uvarint() uint64 {
	var x uint64
	for shift := 0; d.off < len(d.s) && shift < 64; shift += 7 {
		c := d.s[d.off]
		d.off++
		if c < 0x80 {
			if shift == 63 && c > 1 {
				break
			}
			return x | uint64(c)<<shift
		}
		x |= uint64(c&0x7f) << shift
	}
	d.fail("bad varint")
	return 0
}

func (d *decoder) varint() int64 {
	u := d.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

func (d *decoder) byte() byte {
	if d.off >= len(d.s) {
		d.fail("truncated")
		return 0
	}
	d.off++
	return d.s[d.off-1]
}

// count reads a count of records of at least min bytes each.
func (d *decoder) count(min int) int {
	n := d.uvarint()
	if n > uint64((len(d.s)-d.off)/min) {
		d.fail("count larger than the section")
		return 0
	}
	return int(n)
}

func (d *decoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.s)-d.off) {
		d.fail("name longer than the section")
		return ""
	}
	s := d.s[d.off : d.off+int(n)]
	d.off += int(n)
	return s
}
