package history

import (
	"math"

	"github.com/tracetui/tracetui/core"
)

// statePageLen is the number of keys of one page of the current-state
// table (384 KiB of keyState, 32 KiB of kinds).
const statePageLen = 1 << 15

// keyState is a key's current value bits, without its kind (kept apart,
// so the struct has no padding), its wide bits or its string (kept in the
// table's wide pages and strs), and the time it took it, as two words: 12
// bytes, where an int64 time and a uint64 value made 16, and 13 per key
// with the kind. A build of 12.9 M keys holds the table at its peak.
type keyState struct {
	sinceLo, sinceHi uint32
	num              uint32 // an int32 value's bits
}

// since returns the time the key took its value.
func (st *keyState) since() core.Time {
	return core.Time(uint64(st.sinceHi)<<32 | uint64(st.sinceLo))
}

// setSince records the time the key took its value.
func (st *keyState) setSince(t core.Time) { st.sinceLo, st.sinceHi = uint32(t), uint32(uint64(t)>>32) }

// stateTable is the builder's current state of every key. It grows by
// pages, never by copying: a build of ten million keys does not hold the
// table twice while it grows, nor half of it unused. The 64-bit values
// (int64, float64) of a page's keys live in a page of wide bits made the
// first time one of them takes one, so kernel traces (int32 values and
// strings) do not pay for them; strings live in a map, so the keys that
// never hold one (most) do not pay for a string header.
type stateTable struct {
	pages [][]keyState
	kinds [][]core.Kind // the value's kind, by page like pages
	wide  [][]uint64    // a 64-bit value's bits, by page like pages; nil pages until used
	n     int
	strs  map[core.Key]string
}

func newStateTable() *stateTable { return &stateTable{strs: map[core.Key]string{}} }

// len returns the number of keys.
func (s *stateTable) len() int { return s.n }

// grow adds keys up to n, each null since since.
func (s *stateTable) grow(n int, since core.Time) {
	for s.n < n {
		if s.n%statePageLen == 0 {
			s.pages = append(s.pages, make([]keyState, statePageLen))
			s.kinds = append(s.kinds, make([]core.Kind, statePageLen))
			s.wide = append(s.wide, nil)
		}
		s.pages[s.n/statePageLen][s.n%statePageLen].setSince(since)
		s.n++
	}
}

// at returns key k's state, k < len().
func (s *stateTable) at(k core.Key) *keyState { return &s.pages[k/statePageLen][k%statePageLen] }

// kind returns key k's current value's kind.
func (s *stateTable) kind(k core.Key) *core.Kind {
	return &s.kinds[k/statePageLen][k%statePageLen]
}

// wideBits returns key k's 64-bit value bits, making its page if needed.
func (s *stateTable) wideBits(k core.Key) *uint64 {
	page := &s.wide[k/statePageLen]
	if *page == nil {
		*page = make([]uint64, statePageLen)
	}
	return &(*page)[k%statePageLen]
}

// value returns key k's current value.
func (s *stateTable) value(k core.Key) core.Value {
	switch *s.kind(k) {
	case core.KindInt32:
		return core.Int32(int32(s.at(k).num))
	case core.KindInt64:
		return core.Int64(int64(*s.wideBits(k)))
	case core.KindFloat64:
		return core.Float64(math.Float64frombits(*s.wideBits(k)))
	case core.KindString:
		return core.String(s.strs[k])
	}
	return core.Null()
}

// set makes v key k's current value.
func (s *stateTable) set(k core.Key, v core.Value) {
	st, kind := s.at(k), s.kind(k)
	if *kind == core.KindString {
		delete(s.strs, k)
	}
	*kind, st.num = v.Kind(), 0
	switch v.Kind() {
	case core.KindInt32:
		st.num = uint32(v.Int())
	case core.KindInt64:
		*s.wideBits(k) = uint64(v.Int())
	case core.KindFloat64:
		*s.wideBits(k) = math.Float64bits(v.Float())
	case core.KindString:
		s.strs[k] = v.Str()
	}
}
