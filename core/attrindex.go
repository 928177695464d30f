package core

// The attribute tree's indexes: the key table that finds a child by
// (parent, name id), and the interned names (decimal ones by value).

// keyTable finds a key by its (parent, name id): an open-addressing hash
// table of keys alone (slots hold key+1, 0 is empty), compared through the
// tree's parent and name arrays. At most 13/16 full, it takes 6.2 to 12.3
// bytes per key, where a Go map of (parent, name) to key took 15 to 30.
// Each slot also keeps 8 bits of its key's hash (tags), so that a probe
// reads the key's parent and name (a cache miss in a table of millions)
// only when they are likely to match: most look-ups of a build are misses
// (a new thread's first sub-attribute), which would otherwise cost a miss
// per occupied slot passed (eight on average at 3/4 full). With the tags,
// passing slots costs sequential reads, so the table is allowed fuller
// than the usual 3/4: 12.9 M keys fit in 2^24 slots instead of 2^25.
type keyTable struct {
	slots []int32
	tags  []uint8
	n     int
}

func refHash(parent Key, name uint32) uint64 {
	x := (uint64(uint32(parent))<<32 | uint64(name)) * 0x9E3779B97F4A7C15
	return x ^ x>>31
}

// refLine is the line of 16 slots (64 bytes) of the key table where the
// probe for (parent, name) starts: chosen by the parent and the name id's
// block of 16. The name's place in the block is its place in the line.
// The attributes an analysis creates together (a thread's Exec_name, PID,
// PPID, ...: names of one block, or a few) then share a line of the table
// instead of taking a random line each (a cache miss per attribute: 13%
// of the analyses' CPU in a build of 200 000 threads). A full line sends
// the probe to another line of the same hash, not to the next one, so
// that the groups do not pile up into long runs as linear probing would.
func refLine(parent Key, name uint32) uint64 { return refHash(parent, name>>4) }

// refTag is the part of a hash kept in a slot's tag: its top bits, which
// the slot index (its low bits) does not use below 2^56 slots.
func refTag(h uint64) uint8 { return uint8(h >> 56) }

// find returns the key of (parent, name), or -1.
func (t *AttributeTree) find(parent Key, name uint32) Key {
	if len(t.child.slots) == 0 {
		return -1
	}
	k, _ := t.probe(parent, name)
	return k
}

// probe returns the key of (parent, name), or -1 and the empty slot where
// it goes; the table must have slots. It looks at the slots of a line
// from the name's place on, wrapping within the line, then at the lines
// that follow by an odd step (every line, since their count is a power of
// two), until it finds the key or an empty slot.
func (t *AttributeTree) probe(parent Key, name uint32) (Key, uint64) {
	kt := &t.child
	lineMask := uint64(len(kt.slots)/16 - 1)
	tag := refTag(refHash(parent, name))
	h := refLine(parent, name)
	step := h>>32 | 1
	for line := h; ; line += step {
		base := line & lineMask * 16
		for j := uint64(name); j < uint64(name)+16; j++ {
			i := base + j%16
			s := kt.slots[i]
			if s == 0 {
				return -1, i
			}
			if kt.tags[i] != tag {
				continue
			}
			if k := Key(s - 1); *t.entry(k) == (attrEntry{parent, name}) {
				return k, i
			}
		}
	}
}

// The key table is at most maxFillNum/maxFillDen full.
const maxFillNum, maxFillDen = 13, 16

// reserve makes the table hold want keys without growing.
func (t *AttributeTree) reserve(want int) {
	kt := &t.child
	if want*maxFillDen <= len(kt.slots)*maxFillNum {
		return
	}
	size := 64
	for want*maxFillDen > size*maxFillNum {
		size *= 2
	}
	// Every key is in the table. Placed again in key order, the keys
	// created together land in their shared lines one after the other.
	kt.slots, kt.tags, kt.n = make([]int32, size), make([]uint8, size), 0
	for k := range Key(t.n) {
		t.place(k)
	}
}

// place puts key k (whose parent and name are set, and which is not in
// the table) in the table, which has room.
func (t *AttributeTree) place(k Key) {
	e := t.entry(k)
	_, i := t.probe(e.parent, e.name)
	t.child.slots[i], t.child.tags[i] = int32(k)+1, refTag(refHash(e.parent, e.name))
	t.child.n++
}

