package tsdl

import (
	"encoding/binary"
	"fmt"
	"math"
)

// DecodeBinary returns the model whose binary form (see binary.go) is b.
// Any error wraps [ErrBinary].
func DecodeBinary(b []byte) (*Trace, error) {
	// Names are cut from one copy of the bytes: one allocation, not one
	// per field name (a kernel trace's model names 6 000 fields).
	d := &decoder{b: b, all: string(b)}
	t, err := d.trace()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBinary, err)
	}
	if len(d.b) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the model", ErrBinary, len(d.b))
	}
	return t, nil
}

type decoder struct {
	b      []byte
	all    string // b as first given, for its strings
	types  []*Type
	depth  []int // per type: its nesting, 1 for a leaf
	clocks []*Clock
	// refDepth is the nesting of the type the last ref read (0: none).
	refDepth int
	backing  []Type // the table's types, in order
	ctf2     bool   // a CTF 2 model (binary2.go)
}

var errShort = fmt.Errorf("truncated")

func (d *decoder) byte() (byte, error) {
	if len(d.b) == 0 {
		return 0, errShort
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c, nil
}

func (d *decoder) uint() (uint64, error) {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		return 0, errShort
	}
	d.b = d.b[n:]
	return v, nil
}

func (d *decoder) varint() (int64, error) {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		return 0, errShort
	}
	d.b = d.b[n:]
	return v, nil
}

// int reads an unsigned varint that fits an int up to max.
func (d *decoder) int(max uint64) (int, error) {
	v, err := d.uint()
	if err != nil {
		return 0, err
	}
	if v > max {
		return 0, fmt.Errorf("value %d over %d", v, max)
	}
	return int(v), nil
}

// count reads a count of items that each take at least one byte of what
// follows it.
func (d *decoder) count() (int, error) {
	v, err := d.uint()
	if err != nil {
		return 0, err
	}
	if v > uint64(len(d.b)) {
		return 0, fmt.Errorf("count %d over the %d bytes left", v, len(d.b))
	}
	return int(v), nil
}

func (d *decoder) str() (string, error) {
	n, err := d.count()
	if err != nil {
		return "", err
	}
	at := len(d.all) - len(d.b)
	d.b = d.b[n:]
	return d.all[at : at+n], nil
}

func (d *decoder) uuid(u *[16]byte) error {
	if len(d.b) < 16 {
		return errShort
	}
	copy(u[:], d.b)
	d.b = d.b[16:]
	return nil
}

// ref reads a reference to an earlier type of the table.
func (d *decoder) ref() (*Type, error) {
	d.refDepth = 0
	i, err := d.int(uint64(len(d.types)))
	if err != nil || i == 0 {
		return nil, err
	}
	d.refDepth = d.depth[i-1]
	return d.types[i-1], nil
}

