package history

import (
	"math"

	"github.com/tracetui/tracetui/core"
)

// statePageLen is the number of keys of one page of the current-state
// table (512 KiB of keyState, 32 KiB of kinds).
const statePageLen = 1 << 15

// keyState is a key's current value bits, without its kind (kept apart,
// so the struct has no padding) or string (kept in the table's strs), and
// the time it took it: 17 bytes per key with the kind, where the kind in
// the struct made it 24.
type keyState struct {
	since core.Time
	num   uint64 // the value's bits (core.Value's int or float)
}

// stateTable is the builder's current state of every key. It grows by
// pages, never by copying: a build of ten million keys does not hold the
// table twice while it grows, nor half of it unused. A string value is
// the id of the string in a pool (in num), so the keys that never hold
// one (most) do not pay for a string header.
type stateTable struct {
	pages [][]keyState
	kinds [][]core.Kind // the value's kind, by page like pages
	n     int
	strs  stringPool
}

func newStateTable() *stateTable { return &stateTable{strs: stringPool{ids: map[string]uint32{}}} }

// stringPool holds each distinct string that keys hold now once, with
// the count of keys holding it, and forgets it when none does. A system
// call's name set and cleared for every call costs one look-up by string
// here, where a map from key to string took three map operations (set,
// read, delete).
type stringPool struct {
	vals []string // by id ("" when free)
	refs []int32  // keys holding vals[id]
	ids  map[string]uint32
	free []uint32 // ids without a string
}

// ref returns the id of s, counting one more key holding it.
func (p *stringPool) ref(s string) uint32 {
	if id, ok := p.ids[s]; ok {
		p.refs[id]++
		return id
	}
	var id uint32
	if n := len(p.free); n > 0 {
		id, p.free = p.free[n-1], p.free[:n-1]
		p.vals[id], p.refs[id] = s, 1
	} else {
		id = uint32(len(p.vals))
		p.vals, p.refs = append(p.vals, s), append(p.refs, 1)
	}
	p.ids[s] = id
	return id
}

// unref counts one key fewer holding string id, forgetting it at zero.
func (p *stringPool) unref(id uint32) {
	if p.refs[id]--; p.refs[id] == 0 {
		delete(p.ids, p.vals[id])
		p.vals[id] = ""
		p.free = append(p.free, id)
	}
}

// len returns the number of keys.
func (s *stateTable) len() int { return s.n }

// grow adds keys up to n, each null since since.
func (s *stateTable) grow(n int, since core.Time) {
	for s.n < n {
		if s.n%statePageLen == 0 {
			s.pages = append(s.pages, make([]keyState, statePageLen))
			s.kinds = append(s.kinds, make([]core.Kind, statePageLen))
		}
		s.pages[s.n/statePageLen][s.n%statePageLen].since = since
		s.n++
	}
}

// at returns key k's state, k < len().
func (s *stateTable) at(k core.Key) *keyState { return &s.pages[k/statePageLen][k%statePageLen] }

// kind returns key k's current value's kind.
func (s *stateTable) kind(k core.Key) *core.Kind {
	return &s.kinds[k/statePageLen][k%statePageLen]
}

// value returns key k's current value.
func (s *stateTable) value(k core.Key) core.Value {
	st := s.at(k)
	switch *s.kind(k) {
	case core.KindInt32:
		return core.Int32(int32(st.num))
	case core.KindInt64:
		return core.Int64(int64(st.num))
	case core.KindFloat64:
		return core.Float64(math.Float64frombits(st.num))
	case core.KindString:
		return core.String(s.strs.vals[st.num])
	}
	return core.Null()
}

// set makes v key k's current value.
func (s *stateTable) set(k core.Key, v core.Value) {
	st, kind := s.at(k), s.kind(k)
	if *kind == core.KindString {
		s.strs.unref(uint32(st.num))
	}
	*kind, st.num = v.Kind(), 0
	switch v.Kind() {
	case core.KindInt32, core.KindInt64:
		st.num = uint64(v.Int())
	case core.KindFloat64:
		st.num = math.Float64bits(v.Float())
	case core.KindString:
		st.num = uint64(s.strs.ref(v.Str()))
	}
}