// decimalName returns the value of a name that is a decimal number in
// its one canonical spelling below 2^32 ("0", "42"; not "042", "+1", ""
// or "4294967296"), so that names and values map one to one.
func decimalName(s string) (uint32, bool) {
	if len(s) == 0 || len(s) > 10 || s[0] == '0' && len(s) > 1 {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		d := s[i] - '0'
		if d > 9 {
			return 0, false
		}
		v = v*10 + uint64(d)
	}
	if v > 1<<32-1 {
		return 0, false
	}
	return uint32(v), true
}

// decimalIDs maps decimal names to their ids by value: values below
// denseDecimals in pages of an array indexed by the value, made when a
// value falls in them; larger ones in a map. Linux allocates thread ids
// in order, so the threads a trace creates together share a page: the
// map of every value (an integer key, which hashed faster than the
// string) spent about 250 ns a look-up or insertion at 200 000 threads,
// a cache miss each, and its growth. A page costs 1 KiB, the map about
// 10 bytes a value: ids scattered one to a page (processes listed by a
// state dump) cost 1 KiB each instead, a few MB for thousands.
type decimalIDs struct {
	pages []*[decimalPageLen]uint32 // by value/decimalPageLen; id+1 by value%decimalPageLen, 0: none
	big   map[uint32]uint32
}

const (
	decimalPageLen = 1 << 8
	// denseDecimals bounds the values kept in pages: Linux's largest
	// pid_max, 2^22 (the page list then takes 128 KiB at most).
	denseDecimals = 1 << 22
)

// get returns the id of the name of decimal value v.
func (d *decimalIDs) get(v uint32) (uint32, bool) {
	if v >= denseDecimals {
		id, ok := d.big[v]
		return id, ok
	}
	p := v / decimalPageLen
	if int(p) >= len(d.pages) || d.pages[p] == nil {
		return 0, false
	}
	id := d.pages[p][v%decimalPageLen]
	return id - 1, id != 0
}

// set records id as the id of the name of decimal value v.
func (d *decimalIDs) set(v, id uint32) {
	if v >= denseDecimals {
		if d.big == nil {
			d.big = map[uint32]uint32{}
		}
		d.big[v] = id
		return
	}
	p := int(v / decimalPageLen)
	if p >= len(d.pages) {
		d.pages = append(d.pages, make([]*[decimalPageLen]uint32, p+1-len(d.pages))...)
	}
	if d.pages[p] == nil {
		d.pages[p] = new([decimalPageLen]uint32)
	}
	d.pages[p][v%decimalPageLen] = id + 1
}

// nameID returns the id of an interned name.
func (t *AttributeTree) nameID(name string) (uint32, bool) {
	if v, ok := decimalName(name); ok {
		return t.decimals.get(v)
	}
	id, ok := t.nameIDs[name]
	return id, ok
}

// intern returns the id of name, interning it the first time.
func (t *AttributeTree) intern(name string) uint32 {
	if id, ok := t.nameID(name); ok {
		return id
	}
	id := uint32(t.nNames)
	t.names = AppendPaged(t.names, t.nNames, namePageLen, name)
	t.nNames++
	if v, ok := decimalName(name); ok {
		t.decimals.set(v, id)
	} else {
		t.nameIDs[name] = id
	}
	return id
}

// Grow makes room for n more attributes, so that adding them does not
// grow the key table and maps step by step (loading a million attributes
// from an index spends most of its time there otherwise). names is the
// number of distinct names expected among them, if known (0: unknown).
func (t *AttributeTree) Grow(n, names int) {
	t.mustBeMutable()
	if n <= 0 {
		return
	}
	t.reserve(t.n + n)
	// Maps cannot grow in place: rebuild them with the final size (the
	// new names may be decimal or not).
	if names > 0 {
		t.nameIDs = grownMap(t.nameIDs, names)
		if len(t.decimals.big) > 0 {
			t.decimals.big = grownMap(t.decimals.big, names)
		}
	}
}

// grownMap returns a copy of m with room for more entries.
func grownMap[K comparable](m map[K]uint32, more int) map[K]uint32 {
	out := make(map[K]uint32, len(m)+more)
	for k, v := range m {
		out[k] = v
	}
	return out
}
