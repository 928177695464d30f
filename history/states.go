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
// table twice while it grows, nor half of it unused. Strings live in a
// map, so the keys that never hold one (most) do not pay for a string
// header.
type stateTable struct {
	pages [][]keyState
	kinds [][]core.Kind // the value's kind, by page like pages
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
	case core.KindInt32, core.KindInt64:
		st.num = uint64(v.Int())
	case core.KindFloat64:
		st.num = math.Float64bits(v.Float())
	case core.KindString:
		s.strs[k] = v.Str()
	}
}