func (d *decoder) trace() (*Trace, error) {
	if len(d.b) < len(binaryMagic)+1 || string(d.b[:len(binaryMagic)]) != binaryMagic {
		return nil, fmt.Errorf("no %s magic", binaryMagic)
	}
	if v := d.b[len(binaryMagic)]; v != binaryVersion {
		return nil, fmt.Errorf("version %d, want %d", v, binaryVersion)
	}
	d.b = d.b[len(binaryMagic)+1:]
	t := &Trace{}
	var err error
	if t.Major, err = d.int(math.MaxInt32); err != nil {
		return nil, err
	}
	if t.Minor, err = d.int(math.MaxInt32); err != nil {
		return nil, err
	}
	d.ctf2 = t.IsCTF2()
	flags, err := d.byte()
	if err != nil {
		return nil, err
	}
	t.HasUUID, t.BigEndian = flags&1 != 0, flags&2 != 0
	if err := d.uuid(&t.UUID); err != nil {
		return nil, err
	}
	if err := d.clockList(t); err != nil {
		return nil, err
	}
	if err := d.env(t); err != nil {
		return nil, err
	}
	n, err := d.count()
	if err != nil {
		return nil, err
	}
	d.backing = make([]Type, n) // one allocation for the table
	d.types, d.depth = make([]*Type, 0, n), make([]int, 0, n)
	for range n {
		if err := d.typ(); err != nil {
			return nil, fmt.Errorf("type %d: %w", len(d.types), err)
		}
	}
	if t.PacketHeader, err = d.ref(); err != nil {
		return nil, err
	}
	if n, err = d.count(); err != nil {
		return nil, err
	}
	for range n {
		s, err := d.stream()
		if err != nil {
			return nil, fmt.Errorf("stream %d: %w", len(t.Streams), err)
		}
		t.Streams = append(t.Streams, s)
	}
	if d.ctf2 {
		if t.Attributes, err = d.str(); err != nil {
			return nil, err
		}
		f, err := d.byte()
		if err != nil {
			return nil, err
		}
		t.HasUID = f&1 != 0
		if t.UID, err = d.str(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func (d *decoder) clockList(t *Trace) error {
	n, err := d.count()
	if err != nil {
		return err
	}
	for range n {
		c := &Clock{}
		if c.Name, err = d.str(); err != nil {
			return err
		}
		if err := d.uuid(&c.UUID); err != nil {
			return err
		}
		f, err := d.byte()
		if err != nil {
			return err
		}
		c.HasUUID, c.Absolute = f&1 != 0, f&2 != 0
		if c.Description, err = d.str(); err != nil {
			return err
		}
		if c.Freq, err = d.uint(); err != nil {
			return err
		}
		if c.Precision, err = d.uint(); err != nil {
			return err
		}
		if c.OffsetS, err = d.varint(); err != nil {
			return err
		}
		if c.Offset, err = d.varint(); err != nil {
			return err
		}
		if c.Line, err = d.int(math.MaxInt32); err != nil {
			return err
		}
		t.Clocks = append(t.Clocks, c)
	}
	d.clocks = t.Clocks
	return nil
}

func (d *decoder) env(t *Trace) error {
	n, err := d.count()
	if err != nil {
		return err
	}
	for range n {
		var e EnvEntry
		if e.Name, err = d.str(); err != nil {
			return err
		}
		isStr, err := d.byte()
		if err != nil {
			return err
		}
		if e.IsStr = isStr == 1; e.IsStr {
			e.Str, err = d.str()
		} else {
			e.Int, err = d.varint()
		}
		if err != nil {
			return err
		}
		t.Env = append(t.Env, e)
	}
	return nil
}

func (d *decoder) stream() (*StreamClass, error) {
	s := &StreamClass{}
	var err error
	if s.ID, err = d.uint(); err != nil {
		return nil, err
	}
	for _, p := range []**Type{&s.PacketContext, &s.EventHeader, &s.EventContext} {
		if *p, err = d.ref(); err != nil {
			return nil, err
		}
	}
	if s.Line, err = d.int(math.MaxInt32); err != nil {
		return nil, err
	}
	n, err := d.count()
	if err != nil {
		return nil, err
	}
	for range n {
		ev := &EventClass{}
		if ev.Name, err = d.str(); err != nil {
			return nil, err
		}
		if ev.ID, err = d.uint(); err != nil {
			return nil, err
		}
		if ev.StreamID, err = d.uint(); err != nil {
			return nil, err
		}
		if ev.LogLevel, err = d.varint(); err != nil {
			return nil, err
		}
		has, err := d.byte()
		if err != nil {
			return nil, err
		}
		ev.HasLogLevel = has == 1
		if ev.EMFURI, err = d.str(); err != nil {
			return nil, err
		}
		if ev.Context, err = d.ref(); err != nil {
			return nil, err
		}
		if ev.Payload, err = d.ref(); err != nil {
			return nil, err
		}
		if ev.Line, err = d.int(math.MaxInt32); err != nil {
			return nil, err
		}
		if d.ctf2 {
			if ev.Attributes, err = d.str(); err != nil {
				return nil, err
			}
		}
		s.Events = append(s.Events, ev)
	}
	return s, nil
}
