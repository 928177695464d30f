package chrome

import (
	"encoding/binary"
	"strings"
)

// Catalog encoding in the persisted order (strings are uvarint length +
// bytes):
//
//	uvarint classes; per class: name, uvarint argument count (<= 32), each
//	        argument name (without "args.")
//	varint  overflow class (-1: none)
//	uvarint processes; per process: pid, 1 byte (1: pid was a number), name
//	uvarint threads after thread 0; per thread: pid, tid, 1 byte flags
//	        (1: has tid, 2: pid a number, 4: tid a number), uvarint process, comm

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// encode serialises the finished catalog.
func (c *catalog) encode() []byte {
	var b []byte
	b = binary.AppendUvarint(b, uint64(len(c.classes)))
	for _, ci := range c.classes {
		b = appendString(b, ci.class.Name)
		args := ci.class.Fields[numBaseFields:]
		b = binary.AppendUvarint(b, uint64(len(args)))
		for _, a := range args {
			b = appendString(b, strings.TrimPrefix(a, ArgFieldPrefix))
		}
	}
	b = binary.AppendVarint(b, int64(c.overflow))
	b = binary.AppendUvarint(b, uint64(len(c.procs)))
	for _, p := range c.procs {
		b = appendString(b, p.pid)
		b = append(b, boolByte(p.pidNum))
		b = appendString(b, p.name)
	}
	b = binary.AppendUvarint(b, uint64(len(c.threads)-1))
	for _, t := range c.threads[1:] {
		b = appendString(b, t.pid)
		b = appendString(b, t.tid)
		b = append(b, boolByte(t.hasTid)|boolByte(t.pidNum)<<1|boolByte(t.tidNum)<<2)
		b = binary.AppendUvarint(b, uint64(t.proc))
		b = appendString(b, t.comm)
	}
	return b
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// catalogDecoder reads the encoding, remembering the first problem.
type catalogDecoder struct {
	b   []byte
	bad bool
}

func (d *catalogDecoder) uvarint(limit uint64) uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 || v > limit {
		d.bad = true
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *catalogDecoder) str() string {
	l := d.uvarint(uint64(len(d.b)))
	if d.bad || l > uint64(len(d.b)) {
		d.bad = true
		return ""
	}
	s := string(d.b[:l])
	d.b = d.b[l:]
	return s
}

func (d *catalogDecoder) byte1() byte {
	if len(d.b) == 0 {
		d.bad = true
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

// decodeCatalog rebuilds a finished catalog (with its lookup maps) from
// its encoding. Every count is bounded by the bytes left, so hostile input
// cannot make it allocate more than a small multiple of its size.
func decodeCatalog(b []byte) (*catalog, error) {
	c := newCatalog()
	d := &catalogDecoder{b: b}
	nc := d.uvarint(min(uint64(len(b)), maxClasses+1))
	for i := uint64(0); i < nc && !d.bad; i++ {
		name := d.str()
		id := c.newClass(name)
		ci := c.classes[id]
		na := d.uvarint(maxArgFields)
		for j := uint64(0); j < na && !d.bad; j++ {
			a := d.str()
			ci.argIndex[a] = len(ci.class.Fields)
			ci.class.Fields = append(ci.class.Fields, ArgFieldPrefix+a)
		}
	}
	ov, n := binary.Varint(d.b)
	if d.bad || n <= 0 || ov < -1 || ov >= int64(nc) {
		return nil, orderCorrupt("catalog classes")
	}
	d.b = d.b[n:]
	c.overflow = int32(ov)
	for i, ci := range c.classes {
		if int32(i) != c.overflow {
			c.classByName[ci.class.Name] = int32(i)
		}
	}
	np := d.uvarint(uint64(len(d.b)))
	for i := uint64(0); i < np && !d.bad; i++ {
		p := procInfo{pid: d.str(), pidNum: d.byte1() == 1, name: d.str()}
		c.procByPid[p.pid] = int32(len(c.procs))
		c.procs = append(c.procs, p)
	}
	nt := d.uvarint(min(uint64(len(d.b)), maxThreads))
	for i := uint64(0); i < nt && !d.bad; i++ {
		t := threadInfo{pid: d.str(), tid: d.str()}
		fl := d.byte1()
		t.hasTid, t.pidNum, t.tidNum = fl&1 != 0, fl&2 != 0, fl&4 != 0
		t.proc = int32(d.uvarint(max(np, 1) - 1))
		t.comm = d.str()
		if np == 0 {
			d.bad = true
		}
		c.threadByKey[string(threadKey(nil, []byte(t.pid), []byte(t.tid), t.hasTid))] = int32(len(c.threads))
		c.threads = append(c.threads, t)
	}
	if d.bad || len(d.b) != 0 {
		return nil, orderCorrupt("catalog processes and threads")
	}
	c.finish()
	return c, nil
}
